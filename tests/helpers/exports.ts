import type { Ctx } from "@/lib/auth/caller";
import { decks } from "@/lib/db/schema/decks";
import { exports } from "@/lib/db/schema/exports";
import type { Db } from "@/lib/db/types";
import { setDeckContent } from "@/lib/decks/set-deck-content";
import { call, createUser, type TestUser } from "./api";

// Polls GET /exports/{id} until the export leaves pending/running.
export async function waitForExport(user: TestUser, exportId: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call("GET", `/exports/${exportId}`, { key: user.key });
    if (res.status !== 200) throw new Error(`get_export answered ${res.status}: ${JSON.stringify(res.body)}`);
    if (res.body.status === "completed" || res.body.status === "failed") return res.body;
    if (Date.now() > deadline) throw new Error(`export ${exportId} still ${res.body.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// A pending PDF export of a fresh deck, written straight to the database so that no runner is woken:
// the test decides who renders it.
export async function insertPendingExport(db: Db, source: string) {
  const user = await createUser();
  const ctx: Ctx = { db, caller: { userId: user.userId, organizationId: user.organizationId, apiKeyId: null } };
  const [deck] = await db
    .insert(decks)
    .values({ organizationId: user.organizationId, ownerId: user.userId, title: "Queued" })
    .returning();
  await setDeckContent(ctx, deck!.id, { source });
  const [row] = await db
    .insert(exports)
    .values({
      organizationId: user.organizationId,
      deckId: deck!.id,
      version: 1,
      format: "pdf",
      requestedByUserId: user.userId,
      fileName: "Queued-v1.pdf",
    })
    .returning();
  return row!;
}
