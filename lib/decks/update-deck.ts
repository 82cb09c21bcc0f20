import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Ctx } from "@/lib/auth/caller";
import { decks } from "@/lib/db/schema/decks";
import { getOwnedDeck } from "./access";
import { presentDeck } from "./present";
import type { updateDeckBody } from "./schemas";

const SLUG_ALPHABET = "0123456789abcdefghijkmnopqrstuvwxyz"; // no "l": slugs get read aloud and retyped

// 14 characters of a 35-letter alphabet: ~72 bits, short enough to share, too many to guess.
export function mintPublicSlug(): string {
  let slug = "";
  while (slug.length < 14) {
    for (const byte of randomBytes(32)) {
      if (byte < 245 && slug.length < 14) slug += SLUG_ALPHABET[byte % 35];
    }
  }
  return slug;
}

// PATCH /decks/{id}. The slug is minted on the first publish and kept forever after.
export async function updateDeck(ctx: Ctx, id: string, input: z.output<typeof updateDeckBody>) {
  const deck = await getOwnedDeck(ctx, id);
  const changes: Partial<typeof decks.$inferInsert> = {};
  for (const field of ["title", "kind", "description", "archived", "visibility"] as const) {
    if (input[field] !== undefined && input[field] !== deck[field]) Object.assign(changes, { [field]: input[field] });
  }
  if (Object.keys(changes).length === 0) return presentDeck(deck);
  if (changes.visibility === "public" && !deck.publicSlug) changes.publicSlug = mintPublicSlug();
  changes.updatedAt = new Date();

  const [row] = await ctx.db.update(decks).set(changes).where(eq(decks.id, deck.id)).returning();
  return presentDeck(row!);
}
