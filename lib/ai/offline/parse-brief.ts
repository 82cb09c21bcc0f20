// Reads a free-form brief into an outline the offline generator can lay out. Briefs arrive in every
// shape (Markdown outlines, bare bullet lists, "Title:" headers, essays, one-line asks), so parsing is
// a line classifier plus a few text heuristics; nothing here calls a model, and the same brief always
// gives the same outline.

import { capitalize } from "@/lib/contract/text";
import { AppError } from "@/lib/core/errors";

export type BriefStat = {
  value: string;
  label: string;
  /** The sentence the figure was read from, so a slide can tell which text it already shows. */
  source?: string;
};

export type BriefQuote = { text: string; by?: string; role?: string };

export type BriefSection = {
  heading: string;
  points: string[];
  paragraphs: string[];
  stats: BriefStat[];
  quotes: BriefQuote[];
  notes?: string;
  /** The points came from a numbered list, so their order carries meaning. */
  numbered?: boolean;
};

export type ParsedBrief = {
  title: string | null;
  subtitle: string | null;
  /** Who the deck is for ("Audience: …" / "For: …"). */
  audience: string | null;
  /** Event or date line, good for a cover kicker. */
  kicker: string | null;
  /** Brief text that shaped the deck without becoming a slide: the ask itself, goals, tone lines. */
  notes: string[];
  sections: BriefSection[];
};

// Enough sections for a readable deck with an agenda; essays beyond this are grouped, not truncated.
const MAX_IMPLICIT_SECTIONS = 8;
const TITLE_WORDS = 8;
const MAX_STATS_PER_SECTION = 8;

type Draft = {
  heading: string | null;
  points: string[];
  paragraphs: string[];
  quotes: BriefQuote[];
  notes: string[];
  numbered: boolean;
};

type LineKind =
  | { kind: "blank" }
  | { kind: "heading"; level: number; text: string }
  | { kind: "meta"; key: string; value: string }
  | { kind: "bullet"; indent: number; text: string }
  | { kind: "numbered"; indent: number; text: string }
  | { kind: "quote"; text: string }
  | { kind: "rule" }
  | { kind: "text"; indent: number; text: string };

const metaKeys: Record<string, "title" | "subtitle" | "audience" | "kicker" | "note"> = {
  title: "title",
  "deck title": "title",
  subtitle: "subtitle",
  "sub-title": "subtitle",
  tagline: "subtitle",
  audience: "audience",
  for: "audience",
  date: "kicker",
  event: "kicker",
  occasion: "kicker",
  presenter: "note",
  speaker: "note",
  author: "note",
  goal: "note",
  goals: "note",
  purpose: "note",
  objective: "note",
  tone: "note",
  style: "note",
  length: "note",
  duration: "note",
  format: "note",
  context: "note",
  notes: "note",
  "speaker notes": "note",
};

export function parseBrief(brief: string): ParsedBrief {
  if (brief.trim().length === 0) throw new AppError("invalid_request", "The brief is empty; describe the deck to make");

  const lines = normalizeBrief(brief).split("\n");
  const kinds = lines.map(classifyLine);
  const headingLines = findImplicitHeadings(kinds);

  const result: ParsedBrief = { title: null, subtitle: null, audience: null, kicker: null, notes: [], sections: [] };
  const drafts: Draft[] = [];
  let current: Draft | null = null;
  let paragraph: string[] = [];
  let quote: string[] = [];
  let sawExplicitHeading = false;
  let titleFromHeading = false;

  const ensureDraft = (): Draft => {
    if (!current) {
      current = { heading: null, points: [], paragraphs: [], quotes: [], notes: [], numbered: false };
      drafts.push(current);
    }
    return current;
  };
  const hasContent = (draft: Draft | null) =>
    draft !== null && draft.points.length + draft.paragraphs.length + draft.quotes.length > 0;
  const startSection = (heading: string) => {
    flushParagraph();
    flushQuote();
    sawExplicitHeading = true;
    current = { heading, points: [], paragraphs: [], quotes: [], notes: [], numbered: false };
    drafts.push(current);
  };
  function flushParagraph() {
    if (paragraph.length === 0) return;
    const text = paragraph.join(" ");
    paragraph = [];
    // A new paragraph after a blank line opens a new section only in prose briefs without headings.
    const draft: Draft =
      current !== null && (current as Draft).heading === null && hasContent(current) && !sawExplicitHeading
        ? (startImplicit() as Draft)
        : ensureDraft();
    addText(draft, text, "paragraph");
  }
  function startImplicit(): Draft {
    current = { heading: null, points: [], paragraphs: [], quotes: [], notes: [], numbered: false };
    drafts.push(current);
    return current;
  }
  function flushQuote() {
    if (quote.length === 0) return;
    const lines = quote;
    quote = [];
    const draft = ensureDraft();
    const last = lines[lines.length - 1] ?? "";
    const attribution = /^(?:[—–~]|--|-)\s*(\S.*)$/.exec(last);
    const body = attribution ? lines.slice(0, -1) : lines;
    const parsed = splitTrailingAttribution(body.join(" "));
    const who = attribution ? splitAttribution(attribution[1] ?? "") : parsed.who;
    if (parsed.text) draft.quotes.push({ text: stripQuoteMarks(parsed.text), ...who });
  }

  for (const [index, line] of kinds.entries()) {
    if (headingLines.has(index) && (line.kind === "numbered" || line.kind === "bullet" || line.kind === "text")) {
      startSection(cleanHeading(line.text));
      continue;
    }
    if (line.kind !== "text") flushParagraph();
    if (line.kind !== "quote" && !(line.kind === "text" && quote.length > 0 && isAttributionLine(line.text))) {
      flushQuote();
    }
    switch (line.kind) {
      case "blank":
      case "rule":
        break;
      case "heading":
        if (line.level === 1 && result.title === null && !hasContent(current) && drafts.length === 0) {
          result.title = cleanHeading(line.text);
          titleFromHeading = true;
        } else {
          startSection(cleanHeading(line.text));
        }
        break;
      case "meta":
        applyMeta(result, line.key, line.value, current ?? undefined);
        break;
      case "bullet":
      case "numbered": {
        const draft = ensureDraft();
        if (line.kind === "numbered" && draft.points.length === 0) draft.numbered = true;
        addText(draft, line.text, "point");
        break;
      }
      case "quote":
        quote.push(line.text);
        break;
      case "text":
        if (quote.length > 0 && isAttributionLine(line.text)) {
          quote.push(line.text);
          flushQuote();
        } else if (
          current !== null &&
          (current as Draft).points.length > 0 &&
          line.indent > 0 &&
          paragraph.length === 0
        ) {
          // An indented line right under a bullet continues that bullet.
          const draft = current as Draft;
          draft.points[draft.points.length - 1] =
            `${draft.points[draft.points.length - 1] ?? ""} ${cleanInline(line.text)}`;
        } else {
          paragraph.push(line.text);
        }
        break;
    }
  }
  flushParagraph();
  flushQuote();

  let sections = drafts.filter((draft) => draft.heading !== null || hasContent(draft));
  if (!sawExplicitHeading) sections = groupProse(sections);
  result.sections = sections.map(finishSection).filter((section): section is BriefSection => section !== null);

  if (result.title === null) deriveTitle(result);
  else if (!titleFromHeading) dropAskSection(result);
  return result;
}

function normalizeBrief(brief: string): string {
  return (
    brief
      .replace(/^\uFEFF/, "")
      .replace(/\r\n?/g, "\n")
      .replace(/\t/g, "  ")
      // Control characters would survive into notes and labels; nothing in a brief needs them.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "")
  );
}

function classifyLine(raw: string): LineKind {
  const indent = raw.length - raw.trimStart().length;
  const line = raw.trim();
  if (line.length === 0) return { kind: "blank" };
  if (/^(?:-{3,}|\*{3,}|_{3,}|={3,})$/.test(line)) return { kind: "rule" };
  const heading = /^(#{1,6})\s+(.*?)\s*#*$/.exec(line);
  if (heading) return { kind: "heading", level: heading[1]?.length ?? 1, text: heading[2] ?? "" };
  const quote = /^>\s?(.*)$/.exec(line);
  if (quote) return { kind: "quote", text: quote[1] ?? "" };
  const part = /^(?:section|part|chapter|step|slide|act)\s+(?:\d{1,2}|[ivx]{1,5})\s*[:.)—–-]\s*(.+)$/i.exec(line);
  if (part) return { kind: "heading", level: 2, text: part[1] ?? "" };
  const meta = /^([A-Za-z][A-Za-z -]{1,20}?)\s*[:：]\s*(.+)$/.exec(line);
  if (meta && indent === 0) {
    const key = (meta[1] ?? "").toLowerCase();
    if (key in metaKeys) return { kind: "meta", key, value: meta[2] ?? "" };
  }
  const bullet = /^[-*•+▪◦·–—]\s+(.*)$/.exec(line);
  if (bullet) return { kind: "bullet", indent, text: bullet[1] ?? "" };
  const numbered = /^(?:\d{1,2}|[a-z])[.)]\s+(.*)$/.exec(line);
  if (numbered) return { kind: "numbered", indent, text: numbered[1] ?? "" };
  const bold = /^(?:\*\*|__)(.+?)(?:\*\*|__):?$/.exec(line);
  if (bold) return { kind: "heading", level: 2, text: bold[1] ?? "" };
  return { kind: "text", indent, text: line };
}

/**
 * Lines that only read as headings in context: a numbered item or plain line that owns the lines
 * under it ("1. Problem" followed by prose or bullets), a "Label:" line before a list, and a top-level
 * bullet with nested bullets.
 */
function findImplicitHeadings(kinds: LineKind[]): Set<number> {
  const headings = new Set<number>();
  const nextContent = (from: number): { index: number; line: LineKind; gap: boolean } | null => {
    let gap = false;
    for (let index = from + 1; index < kinds.length; index++) {
      const line = kinds[index];
      if (!line) break;
      if (line.kind === "blank") {
        gap = true;
        continue;
      }
      return { index, line, gap };
    }
    return null;
  };
  for (const [index, line] of kinds.entries()) {
    const next = nextContent(index);
    if (!next) continue;
    if (line.kind === "numbered" && line.indent === 0 && isHeadingLike(line.text)) {
      const owns =
        (next.line.kind === "bullet" && (next.line.indent > 0 || !next.gap)) ||
        (next.line.kind === "numbered" && next.line.indent > 0) ||
        (next.line.kind === "text" && next.line.indent === 0) ||
        next.line.kind === "quote";
      if (owns) headings.add(index);
    } else if (line.kind === "bullet" && line.indent === 0 && isHeadingLike(line.text)) {
      if ((next.line.kind === "bullet" || next.line.kind === "numbered") && next.line.indent > 0) headings.add(index);
    } else if (line.kind === "text" && line.indent === 0) {
      const previous = kinds[index - 1];
      const standsAlone = previous === undefined || previous.kind === "blank" || previous.kind === "heading";
      const introducesList = next.line.kind === "bullet" || next.line.kind === "numbered";
      if (standsAlone && introducesList && (/:$/.test(line.text) || isHeadingLike(line.text))) headings.add(index);
    }
  }
  return headings;
}

function isHeadingLike(text: string): boolean {
  const clean = cleanInline(text).replace(/:$/, "");
  return countWords(clean) <= 10 && !/[.!?]$/.test(clean);
}

function applyMeta(result: ParsedBrief, key: string, value: string, current: Draft | undefined): void {
  const clean = cleanInline(value);
  const role = metaKeys[key];
  if (role === "title") result.title ??= clean;
  else if (role === "subtitle") result.subtitle ??= clean;
  else if (role === "audience") result.audience ??= clean;
  else if (role === "kicker") result.kicker ??= clean;
  else if ((key === "notes" || key === "speaker notes") && current) current.notes.push(clean);
  else result.notes.push(`${capitalize(key)}: ${clean}`);
}

function addText(draft: Draft, raw: string, as: "point" | "paragraph"): void {
  const text = cleanInline(raw);
  if (!text) return;
  const notes = /^(?:speaker\s+)?notes?\s*:\s*(.+)$/i.exec(text);
  if (notes) {
    draft.notes.push(notes[1] ?? "");
    return;
  }
  const extracted = extractQuotes(text);
  draft.quotes.push(...extracted.quotes);
  if (extracted.rest) (as === "point" ? draft.points : draft.paragraphs).push(extracted.rest);
}

function finishSection(draft: Draft): BriefSection | null {
  const sentences = [...draft.paragraphs.flatMap(splitSentences), ...draft.points];
  const firstText = sentences[0] ?? draft.quotes[0]?.text;
  const heading = draft.heading ? cleanHeading(draft.heading) : firstText ? deriveHeading(firstText) : null;
  if (!heading) return null;
  const stats = dedupeStats(sentences.flatMap(extractStats)).slice(0, MAX_STATS_PER_SECTION);
  const section: BriefSection = {
    heading,
    points: draft.points,
    paragraphs: draft.paragraphs,
    stats,
    quotes: draft.quotes,
  };
  if (draft.notes.length > 0) section.notes = draft.notes.join("\n");
  if (draft.numbered && draft.points.length > 0) section.numbered = true;
  if (!draft.heading) implicitSections.add(section);
  return section;
}

// Essays split into a section per paragraph; past the limit neighbours are merged so the deck stays
// a deck, and every paragraph still reaches a slide or its notes.
function groupProse(drafts: Draft[]): Draft[] {
  if (drafts.length <= MAX_IMPLICIT_SECTIONS) return drafts;
  const size = Math.ceil(drafts.length / MAX_IMPLICIT_SECTIONS);
  const grouped: Draft[] = [];
  for (let start = 0; start < drafts.length; start += size) {
    const group = drafts.slice(start, start + size);
    grouped.push({
      heading: null,
      points: group.flatMap((draft) => draft.points),
      paragraphs: group.flatMap((draft) => draft.paragraphs),
      quotes: group.flatMap((draft) => draft.quotes),
      notes: group.flatMap((draft) => draft.notes),
      numbered: false,
    });
  }
  return grouped;
}

const askPattern =
  /^(?:please\s+)?(?:(?:can|could|would)\s+you\s+)?(?:(?:i|we)\s+(?:need|want|would like)\s+(?:you\s+to\s+)?)?(?:make|create|build|write|prepare|generate|draft|design|produce|put together|give me|need)\b[^.!?:]*?\b(?:deck|presentation|slides?|slideshow|slide deck|talk|pitch|webpage|web page|page|site|one-pager|keynote|overview)\b(?:\s+(?:about|on|for|covering|explaining|introducing|presenting|showing|that explains|to))?\s*/i;

/** The title when the brief gives none: the topic of an ask, else the first heading or sentence. */
function deriveTitle(result: ParsedBrief): void {
  const first = result.sections[0];
  if (!first) return;
  const firstParagraph = first.paragraphs[0];
  if (firstParagraph !== undefined && first.points.length + first.paragraphs.length > 0 && !isExplicit(first)) {
    const [sentence = "", ...rest] = splitSentences(firstParagraph);
    const ask = askPattern.exec(sentence);
    const topic = ask ? sentence.slice(ask[0].length) : sentence;
    const { title, remainder } = shortenTitle(topic || sentence);
    result.title = title;
    if (result.subtitle === null && remainder) result.subtitle = remainder;
    if (ask) result.notes.push(`Brief: ${sentence}`);
    // The sentence now lives on the cover; what remains of its paragraph stays in the section.
    first.paragraphs[0] = rest.join(" ");
    if (!first.paragraphs[0]) first.paragraphs.shift();
    rebuildSection(result, first);
    return;
  }
  result.title = shortenTitle(first.heading).title;
}

function dropAskSection(result: ParsedBrief): void {
  const first = result.sections[0];
  const paragraph = first?.paragraphs[0];
  if (!first || paragraph === undefined || isExplicit(first)) return;
  const [sentence = "", ...rest] = splitSentences(paragraph);
  if (!askPattern.test(sentence)) return;
  result.notes.push(`Brief: ${sentence}`);
  first.paragraphs[0] = rest.join(" ");
  if (!first.paragraphs[0]) first.paragraphs.shift();
  rebuildSection(result, first);
}

// Sections whose heading was derived from their own first sentence rather than written in the brief.
const implicitSections = new WeakSet<BriefSection>();

function isExplicit(section: BriefSection): boolean {
  return !implicitSections.has(section);
}

function rebuildSection(result: ParsedBrief, section: BriefSection): void {
  const index = result.sections.indexOf(section);
  const sentences = [...section.paragraphs.flatMap(splitSentences), ...section.points];
  const firstText = sentences[0] ?? section.quotes[0]?.text;
  if (!firstText && section.quotes.length === 0) {
    result.sections.splice(index, 1);
    return;
  }
  section.heading = deriveHeading(firstText ?? "");
  section.stats = dedupeStats(sentences.flatMap(extractStats)).slice(0, MAX_STATS_PER_SECTION);
}

// ---------------------------------------------------------------------------------------------
// Text helpers, shared with the generator.

const abbreviations =
  /(?:\b(?:e\.g|i\.e|etc|vs|mr|mrs|ms|dr|prof|inc|ltd|co|corp|st|no|approx|est|fig|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)|\b[A-Z])\.$/i;

export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  const pattern = /[.!?…]+["”’)]*\s+(?=["“‘(]?[A-Z0-9$€£¥¿¡"“])/g;
  let start = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const end = match.index + match[0].trimEnd().length;
    const candidate = text.slice(start, end);
    if (abbreviations.test(candidate)) continue;
    sentences.push(candidate.trim());
    start = match.index + match[0].length;
  }
  const last = text.slice(start).trim();
  if (last) sentences.push(last);
  return sentences.filter((sentence) => sentence.length > 0);
}

export function countWords(text: string): number {
  const words = text.trim().split(/\s+/);
  return words[0] === "" ? 0 : words.length;
}

const trailingFiller = new Set([
  "a",
  "an",
  "the",
  "and",
  "or",
  "but",
  "of",
  "to",
  "for",
  "with",
  "in",
  "on",
  "at",
  "by",
  "from",
  "our",
  "their",
  "its",
  "your",
  "that",
  "which",
  "who",
  "as",
  "is",
  "are",
  "was",
  "were",
  "be",
  "so",
  "than",
  "into",
  "over",
  "this",
  "these",
  "we",
  "it",
]);

type Boundary = "colon" | "dash" | "comma" | "conjunction" | "word";

// In order of preference: a colon or dash separates a topic from its detail better than a comma does.
const clauseBreaks: Array<{ boundary: Boundary; pattern: RegExp }> = [
  { boundary: "colon", pattern: /\s*[:;]\s+/g },
  { boundary: "dash", pattern: /\s+[—–-]\s+|\s*—\s*/g },
  { boundary: "comma", pattern: /,\s+/g },
  {
    boundary: "conjunction",
    pattern:
      /\s+(?:because|which|so that|while|whereas|although|but|when|since|after|before|by|through|via|with|for|and)\s+/gi,
  },
];

const phraseStarts =
  /^(?:in|of|for|to|with|by|on|at|from|and|that|which|who|into|over|under|across|during|after|before|because|while|than)$/i;

export type Shortened = { text: string; cut: boolean; rest: string; boundary: Boundary | null };

/**
 * Shortens text to at most `maxWords` words, preferring to cut at a clause boundary so the meaning
 * survives; `cut` says whether anything was dropped and `rest` holds what was.
 */
export function shortenText(
  text: string,
  maxWords: number,
  options: { ellipsis?: boolean; minWords?: number } = {},
): Shortened {
  const clean = text.replace(/\s+/g, " ").trim();
  if (countWords(clean) <= maxWords) return { text: clean, cut: false, rest: "", boundary: null };
  const minWords = options.minWords ?? Math.min(3, maxWords);
  for (const { boundary, pattern } of clauseBreaks) {
    pattern.lastIndex = 0;
    let best: { head: string; rest: string } | null = null;
    for (let match = pattern.exec(clean); match; match = pattern.exec(clean)) {
      const head = clean.slice(0, match.index);
      const words = countWords(head);
      if (words > maxWords) break;
      if (words >= minWords) best = { head, rest: clean.slice(match.index + match[0].length) };
    }
    if (best) {
      const head = trimTrailingFiller(best.head);
      if (countWords(head) >= minWords) return { text: head, cut: true, rest: best.rest.trim(), boundary };
    }
  }
  const words = clean.split(" ");
  // Cutting before a preposition keeps a whole phrase ("changed a lot", not "changed a lot in year").
  let cutAt = maxWords;
  for (let index = maxWords; index > minWords; index--) {
    if (phraseStarts.test(words[index] ?? "")) {
      cutAt = index;
      break;
    }
  }
  const head = trimTrailingFiller(words.slice(0, cutAt).join(" "));
  const rest = words.slice(countWords(head)).join(" ");
  return { text: options.ellipsis ? `${head}…` : head, cut: true, rest, boundary: "word" };
}

function trimTrailingFiller(text: string): string {
  const words = text.replace(/[\s,;:—–-]+$/, "").split(" ");
  while (words.length > 1 && trailingFiller.has((words[words.length - 1] ?? "").toLowerCase().replace(/[^\w]/g, ""))) {
    words.pop();
  }
  return words.join(" ").replace(/[\s,;:—–-]+$/, "");
}

/** A heading from a sentence: its gist in at most eight words, without closing punctuation. */
export function deriveHeading(sentence: string, maxWords = TITLE_WORDS): string {
  const clean = stripQuoteMarks(cleanInline(sentence)).replace(/[.!?…:;,]+$/, "");
  return capitalize(shortenText(clean, maxWords).text);
}

function shortenTitle(text: string): { title: string; remainder: string | null } {
  const clean = cleanInline(text).replace(/[.!?…]+$/, "");
  const shortened = shortenText(clean, TITLE_WORDS);
  // A cut at a colon or dash leaves a natural subtitle ("Q3 review: what we learned").
  const natural = shortened.boundary === "colon" || shortened.boundary === "dash";
  const remainder = natural && countWords(shortened.rest) <= 14 ? capitalize(shortened.rest) : null;
  return { title: capitalize(shortened.text), remainder };
}

function cleanHeading(text: string): string {
  const clean = cleanInline(text)
    .replace(/^(?:\d{1,2}|[ivx]{1,5})[.)]\s+/i, "")
    .replace(/[:.]$/, "")
    .trim();
  return capitalize(countWords(clean) > 12 ? shortenText(clean, 10).text : clean);
}

/** Strips inline Markdown so text reads as written, not as marked up. */
export function cleanInline(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, "$2")
    .replace(/(^|[\s(])[*_](?=\S)([^*_]+?)(?<=\S)[*_](?=$|[\s).,;:!?])/g, "$1$2")
    .replace(/`([^`]+)`/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

function stripQuoteMarks(text: string): string {
  const trimmed = text.trim();
  const match = /^["“„«‘']([\s\S]*)["”»’']$/.exec(trimmed);
  return (match ? (match[1] ?? "") : trimmed).trim();
}

// ---------------------------------------------------------------------------------------------
// Quotes.

const quotedSpan = /["“]([^"“”\n]{6,800}?)["”]/g;
const dashAttribution = /^\s*,?\s*(?:[—–~]|--|-)\s*([^\n]{2,140}?)\s*[.;]?\s*$/;
const saidAttribution =
  /^\s*,?\s*(?:said|says|wrote|writes|according to|notes|explained|told us)\s+([^\n]{2,140}?)\s*[.;]?\s*$/i;

function isAttributionLine(text: string): boolean {
  return /^(?:[—–~]|--)\s*\S/.test(text.trim());
}

/** Pulls attributed quotes (and stand-alone quoted sentences) out of a line of text. */
function extractQuotes(text: string): { quotes: BriefQuote[]; rest: string } {
  const quotes: BriefQuote[] = [];
  let rest = text;
  quotedSpan.lastIndex = 0;
  for (let match = quotedSpan.exec(text); match; match = quotedSpan.exec(text)) {
    const inner = (match[1] ?? "").trim();
    if (countWords(inner) < 3) continue;
    const before = text.slice(0, match.index).trim();
    const after = text.slice(match.index + match[0].length);
    const attributed = dashAttribution.exec(after) ?? saidAttribution.exec(after);
    const leadIn = /^(?:[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*){0,3})\s+(?:said|says|wrote|put it)[:,]?$/.exec(before);
    if (attributed && before.length === 0) {
      quotes.push({ text: inner, ...splitAttribution(attributed[1] ?? "") });
      rest = "";
      break;
    }
    if (attributed && countWords(before) <= 12) {
      quotes.push({ text: inner, ...splitAttribution(attributed[1] ?? "") });
      rest = before.replace(/[:,—–-]\s*$/, "").trim();
      break;
    }
    if (
      leadIn &&
      after
        .trim()
        .replace(/^[.,;]/, "")
        .trim().length === 0
    ) {
      quotes.push({ text: inner, by: before.replace(/\s+(?:said|says|wrote|put it)[:,]?$/, "") });
      rest = "";
      break;
    }
    if (
      before.length === 0 &&
      after
        .trim()
        .replace(/^[.,;]/, "")
        .trim().length === 0
    ) {
      quotes.push({ text: inner });
      rest = "";
      break;
    }
  }
  return { quotes, rest: countWords(rest) < 2 && quotes.length > 0 ? "" : rest };
}

function splitTrailingAttribution(text: string): { text: string; who: { by?: string; role?: string } } {
  const match = /^([\s\S]*?["”.!?])\s*(?:[—–~]|--)\s*([^—–"”]{2,140})$/.exec(text.trim());
  if (!match) return { text: text.trim(), who: {} };
  return { text: (match[1] ?? "").trim(), who: splitAttribution(match[2] ?? "") };
}

function splitAttribution(text: string): { by?: string; role?: string } {
  const clean = cleanInline(text).replace(/[.;]+$/, "");
  const comma = clean.indexOf(",");
  if (comma < 0) return clean ? { by: clean } : {};
  const by = clean.slice(0, comma).trim();
  const role = clean.slice(comma + 1).trim();
  return role ? { by, role } : { by };
}

// ---------------------------------------------------------------------------------------------
// Stats.

const numberPattern =
  /(?<![\w.$€£¥,])([$€£¥])?\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s?(%|percent\b|pp\b|percentage points\b|[x×](?![\w])|k\b|K\b|M\b|B\b|bn\b|m\b|million\b|billion\b|thousand\b|trillion\b))?/g;

const growthVerbs =
  /^(?:grew|grow|grows|rose|rise|rises|increased|increases|jumped|climbed|improved|doubled|tripled|expanded|gained|up)$/i;
const declineVerbs =
  /^(?:fell|falls|fall|dropped|drops|declined|declines|decreased|decreases|shrank|shrunk|contracted|slipped|down|cut|reduced|lowered)$/i;
const levelVerbs =
  /^(?:reached|reaches|hit|hits|totaled|totalled|totals|was|is|were|are|stood|stands|came|sits|of|at|to|equals|averaged|averages|:|=)$/i;
const comparatives =
  /^(?:faster|cheaper|more|less|fewer|better|higher|lower|bigger|smaller|quicker|larger|longer|shorter|greater|slower)$/i;
const labelStops = new Set([
  "to",
  "in",
  "by",
  "from",
  "than",
  "over",
  "since",
  "after",
  "and",
  "but",
  "while",
  "which",
  "who",
  "compared",
  "versus",
  "vs",
  "across",
  "during",
  "within",
  "because",
  "so",
  "as",
  "when",
  "with",
  "at",
  "on",
  "for",
  "this",
  "last",
  "year-over-year",
  "yoy",
  "per",
]);
const determiners = /^(?:our|the|a|an|its|their|your|my|his|her|total|overall|average)\s+/i;

type NumberMatch = { start: number; end: number; value: string; kind: "money" | "percent" | "multiple" | "count" };

/** Figures worth a Stat in one sentence, with a short label read from the words around them. */
export function extractStats(sentence: string): BriefStat[] {
  const matches = findNumbers(sentence);
  return matches.map((match) => ({
    value: match.value,
    label: labelStat(sentence, match, matches.length),
    source: sentence,
  }));
}

function findNumbers(sentence: string): NumberMatch[] {
  const found: NumberMatch[] = [];
  numberPattern.lastIndex = 0;
  for (let match = numberPattern.exec(sentence); match; match = numberPattern.exec(sentence)) {
    const [whole, currency, digits = "", decimals = "", rawUnit] = match;
    const end = match.index + whole.length;
    const next = sentence.slice(end, end + 2);
    if (!rawUnit && /^[A-Za-z]/.test(next)) continue;
    if (/^-[A-Za-z]/.test(next) && !currency && rawUnit !== "%") continue;
    const number = Number(digits.replace(/,/g, "") + decimals);
    const unit = normalizeUnit(rawUnit);
    const kind: NumberMatch["kind"] = currency
      ? "money"
      : unit === "%" || unit === " pp"
        ? "percent"
        : unit === "x"
          ? "multiple"
          : "count";
    if (kind === "count" && !unit) {
      const isYear = !digits.includes(",") && !decimals && number >= 1900 && number <= 2100;
      if (isYear) continue;
      const before = sentence.slice(0, match.index);
      const after = sentence.slice(end);
      const measuredNoun = /^\s+[a-z]/.test(after) && number >= 10;
      const statedLevel = /(?:[:=]|\b(?:is|was|of|at|reached|hit|to))\s*$/i.test(before) && number >= 10;
      if (!digits.includes(",") && number < 1000 && !decimals && !measuredNoun && !statedLevel) continue;
      if (number < 10 && !decimals) continue;
    }
    const value = `${currency ?? ""}${digits}${decimals}${unit}`;
    found.push({ start: match.index, end, value, kind });
  }
  return found;
}

function normalizeUnit(unit: string | undefined): string {
  if (!unit) return "";
  const lower = unit.toLowerCase();
  if (lower === "%" || lower === "percent") return "%";
  if (lower === "pp" || lower === "percentage points") return " pp";
  if (lower === "x" || lower === "×") return "x";
  if (lower === "k" || lower === "thousand") return "K";
  if (lower === "m" || lower === "million") return "M";
  if (lower === "b" || lower === "bn" || lower === "billion") return "B";
  if (lower === "trillion") return "T";
  return unit;
}

const pronouns = /^(?:we|they|i|you|he|she|it|us|our team|the team|the company)$/i;

function labelStat(sentence: string, match: NumberMatch, count: number): string {
  const before = sentence.slice(0, match.start);
  const after = sentence.slice(match.end);
  const afterWords = wordsUntilPunctuation(after);
  const beforeWords = wordsUntilPunctuation(before, true);

  const firstAfter = afterWords[0] ?? "";
  if (comparatives.test(firstAfter)) {
    const tail = takeLabelWords(afterWords.slice(1), 3);
    if (tail.length > 0) return tidyLabel([firstAfter, ...tail].join(" "));
    const subject = findSubject(beforeWords);
    if (!subject) return tidyLabel(firstAfter);
    // "Builds are 3x faster" → "Faster builds": the subject moves off the sentence start.
    const startsSentence = before.trimStart().startsWith(subject.text) && /^[A-Z][a-z]+\b/.test(subject.text);
    const text = startsSentence ? subject.text.charAt(0).toLowerCase() + subject.text.slice(1) : subject.text;
    return tidyLabel(`${firstAfter} ${text}`);
  }

  const verbIndex = findLastVerb(beforeWords);
  if (verbIndex >= 0) {
    const verb = beforeWords[verbIndex] ?? "";
    const subject = trimSubject(beforeWords.slice(Math.max(0, verbIndex - 4), verbIndex).join(" "));
    const between = beforeWords.slice(verbIndex + 1);
    const isTarget = /^to$/i.test(between[between.length - 1] ?? "") || levelVerbs.test(verb);
    if (subject && pronouns.test(subject)) {
      // "We cut costs by 30%": the object, not the pronoun, is what the number measures.
      const object = between.filter((word) => !/^(?:by|to|from|at|of)$/i.test(word));
      if (object.length > 0 && object.length <= 4) return tidyLabel(`${verb} ${object.join(" ")}`);
    } else if (subject) {
      if (isTarget || match.kind === "money") return tidyLabel(subject);
      if (growthVerbs.test(verb)) return tidyLabel(`${subject} growth`);
      if (declineVerbs.test(verb)) return tidyLabel(`${subject} decline`);
      return tidyLabel(subject);
    }
  }

  if (count === 1) {
    const residual = `${beforeWords.join(" ")} ${afterWords.join(" ")}`
      .replace(/^\s*(?:is|are|was|were|of|at|:)\s+/i, "")
      .trim();
    if (residual && countWords(residual) <= 5) return tidyLabel(residual);
  }

  const noun = takeLabelWords(afterWords, 5);
  if (noun.length > 0) return tidyLabel(noun.join(" "));

  const lead = /((?:[\w'’&/-]+\s+){0,3}[\w'’&/-]+)\s+(?:of|is|was|at|:|=)\s*$/i.exec(before);
  if (lead) return tidyLabel(trimSubject(lead[1] ?? ""));

  const fallback = shortenText(
    `${before} ${after}`
      .replace(/\s+/g, " ")
      .replace(/[.!?]$/, "")
      .trim(),
    5,
  ).text;
  return tidyLabel(fallback || "Key figure");
}

function wordsUntilPunctuation(text: string, fromEnd = false): string[] {
  const parts = text.split(/[.;:!?()[\]"“”]|,\s|\s[—–-]\s/);
  const chunk = (fromEnd ? parts[parts.length - 1] : parts[0]) ?? "";
  return chunk
    .trim()
    .split(/\s+/)
    .filter((word) => word.length > 0);
}

function findLastVerb(words: string[]): number {
  for (let index = words.length - 1; index >= 0; index--) {
    const word = words[index] ?? "";
    if (growthVerbs.test(word) || declineVerbs.test(word) || (levelVerbs.test(word) && !/^(?:of|at|to)$/i.test(word))) {
      return index;
    }
  }
  return -1;
}

function findSubject(words: string[]): { text: string } | null {
  const verbIndex = findLastVerb(words);
  const subjectWords = verbIndex >= 0 ? words.slice(Math.max(0, verbIndex - 3), verbIndex) : words.slice(-2);
  const text = trimSubject(subjectWords.join(" "));
  return text ? { text } : null;
}

function trimSubject(text: string): string {
  let subject = text.trim();
  const lastConnector = subject.search(
    /\b(?:and|but|while|that|which|so|because)\s+(?!.*\b(?:and|but|while|that|which|so|because)\b)/i,
  );
  if (lastConnector >= 0) subject = subject.slice(lastConnector).replace(/^\w+\s+/, "");
  while (determiners.test(subject)) subject = subject.replace(determiners, "");
  return subject.trim();
}

function takeLabelWords(words: string[], max: number): string[] {
  const taken: string[] = [];
  for (const word of words) {
    if (taken.length > 0 && labelStops.has(word.toLowerCase())) break;
    if (taken.length === 0 && labelStops.has(word.toLowerCase())) break;
    taken.push(word);
    if (taken.length >= max) break;
  }
  while (taken.length > 0 && trailingFiller.has((taken[taken.length - 1] ?? "").toLowerCase())) taken.pop();
  return taken;
}

function tidyLabel(text: string): string {
  const clean = text
    .replace(/^[\s,;:—–-]+|[\s,;:—–-]+$/g, "")
    .replace(/\s+/g, " ")
    .trim();
  // Labels read as captions; a leading capital is right whatever case the word had in the sentence.
  return capitalize(clean);
}

function dedupeStats(stats: BriefStat[]): BriefStat[] {
  const seen = new Set<string>();
  return stats.filter((stat) => {
    const key = `${stat.value}|${stat.label.toLowerCase()}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
