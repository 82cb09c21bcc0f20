import { z } from "zod";
import { ownerOf } from "@/lib/assets/assets";
import { findUnavailableImages } from "@/lib/assets/deck-images";
import type { Ctx } from "@/lib/auth/caller";
import { hasNoNul, nulMessage } from "@/lib/core/fields";
import { deckVisibilities } from "@/lib/db/schema/decks";
import type { Db } from "@/lib/db/types";
import { createDeck } from "@/lib/decks/create-deck";
import { compileDeckOffThread } from "@/lib/source/compile-pool";
import { createDeckBody, deckSchema } from "@/lib/decks/schemas";
import { setDeckContent } from "@/lib/decks/set-deck-content";
import { updateDeck } from "@/lib/decks/update-deck";
import { generateOfflineDeckOffThread } from "./offline/off-thread";

// POST /decks/import (beyond the spec): a Markdown document — a Marp or Slidev deck, an outline, a brief —
// becomes a slides deck and its first version in one call, through the offline generator (no model). The
// Markdown is read before anything is written, and the deck, its version and its visibility are written in
// one transaction: input it cannot read is a 422 naming the line, a month without
// version edits a 402, and either way nothing is saved. An image that cannot be imported (unreachable, a
// refused address, not an image) does not stop the import: the deck is made without it, a placeholder in
// its place, and the answer's `warnings` say which and why (a field beyond the spec, which does not
// describe this endpoint).

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

export const importWarningSchema = z.object({
  kind: z
    .enum(["image-not-imported", "text-in-notes"])
    .describe(
      "image-not-imported: an image could not be fetched or is not an image; the slide shows a placeholder (or no background). text-in-notes: text of the input is in the slide's speaker notes only.",
    ),
  slide: z.string().describe("The label of the slide it concerns."),
  message: z.string().describe("What happened and why, naming the image's URL or the text."),
});

export const importResultSchema = deckSchema.extend({
  warnings: z
    .array(importWarningSchema)
    .describe("What of the input the deck does not show as written; empty when everything arrived."),
});

export async function importDeck(ctx: Ctx, input: z.output<typeof importDeckBody>) {
  const request = { brief: input.markdown, format: "slides" as const, title: input.title };
  let made = await generateOfflineDeckOffThread(request);
  // The images are checked before anything is written; those a write would refuse are left out.
  const compiled = await compileDeckOffThread({ source: made.source, format: "slides" });
  const { unavailable: missingImages, fetched } = await findUnavailableImages(ownerOf(ctx), compiled);
  if (missingImages.length > 0) made = await generateOfflineDeckOffThread({ ...request, missingImages });
  const title = (input.title ?? made.title).trim().slice(0, 300) || "Imported deck";
  const deck = await ctx.db.transaction(async (tx) => {
    const inTx: Ctx = { ...ctx, db: tx as unknown as Db };
    const deck = await createDeck(inTx, {
      title,
      description: "",
      kind: "deck",
      format: "slides",
      brandId: input.brandId ?? null,
      fromDeckId: null,
    });
    await setDeckContent(
      inTx,
      deck.id,
      { source: made.source, prompt: "Imported from Markdown" },
      { fetchedImages: fetched },
    );
    return updateDeck(inTx, deck.id, { visibility: input.visibility });
  });
  return { ...deck, warnings: made.warnings };
}
