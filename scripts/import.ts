// Markdown (a Marp or Slidev deck, an outline, a brief) → a new slides deck, as POST /decks/import does:
//   npm run --silent import -- deck.md --email <email> [--org <name>] [--title <title>] [--public]
// The person must be a member of the organization (default: their first). Honours DATA_DIR / DATABASE_URL
// like the server. Prints the new deck's id alone on the last line of stdout. The command itself is
// scripts/cli/import.ts.
import { importMarkdown } from "./cli/import";
import { runCli } from "./cli/run";

// The worker threads the import used keep tsx's process alive after the command (they are unref'd, but
// tsx's loader in each worker is not), so the script ends itself once the database is closed.
process.exit(await runCli(importMarkdown));
