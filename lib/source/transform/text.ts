// Text edits from the visual editor: a person clicks a piece of text on a slide and types over it. The
// editor knows the text as the DOM shows it (whitespace collapsed), the slide it is on and which occurrence
// it is; this finds where that text is written in the slide's source (JSX text, an attribute string, a
// string literal or a template chunk) and writes the new text there, encoded for that place, so the
// module changes by exactly those characters.

import type { DeckFormat } from "@/lib/contract/deck";
import { AppError } from "@/lib/core/errors";
import { vocabulary } from "@/lib/source/component-specs";
import { editableSlides, lineAt, sectionNoun, slideAt } from "./slides";
import {
  type Decoded,
  decodeRegion,
  encodeJsString,
  encodeTemplate,
  type LocatedDeck,
  type LocatedSlide,
  type TextRegion,
} from "./tsx-module";

export type TextMatch = {
  kind: TextRegion["kind"];
  /** The matched characters as written in the source (entities and escapes included). */
  start: number;
  end: number;
  line: number;
  region: TextRegion;
};

type TextQuery = { slide: number; text: string; occurrence?: number };

// Attributes that never show as text on the slide, beyond those taking one of a list (layout, tone…):
// matching their values would make occurrence numbers disagree with what the person sees.
const unseen: Record<string, readonly string[]> = {
  Deck: ["title"],
  Slide: ["label", "notes", "image"],
  Beat: ["label", "image"],
  Image: ["src", "alt"],
  Icon: ["name"],
  Code: ["language"],
  Columns: ["ratio"],
  Chart: ["highlight"],
  Diagram: ["alt"],
  Logo: ["alt"],
};
const unseenAttributes = new Map(
  vocabulary.map((component) => [
    component.name,
    new Set([
      "key",
      ...component.props.filter((prop) => prop.values).map((prop) => prop.name),
      ...(unseen[component.name] ?? []),
    ]),
  ]),
);

/** Where occurrence `occurrence` (0-based, in source order) of a text shown on a slide is written. */
export function findText(source: string, format: DeckFormat, query: TextQuery): TextMatch {
  const deck = editableSlides(source, format);
  return locate(source, format, deck, query).match;
}

/** Writes `next` in place of one occurrence of a text shown on a slide; every other byte stays. */
export function replaceText(source: string, format: DeckFormat, edit: TextQuery & { next: string }): string {
  const deck = editableSlides(source, format);
  const { match, decoded, from, to } = locate(source, format, deck, edit);
  const region = match.region;
  if (region.kind === "jsx-attr" && attributeNeedsExpression(edit.next, region.quote ?? '"')) {
    // A JSX attribute string has no escapes: the whole value becomes a string expression.
    const value = decoded.text.slice(0, from) + edit.next + decoded.text.slice(to);
    return `${source.slice(0, region.start - 1)}{${JSON.stringify(value)}}${source.slice(region.end + 1)}`;
  }
  return source.slice(0, match.start) + encodeText(region, edit.next) + source.slice(match.end);
}

type Located = { match: TextMatch; decoded: Decoded; from: number; to: number };

function locate(source: string, format: DeckFormat, deck: LocatedDeck, query: TextQuery): Located {
  const slide = slideAt(deck, query.slide, format);
  const needle = collapse(query.text).trim();
  if (!needle)
    throw new AppError("invalid_request", "The text to find is empty; give the words as the slide shows them.");
  const occurrence = query.occurrence ?? 0;
  if (!Number.isInteger(occurrence) || occurrence < 0) {
    throw new AppError("invalid_request", `The occurrence is counted from 0; ${occurrence} is not one.`);
  }
  const hidden = unseenSpans(deck, slide);
  const found: Located[] = [];
  for (const region of deck.regions) {
    if (region.start < slide.start || region.end > slide.end) continue;
    if (hidden.some((span) => region.start >= span.start && region.end <= span.end)) continue;
    for (const located of matchesIn(source, region, needle)) found.push(located);
  }
  const chosen = found[occurrence];
  if (chosen) return chosen;
  const noun = sectionNoun(format);
  if (found.length > 0) {
    throw new AppError(
      "invalid_request",
      `"${needle}" occurs ${found.length} time${found.length === 1 ? "" : "s"} on ${noun} ${query.slide + 1}; there is no occurrence ${occurrence + 1}.`,
    );
  }
  throw new AppError("invalid_request", notWrittenMessage(source, deck, needle, noun, query.slide + 1));
}

function notWrittenMessage(source: string, deck: LocatedDeck, needle: string, noun: string, number: number): string {
  const where = `${noun} ${number}`;
  // Written outside every slide: a constant or a helper the slide uses (and others may share).
  const elsewhere = deck.regions.find(
    (region) =>
      !deck.slides.some((other) => region.start >= other.start && region.end <= other.end) &&
      matchesIn(source, region, needle).length > 0,
  );
  if (elsewhere) {
    return `"${needle}" is not written in ${where}'s code but at line ${lineAt(source, elsewhere.start)}, outside the ${noun}s (a variable or a helper, which other places may share). Edit it there in the code editor.`;
  }
  return `"${needle}" is not written as such in ${where}'s code: it is computed (from a variable, a \${…} in a template or a helper) or split across elements. Edit it in the code editor.`;
}

/** The spans of attributes on this slide whose values are never shown as text. */
function unseenSpans(deck: LocatedDeck, slide: LocatedSlide): Array<{ start: number; end: number }> {
  return deck.elements
    .filter((element) => element.start >= slide.start && element.end <= slide.end)
    .flatMap((element) =>
      element.attributes.filter(
        (attribute) => unseenAttributes.get(element.name)?.has(attribute.name) ?? attribute.name === "key",
      ),
    )
    .map((attribute) => ({ start: attribute.start, end: attribute.end }));
}

/**
 * Every occurrence of `needle` in a region's text as rendered: whitespace runs collapse to one space, as
 * the DOM shows them, and in JSX text a run holding a line break at either end disappears (JSX's rule).
 */
function matchesIn(source: string, region: TextRegion, needle: string): Located[] {
  const decoded = decodeRegion(source, region);
  const { text, origin } = rendered(decoded.text, region.kind === "jsx-text");
  const found: Located[] = [];
  for (let index = text.indexOf(needle); index >= 0; index = text.indexOf(needle, index + needle.length)) {
    const from = origin[index] ?? 0;
    const to = (origin[index + needle.length - 1] ?? 0) + 1;
    const start = decoded.offsets[from] ?? region.start;
    const end = decoded.offsets[to] ?? region.end;
    found.push({
      match: { kind: region.kind, start, end, line: lineAt(source, start), region },
      decoded,
      from,
      to,
    });
  }
  return found;
}

const space = /[ \t\n\r\f]/;

function collapse(text: string): string {
  return text.replace(/[ \t\n\r\f]+/g, " ");
}

/** The text as shown, with the index in `text` each shown character came from. */
function rendered(text: string, jsx: boolean): { text: string; origin: number[] } {
  let shown = "";
  const origin: number[] = [];
  let index = 0;
  while (index < text.length) {
    if (!space.test(text[index] ?? "")) {
      shown += text[index];
      origin.push(index);
      index++;
      continue;
    }
    let end = index;
    while (end < text.length && space.test(text[end] ?? "")) end++;
    const atEdge = index === 0 || end === text.length;
    if (!(jsx && atEdge && /[\n\r]/.test(text.slice(index, end)))) {
      shown += " ";
      origin.push(index);
    }
    index = end;
  }
  return { text: shown, origin };
}

function attributeNeedsExpression(value: string, quote: string): boolean {
  return value.includes(quote) || /[\n\r]/.test(value) || /&(#x?[0-9a-f]+|[a-z]+);/i.test(value);
}

/** Text as written in its place: JSX text escapes what JSX would read as code or markup. */
function encodeText(region: TextRegion, value: string): string {
  switch (region.kind) {
    case "string":
      return encodeJsString(value, region.quote ?? '"');
    case "template":
      return encodeTemplate(value);
    case "jsx-attr":
      return value;
    case "jsx-text":
      return value
        .replace(/&(?=#x?[0-9a-f]+;|[a-z]+;)/gi, "&amp;")
        .replace(/[{}<>]/g, (char) => ({ "{": '{"{"}', "}": '{"}"}', "<": "&lt;", ">": "&gt;" })[char] ?? char);
  }
}
