// Markdown (a Marp or Slidev deck, an outline, a brief) → a new slides deck, as POST /decks/import does:
//   npm run --silent import -- deck.md --email <email> [--org <name>] [--title <title>] [--public]
// The person must be a member of the organization (default: their first). Honours DATA_DIR / DATABASE_URL
// like the server. Prints the new deck's id alone on the last line of stdout.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { and, asc, eq } from "drizzle-orm";
import { importDeck, importDeckBody } from "@/lib/ai/import-deck";
import { normalizeEmail } from "@/lib/auth/accounts";
import { config } from "@/lib/core/config";
import { AppError } from "@/lib/core/errors";
import { parseInput } from "@/lib/api/input";
import { getDatabase } from "@/lib/db/client";
import { memberships } from "@/lib/db/schema/memberships";
import { organizations } from "@/lib/db/schema/organizations";
import { users } from "@/lib/db/schema/users";

const usage = "Usage: npm run --silent import -- <file.md> --email <email> [--org <name>] [--title <title>] [--public]";

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

async function main() {
  const { values, positionals } = parseArgs({
    options: {
      email: { type: "string" },
      org: { type: "string" },
      title: { type: "string" },
      public: { type: "boolean" },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 1 || !values.email) fail(usage);
  const file = positionals[0]!;
  if (!fs.existsSync(file)) fail(`${file}: no such file.`);
  const body = parseInput(
    importDeckBody,
    {
      markdown: fs.readFileSync(file, "utf8"),
      ...(values.title ? { title: values.title } : {}),
      visibility: values.public ? "public" : "private",
    },
    "",
  );

  const database = await getDatabase();
  try {
    const [member] = await database.db
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
      throw new Error(
        `${values.email} is not a member of ${values.org ? `an organization named "${values.org}"` : "any organization"}; sign up in the app or run keys:create first.`,
      );
    }
    const deck = await importDeck(
      { db: database.db, caller: { userId: member.userId, organizationId: member.organizationId, apiKeyId: null } },
      body,
    );
    process.stderr.write(
      `Imported "${deck.title}" into ${member.organization}: ${config.appUrl}/decks/${deck.id}${deck.publicUrl ? `, shared at ${deck.publicUrl}` : ""}\n`,
    );
    for (const warning of deck.warnings) process.stderr.write(`Warning (${warning.slide}): ${warning.message}\n`);
    process.stdout.write(`${deck.id}\n`);
  } finally {
    await database.close();
  }
}

// The worker threads the import used keep tsx's process alive after main() (they are unref'd, but tsx's
// loader in each worker is not), so the script ends itself once the database is closed.
main().then(
  () => process.exit(0),
  (error: unknown) =>
    fail(
      error instanceof AppError
        ? `${error.code}: ${error.message}`
        : error instanceof Error
          ? error.message
          : String(error),
    ),
);
