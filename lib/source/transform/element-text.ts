// An element's own text, the words written between its tags (a Heading's, a Text's, a Quote's), for the
// inspector's text field: read when the element holds one piece of plain text and nothing else, and
// rewritten in place (the surrounding whitespace and every other byte as written). An element whose words
// are mixed with markup (<strong>, a {variable}) is left to the preview's in-place editing and the code.

import type { DeckFormat } from "@/lib/contract/deck";
import { AppError } from "@/lib/core/errors";
import { editableSlides } from "./slides";
import { decodeRegion, encodeFor, type LocatedDeck, type TextRegion } from "./tsx-module";

/** The one plain-text child of the element starting at `start`, trimmed: its span and words; else null. */
function ownText(source: string, deck: LocatedDeck, start: number): { region: TextRegion; text: string } | null {
  const element = deck.elements.find((candidate) => candidate.start === start);
  if (!element || source.slice(element.end - 2, element.end) === "/>") return null;
  if (deck.elements.some((other) => other !== element && other.start > element.start && other.end <= element.end))
    return null;
  const lastAttribute = element.attributes.at(-1)?.end ?? element.start + 1 + element.name.length;
  const open = source.indexOf(">", lastAttribute) + 1;
  const close = source.lastIndexOf("</", element.end - 1);
  if (open <= 0 || close < open) return null;
  const children = deck.regions.filter((region) => region.start >= open && region.end <= close);
  const inner = source.slice(open, close);
  if (children.length !== 1 || children[0]!.kind !== "jsx-text" || /[{}]/.test(inner)) return null;
  const raw = children[0]!;
  // The words without the indentation and line breaks around them.
  const lead = /^\s*/.exec(source.slice(raw.start, raw.end))?.[0].length ?? 0;
  const trail = /\s*$/.exec(source.slice(raw.start, raw.end))?.[0].length ?? 0;
  const region: TextRegion = { kind: "jsx-text", start: raw.start + lead, end: raw.end - trail };
  if (region.end <= region.start) return null;
  return { region, text: decodeRegion(source, region).text.replace(/\s+/g, " ") };
}

/** The words of the elements that start at `starts`, for those whose words are one plain text. */
export function readElementTexts(source: string, format: DeckFormat, starts: number[]): Map<number, string> {
  const texts = new Map<number, string>();
  try {
    const deck = editableSlides(source, format);
    for (const start of starts) {
      const found = ownText(source, deck, start);
      if (found) texts.set(start, found.text);
    }
  } catch {
    // a source that does not parse: no texts
  }
  return texts;
}

/** Rewrites the words of the element that starts at `start` (not to nothing: Remove removes an element). */
export function setElementText(source: string, format: DeckFormat, at: { start: number; next: string }): string {
  const found = ownText(source, editableSlides(source, format), at.start);
  if (!found) {
    throw new AppError(
      "invalid_request",
      "This element's text is mixed with markup or code; edit it on the slide or in the code editor.",
    );
  }
  const next = at.next.replace(/\s+/g, " ").trim();
  if (next === "") {
    throw new AppError("invalid_request", "A text cannot be empty; to take the element off the slide, use Remove.");
  }
  return source.slice(0, found.region.start) + encodeFor(found.region, next) + source.slice(found.region.end);
}
