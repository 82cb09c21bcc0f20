// The visual editor's slide-level edits of a deck module: its outline, and adding, duplicating, deleting,
// moving and renaming the top-level <Slide> (or <Beat>) elements of <Deck>. Every function takes the
// source and returns the new source, splicing only the bytes the edit is about (tsx-module.ts gives the
// positions), so what a person sees in the code editor afterwards is the change they made and nothing else.
// Beside it: text.ts (text edits), props.ts (element props), merge.ts (merging two edits), layouts.ts (the
// new-slide gallery), imports.ts (the player import), slides.ts (numbering slides as the player does).

import type { DeckFormat } from "@/lib/contract/deck";
import { componentNames } from "@/lib/contract/prop-values";
import { AppError } from "@/lib/core/errors";
import { addPlayerImports } from "./imports";
import { type SlideLayoutId, slideLayoutSnippet, slideLayouts } from "./layouts";
import { setProp } from "./props";
import { editableSlides, lineAt, sectionNoun, slideAt, spliceSlides } from "./slides";
import { attributeText, findAttribute, type LocatedDeck, type LocatedSlide, locateSlides } from "./tsx-module";

type SlideOutline = { index: number; start: number; end: number; label: string | null; line: number };

export type DeckOutline = {
  slides: SlideOutline[];
  /** False when some slides are made in code (.map, a condition, a helper): indexes would not match. */
  editable: boolean;
};

export function outlineSlides(source: string, format: DeckFormat): DeckOutline {
  const deck = locateSlides(source, format);
  return {
    slides: deck.slides.map((slide, index) => ({
      index,
      start: slide.start,
      end: slide.end,
      label: slide.label,
      line: lineAt(source, slide.start),
    })),
    editable: !deck.hiddenSlides && deck.slides.length > 0,
  };
}

/** The whitespace before a slide (newline and indentation) that the next slide written beside it repeats. */
function leadOf(source: string, slide: LocatedSlide): string {
  let index = slide.start;
  while (index > 0 && /\s/.test(source[index - 1] ?? "")) index--;
  return source.slice(index, slide.start) || "\n";
}

function indentLines(text: string, indent: string, newline: string): string {
  return text
    .split("\n")
    .map((line, index) => (index === 0 || line === "" ? line : indent + line))
    .join(newline);
}

/** Inserts a slide's text after slide `after` (-1: before the first), on its own line like its neighbours. */
function insertSlide(source: string, slides: LocatedSlide[], after: number, text: string): string {
  const anchor = slides[Math.max(0, after)];
  if (!anchor) throw new Error("insertSlide needs a slide to stand beside");
  const lead = leadOf(source, anchor);
  const newline = lead.includes("\r\n") ? "\r\n" : "\n";
  const indented = indentLines(text, /[ \t]*$/.exec(lead)?.[0] ?? "", newline);
  if (after < 0) return source.slice(0, anchor.start) + indented + lead + source.slice(anchor.start);
  return source.slice(0, anchor.end) + lead + indented + source.slice(anchor.end);
}

function checkAfter(deck: LocatedDeck, after: number, format: DeckFormat): void {
  if (!Number.isInteger(after) || after < -1 || after >= deck.slides.length) {
    const noun = sectionNoun(format);
    throw new AppError(
      "invalid_request",
      `Cannot add a ${noun} after ${noun} ${after + 1}: the deck has ${deck.slides.length} ${noun}s (use -1 to add one before the first).`,
    );
  }
}

function uniqueLabel(deck: LocatedDeck, wanted: string): string {
  const taken = new Set(deck.slides.map((slide) => slide.label?.toLowerCase()).filter(Boolean));
  let label = wanted;
  for (let suffix = 2; taken.has(label.toLowerCase()); suffix++) label = `${wanted} (${suffix})`;
  return label;
}

/**
 * Adds a slide of one of the gallery's layouts after slide `after` (-1: at the start), indented like its
 * neighbours, and imports the components it uses that the module does not import yet.
 */
export function addSlide(
  source: string,
  format: DeckFormat,
  options: { after: number; layout: SlideLayoutId; label?: string },
): string {
  const deck = editableSlides(source, format);
  checkAfter(deck, options.after, format);
  const wanted = options.label?.replace(/\s+/g, " ").trim();
  const snippet = slideLayoutSnippet(options.layout, format, wanted || uniqueLabel(deck, defaultLabel(options.layout)));
  const inserted = insertSlide(source, deck.slides, options.after, snippet.text);
  return addPlayerImports(inserted, snippet.components);
}

function defaultLabel(layout: SlideLayoutId): string {
  return slideLayouts.find((candidate) => candidate.id === layout)?.name ?? "New slide";
}

/** A copy of slide `index` right after it; a labelled slide's copy is labelled "… (copy)". */
export function duplicateSlide(source: string, format: DeckFormat, index: number): string {
  const deck = editableSlides(source, format);
  const slide = slideAt(deck, index, format);
  let copy = slide.text;
  if (slide.label) {
    copy = setProp(copy, { start: 0, name: "label", value: uniqueLabel(deck, `${slide.label} (copy)`) });
  }
  const lead = leadOf(source, slide);
  return source.slice(0, slide.end) + lead + copy + source.slice(slide.end);
}

/** Removes slide `index` with the whitespace that led up to it, so no blank line is left. */
export function deleteSlide(source: string, format: DeckFormat, index: number): string {
  const deck = editableSlides(source, format);
  const slide = slideAt(deck, index, format);
  if (deck.slides.length === 1) {
    throw new AppError("invalid_request", `A deck needs at least one ${sectionNoun(format)}; this is its last one.`);
  }
  // The first slide goes with the whitespace after it, so the next one takes its place and indentation.
  if (index === 0) {
    const next = deck.slides[1] as LocatedSlide;
    return source.slice(0, slide.start) + source.slice(next.start);
  }
  const previous = deck.slides[index - 1] as LocatedSlide;
  return source.slice(0, previous.end) + source.slice(slide.end);
}

/** Moves slide `from` so that it ends up at index `to`; the whitespace between slides stays where it is. */
export function moveSlide(source: string, format: DeckFormat, from: number, to: number): string {
  const deck = editableSlides(source, format);
  slideAt(deck, from, format);
  slideAt(deck, to, format);
  if (from === to) return source;
  const order = deck.slides.map((_, index) => index);
  order.splice(from, 1);
  order.splice(to, 0, from);
  return spliceSlides(
    source,
    deck.slides,
    order.map((index) => deck.slides[index]?.text ?? ""),
  );
}

/** Sets slide `index`'s label (its outline entry), adding the attribute when missing; empty removes it. */
export function renameSlide(source: string, format: DeckFormat, index: number, label: string): string {
  const deck = editableSlides(source, format);
  const slide = slideAt(deck, index, format);
  const text = label.replace(/\s+/g, " ").trim();
  return setProp(source, { start: slide.start, name: "label", value: text || null, first: true });
}

/**
 * The slide text an API caller sent, checked to be one <Slide> (or <Beat>) element where `index` stands in
 * `next` (the source with it spliced in): anything else (two slides, text around it, another element) is
 * refused (spaces aside: an inserted slide is indented like its neighbours). Then the player components it
 * uses that the module does not import yet are imported.
 */
function checkSlideText(next: string, format: DeckFormat, index: number, text: string, count: number): string {
  const tag = format === "slides" ? "<Slide>" : "<Beat>";
  let deck: LocatedDeck;
  try {
    deck = locateSlides(next, format);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    throw new AppError("invalid_request", `The ${sectionNoun(format)} is not one ${tag} element: ${error.message}`);
  }
  const placed = deck.slides[index];
  const compact = (value: string) => value.replace(/\s+/g, "");
  if (deck.hiddenSlides || deck.slides.length !== count || !placed || compact(placed.text) !== compact(text)) {
    throw new AppError(
      "invalid_request",
      `The ${sectionNoun(format)} must be exactly one ${tag} element (from ${tag.slice(0, -1)} to its closing tag, nothing before or after it).`,
    );
  }
  const used = [...text.matchAll(/<([A-Z][A-Za-z0-9]*)/g)].map((match) => match[1]!);
  return addPlayerImports(
    next,
    used.filter((name) => (componentNames as readonly string[]).includes(name)),
  );
}

/** Replaces slide `index` with `text` (one element), splicing only its bytes (and any import it needs). */
export function replaceSlide(source: string, format: DeckFormat, index: number, text: string): string {
  const deck = editableSlides(source, format);
  const slide = slideAt(deck, index, format);
  const slideText = text.trim();
  const next = source.slice(0, slide.start) + slideText + source.slice(slide.end);
  return checkSlideText(next, format, index, slideText, deck.slides.length);
}

/** Inserts `text` (one element) after slide `after` (-1: before the first), on its own line like its neighbours. */
export function insertSlideText(source: string, format: DeckFormat, after: number, text: string): string {
  const deck = editableSlides(source, format);
  checkAfter(deck, after, format);
  const slideText = text.trim();
  const next = insertSlide(source, deck.slides, after, slideText);
  return checkSlideText(next, format, after + 1, slideText, deck.slides.length + 1);
}

/** Slide `index`'s speaker notes as written (<Slide notes="…">): "" when it has none, null when they are
 * written as code (a variable, a template with expressions), which stays for the code editor. */
export function readSlideNotes(source: string, format: DeckFormat, index: number): string | null {
  const slide = slideAt(editableSlides(source, format), index, format);
  const value = findAttribute(slide.attributes, "notes")?.value;
  if (!value) return "";
  return attributeText(source, value);
}

/** Sets slide `index`'s speaker notes (any text, line breaks included); empty removes the attribute. */
export function setSlideNotes(source: string, format: DeckFormat, index: number, notes: string): string {
  const slide = slideAt(editableSlides(source, format), index, format);
  const text = notes.trim();
  return setProp(source, { start: slide.start, name: "notes", value: text || null });
}
