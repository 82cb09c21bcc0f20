import { and, eq, gt, ne, sql } from "drizzle-orm";
import type { Ctx } from "@/lib/auth/caller";
import { deckPresence } from "@/lib/db/schema/deck-presence";
import { users } from "@/lib/db/schema/users";
import { getDeckWithReadableHistory } from "./access";

// Who else has a deck open: the editor of everyone who may read the deck beats every 15 s (use-presence.ts)
// (a row per deck and person, last_seen moved); whoever was seen within PRESENCE_WINDOW_MS is listed. Kept
// in the database so heartbeats reach every server instance; every query is scoped to the caller's
// organization (a deck's presence never leaves it, like its history).

const PRESENCE_WINDOW_MS = 45_000;

export type PresentPerson = { userId: string; name: string };

/** Marks the caller as having the deck open, and answers who else does (not the caller), by name. */
export async function beatPresence(ctx: Ctx, deckId: string): Promise<{ others: PresentPerson[] }> {
  const deck = await getDeckWithReadableHistory(ctx, deckId);
  const organizationId = ctx.caller.organizationId;
  await ctx.db
    .insert(deckPresence)
    .values({ deckId: deck.id, userId: ctx.caller.userId, organizationId })
    .onConflictDoUpdate({
      target: [deckPresence.deckId, deckPresence.userId],
      set: { organizationId, lastSeen: sql`now()` },
    });
  const rows = await ctx.db
    .select({ userId: users.id, name: users.name, email: users.email })
    .from(deckPresence)
    .innerJoin(users, eq(users.id, deckPresence.userId))
    .where(
      and(
        eq(deckPresence.deckId, deck.id),
        eq(deckPresence.organizationId, organizationId),
        ne(deckPresence.userId, ctx.caller.userId),
        gt(deckPresence.lastSeen, sql`now() - make_interval(secs => ${PRESENCE_WINDOW_MS / 1000})`),
      ),
    )
    .orderBy(users.name);
  return { others: rows.map((row) => ({ userId: row.userId, name: row.name ?? row.email })) };
}

/** The caller closed the deck: they stop being listed at once rather than after the window. */
export async function leavePresence(ctx: Ctx, deckId: string): Promise<void> {
  await ctx.db
    .delete(deckPresence)
    .where(
      and(
        eq(deckPresence.deckId, deckId),
        eq(deckPresence.userId, ctx.caller.userId),
        eq(deckPresence.organizationId, ctx.caller.organizationId),
      ),
    );
}
