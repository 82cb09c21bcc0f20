import { z } from "zod";
import { adoptAssets, assetHashesIn, ownerOf } from "@/lib/assets/assets";
import type { Ctx } from "@/lib/auth/caller";
import { compileDeckOffThread } from "@/lib/source/compile-pool";
import { retitleCover } from "@/lib/source/transform/cover-title";
import type { Db } from "@/lib/db/types";
import { getReadableDeck } from "./access";
import { appendVersion } from "./append-version";
import { createDeck } from "./create-deck";
import { getLatestVersion } from "./latest-version";
import type { DeckRow } from "./present";
import { createDeckInAppBody, TITLE_MAX_CHARS, updateDeckBody } from "./schemas";

// The library's "Use template": a new deck with the template's design (brand, tokens) and its newest
// content as the deck's first version (one version edit), so it can be presented, shared and exported at
// once. The API's create_deck with fromDeckId keeps SPEC.md's meaning (design only, no content).
// The copied module names the template's stored images (/assets/<hash>.<ext>). A template may be another
// organization's public deck: the new deck's organization is given asset rows of its own for those images
// (adoptAssets: the file is shared), so the copy keeps them when the template's organization deletes its
// deck and images, and saving the copy again finds them as the organization's own. A typed title is also
// the cover's: the text of the first slide's <Title> (lib/source/transform/cover-title.ts), compiled again (unless the module has images).

export const startFromTemplateBody = z.strictObject({
  fromDeckId: createDeckInAppBody.shape.fromDeckId.unwrap().unwrap(),
  // The title typed on the template's card; left blank (or absent), the template's title cut to fit
  // (copyTitle). update_deck's title (1 to 300 characters, no default), so a blank field is not "Untitled".
  title: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    updateDeckBody.shape.title,
  ),
});

/** "<template> (copy)", the template's part cut so the whole fits the title limit. */
export function copyTitle(title: string): string {
  const suffix = " (copy)";
  return `${title.slice(0, TITLE_MAX_CHARS - suffix.length).trimEnd()}${suffix}`;
}

export async function startFromTemplate(ctx: Ctx, input: z.output<typeof startFromTemplateBody>) {
  const template = await getReadableDeck(ctx, input.fromDeckId);
  return copyDeck(ctx, template, {
    title: input.title ?? copyTitle(template.title),
    description: "",
    prompt: `Started from the template “${template.title}”`,
    coverTitle: input.title,
  });
}

/**
 * A new deck of the caller's built on `template` (any deck the caller may read): its design, and its newest
 * deck-tsx content as version 1, in one transaction. Shared by "Use template" and the library's Duplicate.
 */
export async function copyDeck(
  ctx: Ctx,
  template: DeckRow,
  options: { title: string; description: string; prompt: string; coverTitle?: string },
) {
  const newest = await getLatestVersion(ctx.db, template);
  let latest = newest;
  if (newest?.format === "deck-tsx" && newest.source && options.coverTitle) {
    const source = retitleCover(newest.source, template.format, options.coverTitle);
    if (source !== newest.source) {
      const compiled = await compileDeckOffThread({ source, format: template.format });
      // A module with images keeps its cover as it was: its stored module refers to the images' stored
      // copies, which a fresh compile would not (set-deck-content resolves them on a write).
      if (compiled.images.length === 0)
        latest = { ...newest, source, compiledJs: compiled.compiledJs, outline: compiled.outline };
    }
  }
  return ctx.db.transaction(async (tx) => {
    const inTx: Ctx = { ...ctx, db: tx as unknown as Db };
    const deck = await createDeck(inTx, {
      title: options.title,
      description: options.description,
      kind: "deck",
      format: template.format,
      fromDeckId: template.id,
      brandId: null,
    });
    if (latest?.format === "deck-tsx") {
      const { format, source, tokensCss, compiledJs, outline } = latest;
      await adoptAssets(ownerOf(inTx), assetHashesIn(`${compiledJs}\n${source}`), template.organizationId);
      await appendVersion(
        inTx,
        deck.id,
        { format, source, tokensCss, compiledJs, outline, html: null },
        { prompt: options.prompt, consumesEdit: true },
      );
    }
    return deck;
  });
}
