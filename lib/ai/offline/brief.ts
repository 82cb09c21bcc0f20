// A brief (prose, an outline, bullet lists, "Title:" lines, Markdown with # and ## headings) read into a
// cover and sections. The H1 or the "Title:" line makes the cover, each section heading a section; a brief
// without headings gets one section per paragraph, with what follows a paragraph (a list, a table, a
// quote) kept with it.

import type { Block } from "./blocks";
import type { FrontMatter } from "./split-slides";
import { capitalize, countWords, splitSentences, squash } from "./text";

export type Section = { heading: string | null; blocks: Block[] };
export type Brief = {
  title: string | null;
  subtitle: string | null;
  kicker: string | null;
  /** Who presents it ("Priya Raman, CEO"): on the cover. */
  byline: string | null;
  /** Brief text that shaped the deck without becoming a slide: the ask for the deck, its goal and tone. */
  notes: string[];
  sections: Section[];
};

const MAX_IMPLICIT_SECTIONS = 10;

const metaKeys: Record<string, "title" | "subtitle" | "kicker" | "byline" | "note"> = {
  title: "title",
  "deck title": "title",
  subtitle: "subtitle",
  tagline: "subtitle",
  audience: "kicker",
  for: "kicker",
  date: "kicker",
  event: "kicker",
  presenter: "byline",
  presenters: "byline",
  speaker: "byline",
  speakers: "byline",
  author: "byline",
  "presented by": "byline",
  goal: "note",
  goals: "note",
  purpose: "note",
  tone: "note",
  length: "note",
  duration: "note",
};

const askPattern =
  /^(?:please\s+)?(?:(?:can|could|would)\s+you\s+)?(?:(?:i|we)\s+(?:need|want|would like)\s+(?:you\s+to\s+)?)?(?:make|create|build|write|prepare|generate|draft|design|produce|put together|give me|need|want)?\s*(?:a|an|the|some)?\s*(?:short\s+|quick\s+|simple\s+)?(?:deck|presentation|slides?|slideshow|slide deck|talk|pitch|webpage|web page|keynote)\b\s*(?:(?:about|on|for|covering|explaining|introducing|presenting|showing|that explains|to)\s+)?/i;

export function readBrief(input: Block[], frontMatter: FrontMatter): Brief {
  const brief: Brief = { title: null, subtitle: null, kicker: null, byline: null, notes: [], sections: [] };
  applyFrontMatter(brief, frontMatter);
  const blocks = input.filter((block) => block.kind !== "yaml");

  const headings = blocks.filter((block) => block.kind === "heading");
  const firstContent = blocks.find((block) => block.kind !== "comment" && !isMetaParagraph(block));
  const top = headings[0];
  const metaTitle = blocks.some(
    (block) =>
      block.kind === "paragraph" && !block.html && block.lines.some((line) => readMeta(line)?.role === "title"),
  );
  const alone = top !== undefined && headings.filter((block) => block.depth <= top.depth).length === 1;
  if (
    top &&
    top === firstContent &&
    !brief.title &&
    !metaTitle &&
    alone &&
    (top.depth === 1 || headings.length === 1)
  ) {
    brief.title ??= cleanHeading(top.text);
    blocks.splice(blocks.indexOf(top), 1);
  }
  const depths = blocks.filter((block) => block.kind === "heading").map((block) => block.depth);
  const sectionDepth = depths.length > 0 ? Math.min(...depths) : null;

  const preamble: Block[] = [];
  let current: Section | null = null;
  for (const block of blocks) {
    if (block.kind === "heading" && block.depth === sectionDepth) {
      current = { heading: cleanHeading(block.text), blocks: [] };
      brief.sections.push(current);
    } else if (current) current.blocks.push(block);
    else preamble.push(block);
  }
  const implicit = readPreamble(brief, preamble, sectionDepth === null);
  brief.sections.unshift(...implicit);
  return brief;
}

function applyFrontMatter(brief: Brief, frontMatter: FrontMatter): void {
  const field = (key: string) => (typeof frontMatter[key] === "string" ? squash(frontMatter[key]) : null);
  brief.title = field("title");
  brief.subtitle = field("subtitle") ?? field("description");
  brief.kicker = field("date") ?? field("event");
  brief.byline = field("author") ?? field("presenter");
}

function isMetaParagraph(block: Block): boolean {
  return block.kind === "paragraph" && !block.html && block.lines.every((line) => readMeta(line) !== null);
}

function readMeta(
  line: string,
): { role: "title" | "subtitle" | "kicker" | "byline" | "note"; key: string; value: string } | null {
  const match = /^([A-Za-z][A-Za-z -]{1,20}?)\s*[:：]\s*(\S.*)$/.exec(line.trim());
  const key = match?.[1]?.toLowerCase() ?? "";
  const role = metaKeys[key];
  return role && match ? { role, key, value: squash(match[2] ?? "").replace(/\.$/, "") } : null;
}

/** Cover lines, the ask for the deck, and (in briefs without headings) the sections made of paragraphs. */
function readPreamble(brief: Brief, blocks: Block[], prose: boolean): Section[] {
  const sections: Section[] = [];
  let current: Section | null = null;
  let coverText = true;
  for (const block of blocks) {
    // Text from raw HTML is never a cover line or a heading line: it stays with the section it follows.
    if (block.kind === "paragraph" && !block.html) {
      const rest = takeCoverLines(brief, block.lines, coverText && sections.length === 0);
      if (rest.length === 0) continue;
      const textLeft = rest.join(" ");
      // A short line under the title is its subtitle, in an outline that has sections of its own.
      if (!prose && brief.title && !brief.subtitle && sections.length === 0 && countWords(textLeft) <= 25) {
        brief.subtitle = textLeft.replace(/\.$/, "");
        continue;
      }
      coverText = false;
      const paragraph: Block = {
        ...block,
        text: textLeft,
        lines: rest,
        runs: rest.length === block.lines.length ? block.runs : [textLeft],
      };
      const headingLine = asHeadingLine(paragraph);
      if (headingLine) {
        current = { heading: headingLine, blocks: [] };
        sections.push(current);
        continue;
      }
      if (!current || current.blocks.some((inner) => inner.kind !== "comment") || !prose) {
        current = { heading: null, blocks: [] };
        sections.push(current);
      }
      current.blocks.push(paragraph);
      continue;
    }
    if (block.kind === "comment") {
      (current?.blocks ?? []).push(block);
      continue;
    }
    coverText = false;
    if (!current) {
      current = { heading: null, blocks: [] };
      sections.push(current);
    }
    current.blocks.push(block);
  }
  return groupSections(sections);
}

/** Takes "Title:"-style lines and the ask for the deck out of the opening text; returns what is left. */
function takeCoverLines(brief: Brief, lines: string[], opening: boolean): string[] {
  const rest: string[] = [];
  for (const line of lines) {
    const sentences = splitSentences(line);
    const kept: string[] = [];
    for (const sentence of sentences) {
      const meta = readMeta(sentence);
      if (meta && opening) {
        if (meta.role === "title") brief.title ??= meta.value;
        else if (meta.role === "subtitle") brief.subtitle ??= meta.value;
        else if (meta.role === "kicker")
          brief.kicker ??= meta.key === "audience" || meta.key === "for" ? `For ${meta.value}` : meta.value;
        else if (meta.role === "byline") brief.byline ??= meta.value;
        else brief.notes.push(`${capitalize(meta.key)}: ${meta.value}.`);
        continue;
      }
      const ask = opening && kept.length === 0 ? askPattern.exec(sentence) : null;
      if (ask && ask[0].trim().length > 0 && /deck|presentation|slides?|talk|pitch|keynote|page/i.test(ask[0])) {
        const topic = squash(sentence.slice(ask[0].length)).replace(/[.!?]$/, "");
        // A short ask names the deck; a long one is the content itself ("Pitch X: the problem, …").
        if (topic && countWords(topic) <= 12) {
          brief.notes.push(sentence);
          if (!brief.title) brief.title = capitalize(topic);
          else brief.kicker ??= capitalize(topic);
          continue;
        }
        kept.push(sentence);
        continue;
      }
      kept.push(sentence);
    }
    if (kept.length > 0) rest.push(kept.join(" "));
  }
  return rest;
}

/** "**Problem**" or "Risks:" on a line of its own heads what follows. */
function asHeadingLine(block: Block): string | null {
  if (block.kind !== "paragraph" || block.lines.length !== 1) return null;
  const strong = block.runs.length === 1 && typeof block.runs[0] !== "string" && block.runs[0]?.tag === "strong";
  const colon = /:$/.test(block.text) && countWords(block.text) <= 6;
  return (strong && countWords(block.text) <= 8) || colon ? cleanHeading(block.text) : null;
}

function cleanHeading(text: string): string {
  return capitalize(
    squash(text)
      .replace(/^(?:\d{1,2}|[ivx]{1,5})[.)]\s+/i, "")
      .replace(/^(?:section|part|chapter|slide)\s+\d{1,2}\s*[:.—–-]\s*/i, "")
      .replace(/[:.]$/, ""),
  );
}

// Essays split into a section per paragraph; past the limit neighbours are merged so the deck stays a
// deck, and every paragraph still reaches a slide or its notes.
function groupSections(sections: Section[]): Section[] {
  if (sections.length <= MAX_IMPLICIT_SECTIONS) return sections;
  const size = Math.ceil(sections.length / MAX_IMPLICIT_SECTIONS);
  const grouped: Section[] = [];
  for (let start = 0; start < sections.length; start += size) {
    const group = sections.slice(start, start + size);
    grouped.push({ heading: group[0]?.heading ?? null, blocks: group.flatMap((section) => section.blocks) });
  }
  return grouped;
}
