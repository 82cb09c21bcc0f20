// Plain-text helpers of the offline generator: sentences, words, shortening to a word budget, labels and
// dates. Everything here works on text already taken out of Markdown (see blocks.ts), never on markup.

import { capitalize } from "@/lib/contract/text";

export { capitalize };

const abbreviations =
  /(?:\b(?:e\.g|i\.e|etc|vs|mr|mrs|ms|dr|prof|inc|ltd|co|corp|st|no|approx|est|fig|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)|\b[A-Z])\.$/i;

/** Sentences of a text, keeping abbreviations ("e.g.", "Dr.") and decimals inside their sentence. */
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

/** Collapses white space (line breaks included) to single spaces. */
export function squash(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

const trailingFiller =
  /^(?:a|an|the|and|or|but|of|to|for|with|in|on|at|by|from|about|our|their|its|your|that|which|who|as|is|are|was|were|be|so|than|into|over|this|these|we|it)$/i;
const phraseStart =
  /^(?:in|of|for|to|with|by|on|at|from|about|and|that|which|who|into|over|under|across|during|after|before|because|while|than|so|but)$/i;

function trimFiller(text: string): string {
  const words = text.replace(/[\s,;:—–-]+$/, "").split(" ");
  while (words.length > 1 && trailingFiller.test((words.at(-1) ?? "").replace(/[^\w]/g, ""))) words.pop();
  return words.join(" ").replace(/[\s,;:—–-]+$/, "");
}

/**
 * At most `maxWords` words of `text`: whole when it fits, else cut at the last clause break (colon, dash,
 * comma) that keeps enough words, else before a preposition so a phrase stays whole.
 */
export function shorten(text: string, maxWords: number, options: { ellipsis?: boolean } = {}): string {
  const clean = squash(text);
  if (countWords(clean) <= maxWords) return clean;
  const minWords = Math.max(2, Math.ceil(maxWords / 2));
  for (const pattern of [/\s*[:;]\s+/g, /\s+[—–]\s+|\s+-\s+/g, /,\s+/g]) {
    let best: string | null = null;
    for (let match = pattern.exec(clean); match; match = pattern.exec(clean)) {
      const head = clean.slice(0, match.index);
      const words = countWords(head);
      if (words > maxWords) break;
      if (words >= minWords) best = head;
    }
    if (best) return trimFiller(best) + (options.ellipsis ? "…" : "");
  }
  const words = clean.split(" ");
  let cut = maxWords;
  for (let index = maxWords; index > minWords; index--) {
    if (phraseStart.test(words[index] ?? "")) {
      cut = index;
      break;
    }
  }
  return trimFiller(words.slice(0, cut).join(" ")) + (options.ellipsis ? "…" : "");
}

/** Whole sentences up to `maxWords`; a first sentence longer than that is shortened with an ellipsis. */
export function leadSentences(text: string, maxWords: number): string {
  const kept: string[] = [];
  let words = 0;
  for (const sentence of splitSentences(text)) {
    const count = countWords(sentence);
    if (words + count > maxWords) break;
    kept.push(sentence);
    words += count;
  }
  return kept.length > 0 ? kept.join(" ") : shorten(text, maxWords, { ellipsis: true });
}

/** A sentence for speaker notes: trimmed, capitalised, ending in punctuation. */
export function asSentence(text: string): string {
  const clean = squash(text);
  if (!clean) return "";
  return capitalize(/[.!?…:"”)]$/.test(clean) ? clean : `${clean}.`);
}

const urlPattern = /\b(?:https?:\/\/|www\.)\S+/gi;

/** A slide label: short, without URLs, markup characters or closing punctuation. */
export function labelText(text: string, maxWords = 6): string {
  const clean = squash(text.replace(urlPattern, " ").replace(/[<>|{}`*_#]/g, " "))
    .replace(/^[\s"“'‘(]+|[\s"”'’).!?:;,]+$/g, "")
    .trim();
  const words = clean.split(" ");
  if (words.length <= maxWords) return capitalize(clean);
  // Cut before a preposition when one is near ("Build vs buy for the data warehouse" → "Build vs buy").
  for (let index = maxWords; index >= 2; index--) {
    if (phraseStart.test(words[index] ?? "")) return capitalize(trimFiller(words.slice(0, index).join(" ")));
  }
  return capitalize(shorten(clean, maxWords));
}

export function stripQuoteMarks(text: string): string {
  const trimmed = text.trim();
  const match = /^["“„«‘']([\s\S]*?)["”»’']([.!?]?)$/.exec(trimmed);
  return match ? `${match[1] ?? ""}${match[2] ?? ""}`.trim() : trimmed;
}

/** "A, B, and C" or "A, B and C" as its items, or null when the text is not such a list. */
export function splitSeries(text: string): string[] | null {
  const clean = squash(text).replace(/[.;]$/, "");
  const parts = clean.split(/,\s+(?:and\s+|or\s+)?|\s+and\s+(?=[^,]*$)/);
  if (parts.length < 2 || parts.some((part) => countWords(part) === 0 || countWords(part) > 14)) return null;
  return parts.map((part) => capitalize(part.trim()));
}

// ---------------------------------------------------------------------------------------------
// Dates: enough to recognise a dated milestone ("July 8", "Q3 2025", "March to April", "2024-05-01").

const month =
  "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";
const singleDate = `(?:${month}(?:\\s+\\d{1,2}(?:st|nd|rd|th)?)?(?:,?\\s+\\d{4})?|\\d{1,2}\\s+${month}(?:\\s+\\d{4})?|[QH][1-4](?:\\s+\\d{4}|\\s*'\\d{2})?|(?:19|20)\\d{2}(?:-\\d{2}(?:-\\d{2})?)?|week\\s+\\d{1,2})`;
const dateRange = `${singleDate}(?:\\s*(?:[-–—]|to|until|through)\\s*${singleDate})?`;

/** A list item that starts with a date: "July 8: shipped", "Q3 2025 — beta". */
export function leadingDate(text: string): { date: string; rest: string } | null {
  const match = new RegExp(`^(${dateRange})\\s*(?::|[-–—]|\\))\\s*(\\S.*)$`, "i").exec(squash(text));
  if (!match) return null;
  return { date: capitalize(tidyRange(match[1] ?? "")), rest: capitalize(match[2] ?? "") };
}

/** A date phrase inside a sentence ("from March to April", "in May"), with where it sits. */
export function findDate(text: string): { date: string; start: number; end: number } | null {
  const match = new RegExp(`\\b(?:(?:from|in|on|by|during|until|since)\\s+)?(${dateRange})\\b`, "i").exec(text);
  if (!match) return null;
  return { date: capitalize(tidyRange(match[1] ?? "")), start: match.index, end: match.index + match[0].length };
}

function tidyRange(date: string): string {
  return squash(date).replace(/\s+(?:to|until|through)\s+|\s*[–—]\s*|\s+-\s+/i, "–");
}
