// The import command (scripts/import.ts): Markdown (a Marp or Slidev deck, an outline, a brief) → a new
// slides deck of a member's organization, as POST /decks/import does. Prints the new deck's id alone on the
// last line of stdout; a refusal of the import itself reads `<code>: <message>`.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { and, asc, eq } from "drizzle-orm";
import { importDeck, importDeckBody } from "@/lib/ai/import-deck";
import { parseInput } from "@/lib/api/input";
import { normalizeEmail } from "@/lib/auth/accounts";
import { config } from "@/lib/core/config";
import { memberships } from "@/lib/db/schema/memberships";
import { organizations } from "@/lib/db/schema/organizations";
import { users } from "@/lib/db/schema/users";
import { CliError, type CliIo } from "./run";

const usage = "Usage: npm run --silent import -- <file.md> --email <email> [--org <name>] [--title <title>] [--public]";

export async function importMarkdown(args: string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      email: { type: "string" },
      org: { type: "string" },
      title: { type: "string" },
      public: { type: "boolean" },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 1 || !values.email) throw new CliError(usage);
  const file = positionals[0]!;
  if (!fs.existsSync(file)) throw new CliError(`${file}: no such file.`);
  const body = parseInput(
    importDeckBody,
    {
      markdown: fs.readFileSync(file, "utf8"),
      ...(values.title ? { title: values.title } : {}),
      visibility: values.public ? "public" : "private",
    },
    "",
  );

  const db = await io.db();
  const [member] = await db
    .select({ userId: users.id, organizationId: organizations.id, organization: organizations.name })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(
      and(
        eq(users.email, normalizeEmail(values.email)),
        values.org ? eq(organizations.name, values.org.trim()) : undefined,
      ),
    )
    .orderBy(asc(memberships.createdAt))
    .limit(1);
  if (!member) {
    throw new CliError(
      `${values.email} is not a member of ${values.org ? `an organization named "${values.org}"` : "any organization"}; sign up in the app or run keys:create first.`,
    );
  }
  const deck = await importDeck(
    { db, caller: { userId: member.userId, organizationId: member.organizationId, apiKeyId: null } },
    body,
  );
  io.err(
    `Imported "${deck.title}" into ${member.organization}: ${config.appUrl}/decks/${deck.id}${deck.publicUrl ? `, shared at ${deck.publicUrl}` : ""}`,
  );
  for (const warning of deck.warnings) io.err(`Warning (${warning.slide}): ${warning.message}`);
  io.out(deck.id);
}
