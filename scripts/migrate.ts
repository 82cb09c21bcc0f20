// npm run db:migrate — applies the committed SQL migrations in drizzle/ to DATABASE_URL
// (or to the embedded database, which also migrates itself whenever it is opened).
import { getDatabase, migrateDatabase } from "@/lib/db/client";

// A migration may rewrite a large table: no statement timeout unless one is asked for.
process.env.DATABASE_QUERY_TIMEOUT_MS ??= "0";
const database = await getDatabase();
await migrateDatabase(database);
await database.close();
process.stdout.write(`Migrations applied (${database.driver}).\n`);
