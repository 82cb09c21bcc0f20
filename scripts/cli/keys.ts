// The keys command (scripts/keys.ts): creates a key for an email, creating the user and the organization
// when they don't exist, or revokes one. The new key is printed alone on the last line of stdout.
import { parseArgs } from "node:util";
import { createKeyForEmail, isPlausibleEmail } from "@/lib/auth/accounts";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { CliError, type CliIo } from "./run";

export async function keys(args: string[], io: CliIo): Promise<void> {
  const [command, ...rest] = args;
  if (command === "create") {
    const { values } = parseArgs({
      args: rest,
      options: { email: { type: "string" }, org: { type: "string" }, name: { type: "string" } },
      strict: true,
    });
    if (!values.email || !isPlausibleEmail(values.email.trim())) {
      throw new CliError("Usage: npm run --silent keys:create -- --email <email> [--org <name>] [--name <label>]");
    }
    const result = await createKeyForEmail(await io.db(), {
      email: values.email,
      orgName: values.org,
      keyName: values.name,
    });
    io.err(
      `Created key ${result.prefix}… for ${values.email.trim().toLowerCase()} in organization ${result.organizationId}` +
        `${result.createdOrganization ? " (new)" : ""}. It is shown once; store it now.`,
    );
    io.out(result.key);
  } else if (command === "revoke") {
    const key = rest[0];
    if (!key || rest.length !== 1) throw new CliError("Usage: npm run --silent keys:revoke -- <key>");
    if (!(await revokeApiKey(await io.db(), key.trim()))) {
      throw new CliError("No active key matches; it may be unknown or already revoked.");
    }
    io.out("Revoked.");
  } else {
    throw new CliError("Usage: keys.ts create --email <email> [--org <name>] [--name <label>] | keys.ts revoke <key>");
  }
}
