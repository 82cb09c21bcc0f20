import type { z } from "zod";
import type { Ctx } from "@/lib/auth/caller";
import { AppError } from "@/lib/core/errors";
import { deleteSlide, insertSlideText, moveSlide, replaceSlide } from "@/lib/source/transform/edit";
import { locateSlides } from "@/lib/source/transform/tsx-module";
import { getDeckWithReadableHistory, getOwnedDeck, getReadableDeck } from "./access";
import { readVersion } from "./version-cache";
import type { DeckRow } from "./present";
import { setDeckContent } from "./set-deck-content";
import { slideNotes } from "./slide-notes";
import type { slideListSchema } from "./slide-schemas";

// Slide-level edits through the API and MCP: one slide read, replaced, inserted, deleted or moved without
// sending the deck. Each applies the visual editor's source transformation (lib/source/transform/edit.ts: only
// the slide's bytes are spliced) to the newest version and writes the result through setDeckContent, so it
// compiles the whole module first (compile_failed, nothing saved), imports images, consumes one version edit
// and writes one version, conditional on the version it was made on (409 when the deck moved on).

type SlideList = z.output<typeof slideListSchema>;

function sourceOf(deck: DeckRow, row: { format: string; source: string | null } | null, version: number) {
  if (!row) {
    const newest = `the newest is ${deck.versionCount}`;
    throw new AppError("not_found", `Version ${version} of this deck does not exist (${newest}).`);
  }
  if (row.format !== "deck-tsx" || row.source === null) {
    throw new AppError("invalid_request", `Version ${version} is a legacy HTML document; it has no slides to edit.`);
  }
  return row.source;
}

// GET /decks/{id}/slides: each slide's number, label, notes and TSX (another organization: the newest only).
export async function listSlides(ctx: Ctx, deckId: string, requested?: number): Promise<SlideList> {
  const deck =
    requested === undefined ? await getReadableDeck(ctx, deckId) : await getDeckWithReadableHistory(ctx, deckId);
  if (deck.versionCount === 0) {
    throw new AppError("invalid_request", "This deck has no content yet; write a version with set_deck_content first.");
  }
  const version = requested ?? deck.versionCount;
  const source = sourceOf(deck, await readVersion(ctx.db, deck.id, version), version);
  const located = locateSlides(source, deck.format);
  const notes = slideNotes(source, deck.format);
  return {
    version,
    editable: !located.hiddenSlides && located.slides.length > 0,
    slides: located.slides.map((slide, index) => ({
      slide: index + 1,
      label: slide.label,
      notes: notes[index] ?? "",
      source: slide.text,
    })),
  };
}

type Edit = (source: string, format: DeckRow["format"]) => string;

/** The newest version's source edited by `edit` and written as the next version. */
async function editSlides(
  ctx: Ctx,
  deckId: string,
  input: { basedOnVersion?: number; prompt?: string | null },
  what: string,
  edit: Edit,
) {
  const deck = await getOwnedDeck(ctx, deckId);
  if (deck.versionCount === 0) {
    throw new AppError("invalid_request", "This deck has no content yet; write a version with set_deck_content first.");
  }
  if (input.basedOnVersion !== undefined && input.basedOnVersion !== deck.versionCount) {
    throw new AppError(
      "conflict",
      `This edit was made on version ${input.basedOnVersion}, but the deck's newest is ${deck.versionCount}; nothing was saved. Read the slides again (list_slides) and redo the edit.`,
    );
  }
  const base = deck.versionCount;
  const source = sourceOf(deck, await readVersion(ctx.db, deck.id, base), base);
  const located = locateSlides(source, deck.format);
  if (located.hiddenSlides) {
    throw new AppError(
      "invalid_request",
      "Some slides of this deck are made in code (with .map, a condition or a helper component) rather than written as <Slide> elements directly inside <Deck>, so slide numbers do not name places in the source. Change it with set_deck_content (the whole module) instead.",
    );
  }
  return setDeckContent(
    ctx,
    deck.id,
    { source: edit(source, deck.format), prompt: input.prompt ?? what },
    { basedOnVersion: base },
  );
}

// PUT /decks/{id}/slides/{n}
export function replaceDeckSlide(
  ctx: Ctx,
  deckId: string,
  n: number,
  body: { source: string; basedOnVersion?: number; prompt?: string | null },
) {
  return editSlides(ctx, deckId, body, `Replaced slide ${n}`, (source, format) =>
    replaceSlide(source, format, n - 1, body.source),
  );
}

// POST /decks/{id}/slides
export function insertDeckSlide(
  ctx: Ctx,
  deckId: string,
  body: { after: number; source: string; basedOnVersion?: number; prompt?: string | null },
) {
  return editSlides(ctx, deckId, body, `Inserted a slide after slide ${body.after}`, (source, format) => {
    const count = locateSlides(source, format).slides.length;
    if (body.after > count) {
      throw new AppError(
        "invalid_request",
        `after: the deck has ${count} slides; insert after 0 (first) to ${count} (last).`,
      );
    }
    return insertSlideText(source, format, body.after - 1, body.source);
  });
}

// DELETE /decks/{id}/slides/{n}
export function deleteDeckSlide(ctx: Ctx, deckId: string, n: number, query: { basedOnVersion?: number }) {
  return editSlides(ctx, deckId, query, `Deleted slide ${n}`, (source, format) => deleteSlide(source, format, n - 1));
}

// POST /decks/{id}/slides/{n}/move
export function moveDeckSlide(
  ctx: Ctx,
  deckId: string,
  n: number,
  body: { to: number; basedOnVersion?: number; prompt?: string | null },
) {
  return editSlides(ctx, deckId, body, `Moved slide ${n} to ${body.to}`, (source, format) =>
    moveSlide(source, format, n - 1, body.to - 1),
  );
}
