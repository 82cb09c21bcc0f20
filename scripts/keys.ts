// API key management until (and besides) the browser app:
//   npm run --silent keys:create -- --email <email> [--org <name>] [--name <label>]
//   npm run --silent keys:revoke -- <key>
// Honours DATA_DIR / DATABASE_URL like the server. The new key is printed alone on the last line of stdout.
import { parseArgs } from "node:util";
import { createKeyForEmail, isPlausibleEmail } from "@/lib/auth/accounts";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { getDatabase } from "@/lib/db/client";

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  if (command === "create") {
    const { values } = parseArgs({
      args: rest,
      options: { email: { type: "string" }, org: { type: "string" }, name: { type: "string" } },
      strict: true,
    });
    if (!values.email || !isPlausibleEmail(values.email.trim())) {
      fail("Usage: npm run --silent keys:create -- --email <email> [--org <name>] [--name <label>]");
    }
    const database = await getDatabase();
    const result = await createKeyForEmail(database.db, {
      email: values.email,
      orgName: values.org,
      keyName: values.name,
    });
    await database.close();
    process.stderr.write(
      `Created key ${result.prefix}… for ${values.email.trim().toLowerCase()} in organization ${result.organizationId}` +
        `${result.createdOrganization ? " (new)" : ""}. It is shown once; store it now.\n`,
    );
    process.stdout.write(`${result.key}\n`);
  } else if (command === "revoke") {
    const key = rest[0];
    if (!key || rest.length !== 1) fail("Usage: npm run --silent keys:revoke -- <key>");
    const database = await getDatabase();
    const revoked = await revokeApiKey(database.db, key.trim());
    await database.close();
    if (!revoked) fail("No active key matches; it may be unknown or already revoked.");
    process.stdout.write("Revoked.\n");
  } else {
    fail("Usage: keys.ts create --email <email> [--org <name>] [--name <label>] | keys.ts revoke <key>");
  }
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
