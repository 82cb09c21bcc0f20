import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Ctx } from "@/lib/auth/caller";
import { hashPassword, PASSWORD_MAX_LENGTH } from "@/lib/auth/passwords";
import { timestamp } from "@/lib/core/fields";
import { decks } from "@/lib/db/schema/decks";
import { getOwnedDeck } from "./access";
import type { DeckRow } from "./present";
import { publicUrlFor } from "./present";
import { mintPublicSlug } from "./update-deck";

// The public link's controls (beyond the spec, issue 22): an optional password (argon2id, like account
// passwords; the share page asks for it and the frame, module and logo are refused without the unlock),
// an optional expiry (after it the link answers as if the deck were not public), and revoking the link,
// which mints a new slug only when the owner asks: the spec's stable slug stays the default.

const SHARE_PASSWORD_MIN_LENGTH = 4;

export const setShareLinkBody = z.strictObject({
  password: z
    .string()
    .min(SHARE_PASSWORD_MIN_LENGTH)
    .max(PASSWORD_MAX_LENGTH)
    .nullable()
    .optional()
    .describe("A password viewers must enter; null removes it; absent leaves it as it is."),
  expiresAt: z.iso
    .datetime({ offset: true })
    .nullable()
    .optional()
    .describe("When the link stops working (ISO 8601); null: never; absent leaves it as it is."),
});

export const shareLinkSchema = z.object({
  publicUrl: z.string().nullable().describe("The share link; null while the deck is not public."),
  passwordProtected: z.boolean(),
  expiresAt: timestamp.nullable(),
});

function presentShareLink(row: DeckRow) {
  return shareLinkSchema.parse({
    publicUrl: row.visibility === "public" && row.publicSlug ? publicUrlFor(row.publicSlug) : null,
    passwordProtected: row.sharePasswordHash !== null,
    expiresAt: row.shareExpiresAt,
  });
}

export async function getShareLink(ctx: Ctx, deckId: string) {
  return presentShareLink(await getOwnedDeck(ctx, deckId));
}

export async function setShareLink(ctx: Ctx, deckId: string, input: z.output<typeof setShareLinkBody>) {
  const deck = await getOwnedDeck(ctx, deckId);
  const changes: Partial<typeof decks.$inferInsert> = {};
  if (input.password !== undefined)
    changes.sharePasswordHash = input.password === null ? null : await hashPassword(input.password);
  if (input.expiresAt !== undefined)
    changes.shareExpiresAt = input.expiresAt === null ? null : new Date(input.expiresAt);
  if (Object.keys(changes).length === 0) return presentShareLink(deck);
  const [row] = await ctx.db
    .update(decks)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(decks.id, deck.id))
    .returning();
  return presentShareLink(row!);
}

// A new slug: the old link stops working at once (its unlock tokens name the old slug too).
export async function revokeShareLink(ctx: Ctx, deckId: string) {
  const deck = await getOwnedDeck(ctx, deckId);
  const [row] = await ctx.db
    .update(decks)
    .set({ publicSlug: mintPublicSlug(), updatedAt: new Date() })
    .where(eq(decks.id, deck.id))
    .returning();
  return presentShareLink(row!);
}
