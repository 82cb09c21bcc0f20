// Runs once when the server starts: open (and migrate) the embedded database before the first request,
// so a locked or broken data folder is reported at start-up rather than on someone's API call.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.DATABASE_URL) return;
  const { getDatabase } = await import("@/lib/db/client");
  await getDatabase();
}
