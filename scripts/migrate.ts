// npm run db:migrate — applies the committed SQL migrations in drizzle/ to DATABASE_URL
// (or to the embedded database, which also migrates itself whenever it is opened).
import { getDatabase, migrateDatabase } from "@/lib/db/client";

const database = await getDatabase();
await migrateDatabase(database);
await database.close();
process.stdout.write(`Migrations applied (${database.driver}).\n`);
