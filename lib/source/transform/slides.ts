// The slides of a deck module as the visual editor numbers them: the top-level <Slide> (or <Beat>)
// elements of <Deck>, refused when some are made in code, since then index N in the player is not the
// Nth element in the source. Shared by the slide, text and prop edits beside this file.

import type { DeckFormat } from "@/lib/contract/deck";
import { AppError } from "@/lib/core/errors";
import { type LocatedDeck, type LocatedSlide, locateSlides } from "./tsx-module";

/** 1-based line of an offset. */
export function lineAt(source: string, offset: number): number {
  let line = 1;
  for (let index = source.indexOf("\n"); index >= 0 && index < offset; index = source.indexOf("\n", index + 1)) line++;
  return line;
}

export function sectionNoun(format: DeckFormat): "slide" | "beat" {
  return format === "slides" ? "slide" : "beat";
}

/**
 * The deck's slides when the visual editor can number them as the player does: every slide written
 * directly inside <Deck>. Otherwise a refusal that says what to do instead.
 */
export function editableSlides(source: string, format: DeckFormat): LocatedDeck {
  const deck = locateSlides(source, format);
  const tag = format === "slides" ? "<Slide>" : "<Beat>";
  if (deck.hiddenSlides) {
    throw new AppError(
      "invalid_request",
      `Some ${sectionNoun(format)}s of this deck are made in code (with .map, a condition or a helper component) rather than written as ${tag} elements directly inside <Deck>, so the visual editor cannot tell which is which. Make this change in the code editor.`,
    );
  }
  if (deck.slides.length === 0) {
    throw new AppError(
      "invalid_request",
      `This deck has no ${tag} elements written directly inside <Deck>; make this change in the code editor.`,
    );
  }
  return deck;
}

export function slideAt(deck: LocatedDeck, index: number, format: DeckFormat): LocatedSlide {
  const slide = Number.isInteger(index) ? deck.slides[index] : undefined;
  if (!slide) {
    const noun = sectionNoun(format);
    throw new AppError(
      "invalid_request",
      `There is no ${noun} ${index + 1}; the deck has ${deck.slides.length} ${noun}${deck.slides.length === 1 ? "" : "s"}.`,
    );
  }
  return slide;
}

/** Writes new element texts into the slides' places; whatever lies between slides stays put. */
export function spliceSlides(source: string, slides: LocatedSlide[], texts: string[]): string {
  let result = "";
  let cursor = 0;
  slides.forEach((slide, index) => {
    result += source.slice(cursor, slide.start) + (texts[index] ?? "");
    cursor = slide.end;
  });
  return result + source.slice(cursor);
}
