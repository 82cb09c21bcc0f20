// A three-way merge of two edits of one deck module at slide granularity, for two people editing the same
// version at once: when each changed other slides (same number of slides, the code around the slides
// changed on at most one side), the result takes each slide from whichever side changed it. Anything finer
// (two edits of one slide, a slide added on one side) is a conflict the person resolves; the merge never
// guesses inside a slide.

import type { DeckFormat } from "@/lib/contract/deck";
import { type LocatedDeck, locateSlides } from "./tsx-module";

export type SlideMerge = { source: string } | { conflicts: number[] };

/** The one side that changed, or both when they agree; undefined when both changed it differently. */
function pick(base: string, mine: string, theirs: string): string | undefined {
  if (mine === theirs || theirs === base) return mine;
  if (mine === base) return theirs;
  return undefined;
}

/** The code between and around the slides: n + 1 pieces for n slides. */
function gaps(source: string, deck: LocatedDeck): string[] {
  const pieces: string[] = [];
  let cursor = 0;
  for (const slide of deck.slides) {
    pieces.push(source.slice(cursor, slide.start));
    cursor = slide.end;
  }
  pieces.push(source.slice(cursor));
  return pieces;
}

function range(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index);
}

export function mergeBySlides(base: string, mine: string, theirs: string, format: DeckFormat): SlideMerge {
  const whole = pick(base, mine, theirs);
  if (whole !== undefined) return { source: whole };
  const decks = [base, mine, theirs].map((source) => locateSlides(source, format)) as [
    LocatedDeck,
    LocatedDeck,
    LocatedDeck,
  ];
  const [baseDeck, mineDeck, theirsDeck] = decks;
  const count = baseDeck.slides.length;
  const widest = Math.max(...decks.map((deck) => deck.slides.length), 1);
  // Slides made in code or added/removed on a side cannot be lined up by index: everything conflicts.
  if (decks.some((deck) => deck.hiddenSlides || deck.slides.length !== count) || count === 0) {
    return { conflicts: range(widest) };
  }
  // The code around the slides, compared as a whole (JSON keeps the pieces apart).
  const around = [gaps(base, baseDeck), gaps(mine, mineDeck), gaps(theirs, theirsDeck)];
  const outside = pick(...(around.map((pieces) => JSON.stringify(pieces)) as [string, string, string]));
  if (outside === undefined) return { conflicts: range(count) };

  const conflicts: number[] = [];
  const slides = range(count).map((index) => {
    const chosen = pick(
      baseDeck.slides[index]?.text ?? "",
      mineDeck.slides[index]?.text ?? "",
      theirsDeck.slides[index]?.text ?? "",
    );
    if (chosen === undefined) conflicts.push(index);
    return chosen ?? "";
  });
  if (conflicts.length > 0) return { conflicts };
  const pieces = JSON.parse(outside) as string[];
  const source = pieces.map((piece, index) => piece + (slides[index] ?? "")).join("");
  return { source };
}
