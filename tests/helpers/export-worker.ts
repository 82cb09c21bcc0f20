// A separate process that renders one export, for the crash-recovery test: it opens the database the
// way the server does (DATA_DIR or DATABASE_URL), runs one export and exits.
import { getDatabase } from "@/lib/db/client";
import { processNextExport } from "@/lib/exports/process-export";

const exportId = process.argv[2];
const database = await getDatabase();
const outcome = await processNextExport(exportId);
console.log(JSON.stringify({ outcome }));
await database.close();
process.exit(0);
