// One vocabulary element of a slide, named as the player names it on the preview: its component, which of
// that component's elements on the slide it is (0-based, in document order) and how many the slide shows.
// The visual editor names an element this way when it has no text to be found by (an <Image>) or when its
// text is written in a prop's data (a chart label: items.ts). The slide's JSX elements come from
// @babel/parser (tsx-module.ts); when the slide's code writes a different number of them than the player
// drew (some made by a .map, a condition or a helper), which is which cannot be told, and that is refused.

import type { DeckFormat } from "@/lib/contract/deck";
import { AppError } from "@/lib/core/errors";
import { editableSlides, lineAt, sectionNoun, slideAt } from "./slides";
import type { LocatedDeck } from "./tsx-module";

export type ElementQuery = {
  slide: number;
  /** The vocabulary component ("Image", "Chart"…). */
  component: string;
  /** Which of that component's elements on the slide, 0-based in document order, and how many it shows. */
  index: number;
  count: number;
};

export type LocatedElement = LocatedDeck["elements"][number];

/** The element a query names, with its attributes. */
export function locateElement(source: string, format: DeckFormat, query: ElementQuery): LocatedElement {
  const deck = editableSlides(source, format);
  const slide = slideAt(deck, query.slide, format);
  const where = `${sectionNoun(format)} ${query.slide + 1}`;
  const elements = deck.elements.filter(
    (element) => element.name === query.component && element.start > slide.start && element.end <= slide.end,
  );
  if (elements.length !== query.count) {
    throw new AppError(
      "invalid_request",
      `${where} shows ${query.count} ${query.component} element${query.count === 1 ? "" : "s"} but its code writes ${elements.length}: some are made in code (a .map, a condition or a helper), so the visual editor cannot tell which is which. Edit it in the code editor.`,
    );
  }
  const element = elements[query.index];
  if (!element)
    throw new AppError("invalid_request", `There is no ${query.component} number ${query.index + 1} on ${where}.`);
  return element;
}

/** Where the element a query names is written: from its opening `<` to the end of its closing tag. */
export function findElement(
  source: string,
  format: DeckFormat,
  query: ElementQuery,
): { start: number; end: number; line: number } {
  const { start, end } = locateElement(source, format, query);
  return { start, end, line: lineAt(source, start) };
}

/**
 * Removes the vocabulary element that starts at `start` inside slide `slide` (with what it holds): the
 * lines it stands on when it has them to itself, else the element and the whitespace before it.
 */
export function removeElement(source: string, format: DeckFormat, at: { slide: number; start: number }): string {
  const deck = editableSlides(source, format);
  const slide = slideAt(deck, at.slide, format);
  const element = deck.elements.find(
    (candidate) => candidate.start === at.start && candidate.start > slide.start && candidate.end <= slide.end,
  );
  if (!element) {
    throw new AppError(
      "invalid_request",
      `No element starts at offset ${at.start} of ${sectionNoun(format)} ${at.slide + 1}; it changed since it was read. Read the slide's elements again.`,
    );
  }
  const lineStart = source.lastIndexOf("\n", element.start - 1) + 1;
  const lineEnd = source.indexOf("\n", element.end);
  const before = source.slice(lineStart, element.start);
  const after = source.slice(element.end, lineEnd < 0 ? source.length : lineEnd);
  if (/^[ \t]*$/.test(before) && /^[ \t]*\r?$/.test(after) && lineEnd >= 0) {
    return source.slice(0, lineStart) + source.slice(lineEnd + 1);
  }
  let from = element.start;
  while (from > slide.start && /\s/.test(source[from - 1] ?? "")) from--;
  return source.slice(0, from) + source.slice(element.end);
}
