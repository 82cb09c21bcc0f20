// Shapes of content a brief section can have, each read from its blocks and sentences: a dated list or
// dated sentences (→ Timeline), a numbered procedure (→ Steps), "X vs Y" (→ a comparison), a table with
// numbers the brief asks to chart (→ Chart), a quote inside a sentence (→ Quote), a series after a colon
// (→ a grid of cards). Each returns null when the section does not have that shape.

import type { Block, Item } from "./blocks";
import { splitAttribution } from "./blocks";
import { capitalize, countWords, findDate, leadingDate, shorten, splitSentences, splitSeries, squash } from "./text";

export type Milestone = { date: string; title: string; detail?: string };

/** A list whose items start with dates ("July 8: onboarding redesign shipped"). */
export function datedList(block: Block): Milestone[] | null {
  if (block.kind !== "list" || block.items.length < 2) return null;
  const read = block.items.map((item) => leadingDate(item.text));
  if (read.filter(Boolean).length < Math.max(2, Math.ceil((block.items.length * 2) / 3))) return null;
  if (read.some((entry) => entry === null)) return null;
  return read.map((entry) => milestone(entry?.date ?? "", entry?.rest ?? ""));
}

/** Three or more sentences that each carry a date: phases of a plan, told in prose. */
export function datedSentences(sentences: string[]): { milestones: Milestone[]; others: string[] } | null {
  const milestones: Milestone[] = [];
  const others: string[] = [];
  for (const sentence of sentences) {
    const found = findDate(sentence);
    if (!found) {
      others.push(sentence);
      continue;
    }
    const before = sentence.slice(0, found.start);
    const after = sentence.slice(found.end);
    // "In the private beta from March to April we onboard…": the phase is what the sentence opens with.
    const opener = /^(?:in|during|at|for)\s+(?:the\s+)?(.+?)\s*$/i.exec(before.trim());
    const subject = opener
      ? opener[1]
      : before
          .trim()
          .replace(/\s+(?:follows|starts|begins|comes|lands|ships|launches|happens|is|are|will\s+\w+)$/i, "");
    const title = squash(subject ?? "");
    const detail = squash(after)
      .replace(/^[,;:]\s*/, "")
      .replace(/[.!?]$/, "");
    if (!title || countWords(title) > 6) {
      milestones.push(milestone(found.date, squash(`${before} ${after}`).replace(/[.!?]$/, "")));
    } else
      milestones.push({
        date: found.date,
        title: capitalize(title),
        ...(detail ? { detail: capitalize(detail) } : {}),
      });
  }
  return milestones.length >= 3 && milestones.length >= others.length ? { milestones, others } : null;
}

function milestone(date: string, text: string): Milestone {
  const clean = squash(text).replace(/[.!?]$/, "");
  const split = /^(.{3,60}?)(?:\s+[—–-]\s+|:\s+|;\s+)(.+)$/.exec(clean);
  if (split) return { date, title: capitalize(split[1] ?? ""), detail: capitalize(split[2] ?? "") };
  if (countWords(clean) <= 7) return { date, title: capitalize(clean) };
  return { date, title: capitalize(shorten(clean, 6)), detail: capitalize(clean) };
}

export type Step = { title: string; detail?: string };

/** A numbered list of three to six steps. */
export function procedure(block: Block): Step[] | null {
  if (block.kind !== "list" || !block.ordered || block.items.length < 3 || block.items.length > 6) return null;
  return block.items.map((item: Item) => {
    const clean = squash(item.text).replace(/[.!?]$/, "");
    const split = /^(.{2,50}?)(?:\s+[—–-]\s+|:\s+)(.+)$/.exec(clean);
    if (split) return { title: capitalize(split[1] ?? ""), detail: capitalize(split[2] ?? "") };
    const detail = item.children.join("; ");
    return detail ? { title: capitalize(clean), detail: capitalize(detail) } : { title: capitalize(clean) };
  });
}

export type Side = { name: string; points: string[] };

/** "Build vs buy": the two sides, each from a "Build: …" line, a sub-heading with its list, or a list item. */
export function comparison(heading: string | null, blocks: Block[]): { sides: [Side, Side]; rest: string[] } | null {
  const names = /^(?:.*?\b)?([\w' -]{2,40}?)\s+(?:vs\.?|versus)\s+([\w' -]{2,40}?)(?:\s+(?:for|of|in|on)\b.*)?$/i.exec(
    heading ?? "",
  );
  if (!names) return null;
  const wanted = [names[1] ?? "", names[2] ?? ""].map((name) => name.trim().split(/\s+/).at(-1)?.toLowerCase() ?? "");
  const sides: Array<Side | null> = [null, null];
  const rest: string[] = [];
  const lines = blocks.flatMap((block) =>
    block.kind === "paragraph" ? block.lines : block.kind === "list" ? block.items.map((item) => item.text) : [],
  );
  for (const line of lines) {
    const match = /^([\w' -]{2,40}?)\s*[:—–]\s+(.+)$/.exec(line);
    const index = match ? wanted.indexOf((match[1] ?? "").trim().toLowerCase().split(/\s+/).at(-1) ?? "") : -1;
    if (match && index >= 0 && !sides[index]) {
      const body = (match[2] ?? "").replace(/[.]$/, "");
      const points = splitSeries(body) ?? [capitalize(body)];
      sides[index] = { name: capitalize((match[1] ?? "").trim()), points };
    } else rest.push(...splitSentences(line));
  }
  const [a, b] = sides;
  return a && b ? { sides: [a, b], rest } : null;
}

/** "Show this as a chart: every region grew" — the request, and the takeaway after it. */
export function chartRequest(sentence: string): { takeaway: string | null } | null {
  if (!/\b(?:chart|graph|plot|trend|visuali[sz]e)\b/i.test(sentence)) return null;
  const instruction =
    /^(?:please\s+)?(?:show|present|display|draw|plot|render|make|turn|use|put|visuali[sz]e)\b[^:]*?(?::\s*(.+))?$/i.exec(
      sentence,
    );
  if (!instruction) return { takeaway: null };
  const takeaway = squash(instruction[1] ?? "").replace(/[.!]$/, "");
  return { takeaway: takeaway ? capitalize(takeaway) : null };
}

/** A table whose columns after the first hold numbers: the chart's labels and series. */
export function chartData(
  columns: string[],
  rows: string[][],
): { labels: string[]; series: Array<{ name: string; values: number[] }>; unit: string | undefined } | null {
  if (columns.length < 2 || rows.length < 2 || rows.length > 12) return null;
  const parsed = rows.map((row) => row.slice(1).map(readNumber));
  if (parsed.some((row) => row.some((value) => value === null))) return null;
  const units = new Set(rows.flatMap((row) => row.slice(1).map(unitOf)));
  const unit = units.size === 1 ? [...units][0] || undefined : undefined;
  return {
    labels: rows.map((row) => row[0] ?? ""),
    series: columns.slice(1).map((name, index) => ({ name, values: parsed.map((row) => row[index] ?? 0) })),
    unit,
  };
}

function readNumber(cell: string): number | null {
  const match = /^\s*[-+]?[$€£¥]?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(%|[KMB]|bn|k|x)?\s*$/.exec(cell);
  return match
    ? Number(`${(match[1] ?? "").replace(/,/g, "")}${match[2] ?? ""}`) * (/^\s*-/.test(cell) ? -1 : 1)
    : null;
}

function unitOf(cell: string): string {
  const currency = /[$€£¥]/.exec(cell)?.[0] ?? "";
  const suffix = /(%|[KMB]|bn|k|x)\s*$/.exec(cell)?.[1] ?? "";
  return suffix ? (suffix === "%" || suffix === "x" ? suffix : `${currency}${suffix}`) : currency;
}

/** A quotation inside prose: "As X put it, “…”" or "“…” — X, Role". */
export function inlineQuote(
  paragraph: string,
): { text: string; by: string | null; role: string | null; rest: string } | null {
  const match = /["“]([^"“”]{12,600}?)["”]/.exec(paragraph);
  if (!match || countWords(match[1] ?? "") < 4) return null;
  const before = paragraph.slice(0, match.index);
  const after = paragraph.slice(match.index + match[0].length);
  let who: string | null = null;
  let restBefore = before;
  const leadIn =
    /(?:^|[.!?]\s+)(?:as\s+)?([^.!?"“]{3,80}?)\s+(?:put it|said|says|wrote|told us|puts it)[,:]?\s*$/i.exec(before);
  if (leadIn) {
    who = leadIn[1] ?? null;
    restBefore = before.slice(0, leadIn.index);
  }
  let restAfter = after;
  const trailing = /^\s*[,]?\s*(?:[—–~]|--)\s*([^.!?]{2,120})[.]?/.exec(after);
  if (!who && trailing) {
    who = trailing[1] ?? null;
    restAfter = after.slice(trailing[0].length);
  }
  if (!who && squash(before + after).length > 0) return null;
  const person = who ? readPerson(who) : { by: null, role: null };
  return {
    text: squash(match[1] ?? ""),
    ...person,
    rest: squash(`${restBefore} ${restAfter}`).replace(/^[.,;]\s*/, ""),
  };
}

function readPerson(who: string): { by: string | null; role: string | null } {
  const clean = squash(who).replace(/^(?:our|the|a|an|one)\s+/i, "");
  const at = /^(.+?)\s+(?:at|from|of)\s+(.+)$/.exec(clean);
  if (at && !clean.includes(",")) return { by: capitalize(at[1] ?? ""), role: at[2] ?? null };
  return splitAttribution(clean);
}
