import { z } from "zod";
import type { Ctx } from "@/lib/auth/caller";
import { hasNoNul, nulMessage } from "@/lib/core/fields";
import { deckVisibilities } from "@/lib/db/schema/decks";
import type { Db } from "@/lib/db/types";
import { createDeck } from "@/lib/decks/create-deck";
import { createDeckBody } from "@/lib/decks/schemas";
import { setDeckContent } from "@/lib/decks/set-deck-content";
import { updateDeck } from "@/lib/decks/update-deck";
import { generateOfflineDeckOffThread } from "./offline/off-thread";

// POST /decks/import (beyond the spec): a Markdown document — a Marp or Slidev deck, an outline, a brief —
// becomes a slides deck and its first version in one call, through the offline generator (no model). The
// Markdown is read before anything is written, and the deck, its version and its visibility are written in
// one transaction: input it cannot read is a 422 naming the line, a month without
// version edits a 402, and either way nothing is saved.

const IMPORT_MAX_BYTES = 1024 * 1024;

export const importDeckBody = z.strictObject({
  markdown: z
    .string()
    .refine((value) => value.trim().length > 0, "must not be empty")
    .refine((value) => Buffer.byteLength(value, "utf8") <= IMPORT_MAX_BYTES, "must be at most 1 MB (UTF-8)")
    .refine(hasNoNul, nulMessage("markdown"))
    .meta({ maxLength: IMPORT_MAX_BYTES, "x-maxBytes": IMPORT_MAX_BYTES })
    .describe(
      "The Markdown document: a Marp or Slidev deck (--- between slides, front matter, <!-- notes -->), or a brief or outline. At most 1 MB.",
    ),
  title: createDeckBody.shape.title
    .unwrap()
    .optional()
    .describe("The deck's name; default its first heading or title line."),
  brandId: createDeckBody.shape.brandId,
  visibility: z.enum(deckVisibilities).default("private").describe("Who may read the deck; default 'private'."),
});

export async function importDeck(ctx: Ctx, input: z.output<typeof importDeckBody>) {
  const made = await generateOfflineDeckOffThread({ brief: input.markdown, format: "slides", title: input.title });
  const title = (input.title ?? made.title).trim().slice(0, 300) || "Imported deck";
  return ctx.db.transaction(async (tx) => {
    const inTx: Ctx = { ...ctx, db: tx as unknown as Db };
    const deck = await createDeck(inTx, {
      title,
      description: "",
      kind: "deck",
      format: "slides",
      brandId: input.brandId ?? null,
      fromDeckId: null,
    });
    await setDeckContent(inTx, deck.id, { source: made.source, prompt: "Imported from Markdown" });
    return updateDeck(inTx, deck.id, { visibility: input.visibility });
  });
}
