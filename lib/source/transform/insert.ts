// The visual editor's Insert and Move over deck source: a new element (text, bullets, image, chart, table,
// stat, quote, code) added to one slide, and an element moved earlier or later among its siblings. Where
// a new element goes, the slide's layout decides: after the selected element (beside it, in the same
// column or grid); else a stat into the slide's grid of stats; else at the end of the slide, or of its last
// column when the slide is laid out in columns. The slide's JSX comes from @babel/parser (tsx-module.ts);
// only the bytes of the change are written, on lines of their own, indented like their neighbours, and the
// player import gains the component when it lacks it (imports.ts).

import type { DeckFormat } from "@/lib/contract/deck";
import { AppError } from "@/lib/core/errors";
import { addPlayerImports } from "./imports";
import { placeholderImage } from "./layouts";
import { editableSlides, sectionNoun, slideAt } from "./slides";
import type { LocatedDeck } from "./tsx-module";

export const insertKinds = ["text", "bullets", "image", "chart", "table", "stat", "quote", "code"] as const;
export type InsertKind = (typeof insertKinds)[number];

/** A new element's lines (the first unindented, the rest relative to it) and its component. */
const snippets: Record<InsertKind, { component: string; lines: string[] }> = {
  text: { component: "Text", lines: ["<Text>Write your text here.</Text>"] },
  bullets: { component: "Bullets", lines: ['<Bullets items={["First point", "Second point", "Third point"]} />'] },
  image: {
    component: "Image",
    lines: [`<Image src="${placeholderImage}" alt="Describe the picture" />`],
  },
  chart: {
    component: "Chart",
    lines: [
      '<Chart type="bar" data={[',
      '  { label: "First", value: 12 },',
      '  { label: "Second", value: 18 },',
      '  { label: "Third", value: 24 },',
      "]} />",
    ],
  },
  table: {
    component: "Table",
    lines: [
      "<Table",
      '  columns={["Option", "Cost", "Time"]}',
      "  rows={[",
      '    ["First", "$10", "2 weeks"],',
      '    ["Second", "$20", "1 week"],',
      "  ]}",
      "/>",
    ],
  },
  stat: { component: "Stat", lines: ['<Stat value="42%" label="What the number measures" />'] },
  quote: { component: "Quote", lines: ['<Quote by="Name" role="Role, Company">The words worth repeating.</Quote>'] },
  code: { component: "Code", lines: ['<Code language="ts" code={`const answer = 42;`} />'] },
};

type Element = LocatedDeck["elements"][number];

/** The elements of the slide that starts at `slide`, and for each one the element directly holding it. */
function slideTree(deck: LocatedDeck, slide: { start: number; end: number }) {
  const inside = deck.elements.filter((element) => element.start > slide.start && element.end <= slide.end);
  const parentOf = (element: Element): Element | null => {
    let best: Element | null = null;
    for (const candidate of inside) {
      if (candidate === element || candidate.start > element.start || candidate.end < element.end) continue;
      if (!best || candidate.end - candidate.start < best.end - best.start) best = candidate;
    }
    return best;
  };
  return { inside, parentOf };
}

/** The whitespace at the start of the line `offset` stands on. */
function indentAt(source: string, offset: number): string {
  const lineStart = source.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(source.slice(lineStart))?.[0] ?? "";
}

/** Where an element's closing tag starts (`</Name>`); null for a self-closing element. */
function closingTagStart(source: string, element: { start: number; end: number }): number | null {
  if (source.slice(element.end - 2, element.end) === "/>") return null;
  const start = source.lastIndexOf("</", element.end - 1);
  return start > element.start ? start : null;
}

/** `text` written on lines of its own right after the element `after` ends, indented as it is. */
function insertAfter(source: string, after: { start: number; end: number }, text: string[]): string {
  const indent = indentAt(source, after.start);
  const newline = source.includes("\r\n") ? "\r\n" : "\n";
  const written = text.map((line) => indent + line).join(newline);
  return source.slice(0, after.end) + newline + written + source.slice(after.end);
}

/** `text` written as the last child of `parent`, one step deeper than the parent's own line. */
function appendInto(source: string, parent: { start: number; end: number }, text: string[], where: string): string {
  const close = closingTagStart(source, parent);
  if (close === null) {
    throw new AppError(
      "invalid_request",
      `${where} is written as one self-closing tag; give it an opening and a closing tag in the code editor first.`,
    );
  }
  const outer = indentAt(source, parent.start);
  const step = /^\t/.test(outer) ? "\t" : "  ";
  const newline = source.includes("\r\n") ? "\r\n" : "\n";
  const written = text.map((line) => outer + step + line).join(newline);
  // Back over the whitespace before the closing tag, so the new lines sit right after the last child.
  let at = close;
  while (at > parent.start && /[ \t]/.test(source[at - 1] ?? "")) at--;
  const before = source.slice(0, at);
  const lineBreak = /\r?\n$/.test(before) ? "" : newline;
  return before + lineBreak + written + newline + outer + source.slice(close);
}

/**
 * Adds a new `kind` element to slide `slide` (0-based): after the element that starts at `after` when given
 * (the selected element), else where the slide's layout puts it. Returns the new source.
 */
export function insertElement(
  source: string,
  format: DeckFormat,
  at: { slide: number; kind: InsertKind; after?: number },
): string {
  const snippet = (snippets as Partial<Record<string, (typeof snippets)[InsertKind]>>)[at.kind];
  if (!snippet) {
    throw new AppError("invalid_request", `Cannot insert "${at.kind}"; choose one of: ${insertKinds.join(", ")}.`);
  }
  return insertSnippet(source, format, { ...at, snippet });
}

/** Adds an <Image> of `src` described by `alt` to slide `slide`, where insertElement puts an image. */
export function insertImage(
  source: string,
  format: DeckFormat,
  at: { slide: number; src: string; alt: string; after?: number },
): string {
  if (!/^(\/assets\/|https?:\/\/|data:image\/)/.test(at.src) || /["\s]/.test(at.src)) {
    throw new AppError("invalid_request", `"${at.src.slice(0, 80)}" is not an image address a deck can show.`);
  }
  const alt = at.alt.replace(/\s+/g, " ").trim() || "Image";
  const quoted = /["{}<>&]/.test(alt) ? `{${JSON.stringify(alt)}}` : `"${alt}"`;
  const snippet = { component: "Image", lines: [`<Image src="${at.src}" alt=${quoted} fit="contain" />`] };
  return insertSnippet(source, format, { slide: at.slide, kind: "image", after: at.after, snippet });
}

function insertSnippet(
  source: string,
  format: DeckFormat,
  at: { slide: number; kind: InsertKind; after?: number; snippet: { component: string; lines: string[] } },
): string {
  const { snippet } = at;
  const deck = editableSlides(source, format);
  const slide = slideAt(deck, at.slide, format);
  const where = `${sectionNoun(format)[0]!.toUpperCase()}${sectionNoun(format).slice(1)} ${at.slide + 1}`;
  const { inside, parentOf } = slideTree(deck, slide);
  const topLevel = inside.filter((element) => parentOf(element) === null);
  let next: string;
  const selected = at.after === undefined ? undefined : inside.find((element) => element.start === at.after);
  if (at.after !== undefined && !selected) {
    throw new AppError(
      "invalid_request",
      `No element starts at offset ${at.after} of ${where}; it changed since it was read. Pick the element again.`,
    );
  }
  const stats = inside.find(
    (element) => element.name === "Grid" && inside.some((s) => s.name === "Stat" && parentOf(s) === element),
  );
  const columns = topLevel.find((element) => element.name === "Columns");
  if (selected) {
    // Beside the selected element; out of a grid of stats for anything but a stat (it would be a cell).
    const holder = parentOf(selected);
    let anchor = selected;
    if (holder?.name === "Grid" && at.kind !== "stat") {
      while (parentOf(anchor)) anchor = parentOf(anchor)!;
    }
    next = insertAfter(source, anchor, snippet.lines);
  } else if (at.kind === "stat" && stats) {
    next = appendInto(source, stats, snippet.lines, where);
  } else if (columns && columns === topLevel.at(-1)) {
    const cells = inside.filter((element) => parentOf(element) === columns);
    const last = cells.at(-1);
    next =
      last && closingTagStart(source, last) !== null
        ? appendInto(source, last, snippet.lines, where)
        : appendInto(source, columns, snippet.lines, where);
  } else {
    next = appendInto(source, slide, snippet.lines, where);
  }
  return addPlayerImports(next, [snippet.component]);
}

/**
 * Moves the element that starts at `start` on slide `slide` one place earlier (-1) or later (1) among the
 * elements beside it (the same parent), swapping the two; the whitespace between them stays.
 */
export function moveElement(
  source: string,
  format: DeckFormat,
  at: { slide: number; start: number; direction: -1 | 1 },
): string {
  return moveElementTo(source, format, at).source;
}

/** moveElement, with where the moved element starts in the new source. */
export function moveElementTo(
  source: string,
  format: DeckFormat,
  at: { slide: number; start: number; direction: -1 | 1 },
): { source: string; start: number } {
  const deck = editableSlides(source, format);
  const slide = slideAt(deck, at.slide, format);
  const { inside, parentOf } = slideTree(deck, slide);
  const element = inside.find((candidate) => candidate.start === at.start);
  if (!element) {
    throw new AppError(
      "invalid_request",
      `No element starts at offset ${at.start} of ${sectionNoun(format)} ${at.slide + 1}; it changed since it was read. Pick the element again.`,
    );
  }
  const parent = parentOf(element);
  const siblings = inside.filter((candidate) => parentOf(candidate) === parent);
  const index = siblings.indexOf(element);
  const other = siblings[index + at.direction];
  if (!other) {
    throw new AppError(
      "invalid_request",
      `This ${element.name} is already the ${at.direction < 0 ? "first" : "last"} element ${parent ? `in its ${parent.name}` : "on the slide"}.`,
    );
  }
  const [first, second] = at.direction < 0 ? [other, element] : [element, other];
  const next =
    source.slice(0, first.start) +
    source.slice(second.start, second.end) +
    source.slice(first.end, second.start) +
    source.slice(first.start, first.end) +
    source.slice(second.end);
  // Earlier: it starts where its neighbour did; later: it ends where its neighbour did.
  return { source: next, start: at.direction < 0 ? other.start : other.end - (element.end - element.start) };
}
