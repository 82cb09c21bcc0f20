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
