// The offline editor: applies the instructions that need no judgement (quoted copy replacements, renaming,
// removing, duplicating, reordering and adding slides) to any deck module, and refuses everything else so a
// model can do it. The module is read with @babel/parser (lib/source/transform/tsx-module.ts) and edited by
// splicing text into the positions it reports, so every byte the instruction does not touch stays as its
// author wrote it.

import { capitalize } from "@/lib/contract/text";
import type { DeckFormat } from "@/lib/contract/deck";
import { AppError } from "@/lib/core/errors";
import { type Command, type MoveTarget, parseInstruction, refuse, type SlideRef } from "./edit-commands";
import { el, printElementText } from "./print";
import {
  type AttributeValue,
  decodeRegion,
  encodeFor,
  encodeJsString,
  encodeTemplate,
  findAttribute,
  type LocatedDeck,
  type LocatedSlide,
  locateSlides,
  SourceSyntaxError,
} from "@/lib/source/transform/tsx-module";

export { locateSlides };
export type OfflineEdit = { source: string; summary: string };

type State = {
  source: string;
  /** Identity of each current slide, in order; original slides are 0..n-1, copies get new ids. */
  ids: number[];
  nextId: number;
  originalCount: number;
  hiddenSlides: boolean;
};

export function editOfflineDeck(input: { source: string; instruction: string; format: DeckFormat }): OfflineEdit {
  const commands = parseInstruction(input.instruction);
  const noun = input.format === "slides" ? "slide" : "beat";
  const initial = readDeck(input.source, input.format);
  const state: State = {
    source: input.source,
    ids: initial.slides.map((_, index) => index),
    nextId: initial.slides.length,
    originalCount: initial.slides.length,
    hiddenSlides: initial.hiddenSlides,
  };
  const summary: string[] = [];
  for (const command of commands) summary.push(applyCommand(state, command, input.format, noun));

  const final = locateSlides(state.source, input.format);
  if (final.slides.length !== state.ids.length) {
    throw new Error("offline edit lost track of the deck's slides");
  }
  return { source: state.source, summary: `${summary.join("; ")}.` };
}

/** The deck as the editor first reads it; a source that does not parse is one for a model to fix. */
function readDeck(source: string, format: DeckFormat): LocatedDeck {
  try {
    return locateSlides(source, format);
  } catch (error) {
    if (!(error instanceof SourceSyntaxError)) throw error;
    throw new AppError(
      "invalid_request",
      `The offline editor could not read this deck's source (${error.reason}); this edit needs an AI model (set OPENAI_API_KEY).`,
      { cause: error },
    );
  }
}

function applyCommand(state: State, command: Command, format: DeckFormat, noun: string): string {
  if (command.kind === "replace") return applyReplace(state, command.from, command.to, format);

  const deck = locateSlides(state.source, format);
  if (deck.slides.length === 0) {
    refuse(`This deck has no <${format === "slides" ? "Slide" : "Beat"}> elements written directly inside <Deck>.`);
  }
  const resolve = (ref: SlideRef): number => resolveRef(state, deck, ref, noun);
  const describe = (index: number) => {
    const slide = deck.slides[index];
    return `${noun} ${index + 1}${slide?.label ? ` "${slide.label}"` : ""}`;
  };

  switch (command.kind) {
    case "rename": {
      const index = resolve(command.ref);
      const label = command.label.replace(/\s+/g, " ").trim();
      if (!label) refuse("A slide label cannot be empty.");
      const slide = deck.slides[index];
      if (!slide) throw new Error("unreachable");
      const text = setLabel(state.source, slide, label);
      state.source = spliceSlides(
        state.source,
        deck.slides,
        deck.slides.map((other) => (other === slide ? text : other.text)),
      );
      return `renamed ${describe(index)} to "${label}"`;
    }
    case "remove": {
      const indexes = [...new Set(command.refs.map(resolve))].sort((a, b) => a - b);
      if (indexes.length >= deck.slides.length)
        refuse(`A deck needs at least one ${noun}; this would remove all of them.`);
      const described = indexes.map(describe);
      state.source = removeSlides(state.source, deck.slides, new Set(indexes));
      state.ids = state.ids.filter((_, index) => !indexes.includes(index));
      return `removed ${described.join(", ")}`;
    }
    case "duplicate": {
      const index = resolve(command.ref);
      const slide = deck.slides[index];
      if (!slide) throw new Error("unreachable");
      const taken = new Set(deck.slides.map((other) => other.label?.toLowerCase()).filter(Boolean));
      const base = `${slide.label ?? `${capitalize(noun)} ${index + 1}`} (copy)`;
      let label = base;
      for (let suffix = 2; taken.has(label.toLowerCase()); suffix++) label = `${base.slice(0, -1)} ${suffix})`;
      const copy = setLabel(state.source, slide, label);
      state.source = insertAfter(state.source, deck.slides, index, copy);
      state.ids.splice(index + 1, 0, state.nextId++);
      return `duplicated ${describe(index)} as "${label}"`;
    }
    case "move": {
      const from = resolve(command.ref);
      const order = deck.slides.map((_, index) => index);
      order.splice(from, 1);
      let to: number;
      let where: string;
      const target = command.target;
      if (target.kind === "position") {
        if (target.position < 1 || target.position > deck.slides.length) {
          refuse(`There is no position ${target.position}; the deck has ${deck.slides.length} ${noun}s.`);
        }
        to = target.position - 1;
        where = `to position ${target.position}`;
      } else if (target.kind === "start" || target.kind === "end") {
        to = target.kind === "start" ? 0 : order.length;
        where = `to the ${target.kind}`;
      } else {
        const anchor = resolve(target.ref);
        if (anchor === from) refuse(`Cannot move ${describe(from)} ${target.kind} itself.`);
        to = order.indexOf(anchor) + (target.kind === "after" ? 1 : 0);
        where = `${target.kind} ${describe(anchor)}`;
      }
      order.splice(to, 0, from);
      reorder(state, deck, order);
      return `moved ${describe(from)} ${where}`;
    }
    case "add": {
      const label = uniqueLabel(deck, command.topic);
      const text = newSlide(format, label, command.topic, command.points);
      const target: MoveTarget = command.position;
      let at = deck.slides.length;
      if (target.kind === "start") at = 0;
      else if (target.kind === "before" || target.kind === "after")
        at = resolve(target.ref) + (target.kind === "after" ? 1 : 0);
      else if (target.kind === "position") at = Math.max(0, Math.min(deck.slides.length, target.position - 1));
      state.source = insertAt(state.source, deck.slides, at, text);
      state.ids.splice(at, 0, state.nextId++);
      return `added ${noun} "${label}" at position ${at + 1}`;
    }
    case "swap": {
      const a = resolve(command.a);
      const b = resolve(command.b);
      if (a === b) refuse(`Cannot swap ${describe(a)} with itself.`);
      const order = deck.slides.map((_, index) => index);
      order[a] = b;
      order[b] = a;
      reorder(state, deck, order);
      return `swapped ${describe(a)} and ${describe(b)}`;
    }
  }
}

function resolveRef(state: State, deck: LocatedDeck, ref: SlideRef, noun: string): number {
  if (ref.kind === "last") return deck.slides.length - 1;
  if (ref.kind === "number") {
    if (state.hiddenSlides) {
      refuse(
        `This deck makes some ${noun}s outside <Deck>'s direct children, so ${noun} numbers are ambiguous offline; refer to the ${noun} by its quoted label instead.`,
      );
    }
    // Numbers name slides as the deck was before this instruction, so "remove slides 2 and 3" means both originals.
    if (ref.number < 1 || ref.number > state.originalCount) {
      refuse(`There is no ${noun} ${ref.number}; the deck has ${state.originalCount} ${noun}s.`);
    }
    const index = state.ids.indexOf(ref.number - 1);
    if (index < 0) refuse(`${capitalize(noun)} ${ref.number} was already removed earlier in this instruction.`);
    return index;
  }
  const wanted = ref.label.replace(/\s+/g, " ").trim().toLowerCase();
  const matches = deck.slides.filter((slide) => slide.label?.toLowerCase() === wanted);
  if (matches.length > 1) {
    refuse(
      `Several ${noun}s are labelled "${ref.label}"; refer to one by number (e.g. ${noun} ${matches[0]?.number}).`,
    );
  }
  const match = matches[0];
  if (!match) {
    const labels = deck.slides.map((slide) => `"${slide.label ?? `${capitalize(noun)} ${slide.number}`}"`).join(", ");
    refuse(`No ${noun} is labelled "${ref.label}". The ${noun}s are: ${labels}.`);
  }
  return match.number - 1;
}

function reorder(state: State, deck: LocatedDeck, order: number[]): void {
  state.source = spliceSlides(
    state.source,
    deck.slides,
    order.map((index) => deck.slides[index]?.text ?? ""),
  );
  state.ids = order.map((index) => state.ids[index] ?? -1);
}

/** Writes new element texts into the slides' places; whatever lies between slides stays put. */
function spliceSlides(source: string, slides: LocatedSlide[], texts: string[]): string {
  let result = "";
  let cursor = 0;
  slides.forEach((slide, index) => {
    result += source.slice(cursor, slide.start) + (texts[index] ?? "");
    cursor = slide.end;
  });
  return result + source.slice(cursor);
}

/** Removes slides together with the whitespace that led up to each, so no blank gaps remain. */
function removeSlides(source: string, slides: LocatedSlide[], remove: Set<number>): string {
  let result = "";
  let cursor = 0;
  slides.forEach((slide, index) => {
    if (!remove.has(index)) return;
    const leadStart = leadingSpaceStart(source, slide.start, cursor);
    result += source.slice(cursor, leadStart);
    cursor = slide.end;
  });
  return result + source.slice(cursor);
}

function insertAfter(source: string, slides: LocatedSlide[], index: number, text: string): string {
  const slide = slides[index];
  if (!slide) return source;
  const lead = source.slice(leadingSpaceStart(source, slide.start, 0), slide.start) || "\n";
  return source.slice(0, slide.end) + lead + text + source.slice(slide.end);
}

function leadingSpaceStart(source: string, start: number, floor: number): number {
  let index = start;
  while (index > floor && /\s/.test(source[index - 1] ?? "")) index--;
  return index;
}

/** The slide's text with its `label` set, keeping the attribute's quoting style where it can. */
function setLabel(source: string, slide: LocatedSlide, label: string): string {
  const attribute = findAttribute(slide.attributes, "label");
  const offset = slide.start;
  const text = slide.text;
  const value = attribute?.value;
  if (attribute && value) {
    const replacement = encodeLabel(value, label);
    const start = (value.kind === "string" ? value.start - 1 : value.start) - offset;
    const end = (value.kind === "string" ? value.end + 1 : value.end) - offset;
    return text.slice(0, start) + replacement + text.slice(end);
  }
  const encoded = /^[^"&\n\r{}<>]*$/.test(label) ? `"${label}"` : `{${JSON.stringify(label)}}`;
  if (attribute) return text.slice(0, attribute.end - offset) + `=${encoded}` + text.slice(attribute.end - offset);
  const nameEnd = slide.nameEnd - offset;
  return `${text.slice(0, nameEnd)} label=${encoded}${text.slice(nameEnd)}`;
}

/** A label value in the style the author used: attribute string, or the same literal in braces. */
function encodeLabel(value: AttributeValue, label: string): string {
  if (value.kind === "string" && !new RegExp(`[${value.quote}&\\n\\r]`).test(label))
    return `${value.quote}${label}${value.quote}`;
  if (value.kind === "expression" && value.literal !== null) {
    if (value.quote === '"' || value.quote === "'")
      return `{${value.quote}${encodeJsString(label, value.quote)}${value.quote}}`;
    if (value.quote === "`") return `{\`${encodeTemplate(label)}\`}`;
  }
  return /^[^"&\n\r]*$/.test(label) ? `"${label}"` : `{${JSON.stringify(label)}}`;
}

function uniqueLabel(deck: LocatedDeck, topic: string): string {
  const taken = new Set(deck.slides.map((slide) => slide.label?.toLowerCase()).filter(Boolean));
  const base = topic.replace(/\s+/g, " ").trim() || "New slide";
  let label = base;
  for (let suffix = 2; taken.has(label.toLowerCase()); suffix++) label = `${base} (${suffix})`;
  return label;
}

/** A new slide in the generator's own style: the topic as its heading, the points as bullets. */
function newSlide(format: DeckFormat, label: string, topic: string, points: string[]): string {
  const children = [el("Heading", [], topic)];
  if (points.length > 0) children.push(el("Bullets", [["items", points]]));
  return printElementText(el(format === "slides" ? "Slide" : "Beat", [["label", label]], ...children));
}

function insertAt(source: string, slides: LocatedSlide[], at: number, text: string): string {
  const anchor = slides[Math.min(at, slides.length - 1)];
  if (!anchor) refuse("This deck has no slides to place a new one beside.");
  const leadStart = leadingSpaceStart(source, anchor.start, 0);
  const lead = source.slice(leadStart, anchor.start) || "\n";
  const indent = /[ \t]*$/.exec(lead)?.[0] ?? "";
  const indented = text
    .split("\n")
    .map((line, index) => (index === 0 || line === "" ? line : indent + line))
    .join("\n");
  if (at >= slides.length) return source.slice(0, anchor.end) + lead + indented + source.slice(anchor.end);
  return source.slice(0, anchor.start) + indented + lead + source.slice(anchor.start);
}

function applyReplace(state: State, from: string, to: string, format: DeckFormat): string {
  if (from.length === 0) refuse("The text to replace is empty.");
  if (from === to) return `left "${from}" as it is`;
  const { regions } = locateSlides(state.source, format);
  const edits: Array<{ start: number; end: number; text: string }> = [];
  let count = 0;
  for (const region of regions) {
    const decoded = decodeRegion(state.source, region);
    const matches = findMatches(decoded.text, from, region.kind === "jsx-text");
    if (matches.length === 0) continue;
    count += matches.length;
    if (region.kind === "jsx-attr" && needsExpression(to, region.quote ?? '"')) {
      // A JSX attribute string has no escapes: the whole value becomes a string expression.
      let value = "";
      let cursor = 0;
      for (const match of matches) {
        value += decoded.text.slice(cursor, match.start) + to;
        cursor = match.end;
      }
      value += decoded.text.slice(cursor);
      edits.push({ start: region.start - 1, end: region.end + 1, text: `{${JSON.stringify(value)}}` });
      continue;
    }
    for (const match of matches) {
      edits.push({
        start: decoded.offsets[match.start] ?? region.start,
        end: decoded.offsets[match.end] ?? region.end,
        text: encodeFor(region, to),
      });
    }
  }
  if (count === 0) {
    throw new AppError(
      "invalid_request",
      `The text "${from}" does not occur in the deck, so it cannot be replaced; quote the exact words as they appear on the slide. Nothing was changed.`,
    );
  }
  edits.sort((a, b) => b.start - a.start);
  let source = state.source;
  for (const edit of edits) source = source.slice(0, edit.start) + edit.text + source.slice(edit.end);
  state.source = source;
  return `replaced "${from}" with "${to}" (${count} occurrence${count === 1 ? "" : "s"})`;
}

function findMatches(text: string, needle: string, flexibleSpace: boolean): Array<{ start: number; end: number }> {
  const matches: Array<{ start: number; end: number }> = [];
  if (flexibleSpace) {
    // JSX text wraps across lines; a quoted phrase matches however its spaces were laid out.
    const pattern = new RegExp(
      needle
        .trim()
        .split(/\s+/)
        .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
        .join("\\s+"),
      "g",
    );
    for (const match of text.matchAll(pattern)) {
      if (match[0].length > 0) matches.push({ start: match.index, end: match.index + match[0].length });
    }
    return matches;
  }
  for (let index = text.indexOf(needle); index >= 0; index = text.indexOf(needle, index + needle.length)) {
    matches.push({ start: index, end: index + needle.length });
  }
  return matches;
}

function needsExpression(value: string, quote: string): boolean {
  return value.includes(quote) || /[&\n\r]/.test(value);
}
