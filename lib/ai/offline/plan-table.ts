// A brief section with tables: a slide per table, with a Chart beside it when the brief asks for one and
// the columns after the first hold numbers ("Show this as a chart: every region grew" also gives the
// heading its takeaway). Each table takes the lists, code, formulas, images and quotes that follow it
// (those before the first table go with the first): one list, image or short code block is shown beside
// a table that leaves room for it; anything more goes on a slide of its own after the table, laid out as
// text (plan-text.ts). The section's prose is the caption when it is short; the notes tell the table row
// by row.

import type { Block } from "./blocks";
import {
  BODY_WORDS,
  BULLET_WORDS,
  bullets,
  columns,
  describeTable,
  itemText,
  joinNotes,
  MAX_BULLETS,
  notesOf,
  table,
  text,
} from "./nodes";
import { planText, visualNodes } from "./plan-text";
import { el, type ElementNode, type SlidePlan } from "./print";
import { chartData } from "./shapes";
import { countWords } from "./text";

type TableBlock = Extract<Block, { kind: "table" }>;

export type TableSection = {
  /** The section's blocks (its paragraphs are read as `sentences`). */
  content: Block[];
  /** The section's sentences without the chart request. */
  sentences: string[];
  chartAsked: boolean;
  takeaway: string | null;
  comments: string[];
  topic: string;
  label: () => string;
  headingNode: (lead?: string | null) => ElementNode;
};

// A table leaves room beside it up to this size; code beside it must be this short and narrow.
const ROOM = { columns: 4, rows: 8, codeLines: 10, codeWidth: 48 };

export function planTables(section: TableSection): SlidePlan[] {
  const { sentences, takeaway, headingNode } = section;
  return groupByTable(section.content).flatMap(({ block, extras }) => {
    const data = section.chartAsked ? chartData(block.columns, block.rows) : null;
    const chart = data
      ? el("Chart", [
          ["type", "bar"],
          ["labels", data.labels],
          ["series", data.series],
          ["unit", data.unit],
        ])
      : null;
    const aside = chart ? null : besideTable(block, extras);
    const visual = chart
      ? columns([table(block), chart], "1:1", "center")
      : aside
        ? columns([table(block), aside.node], aside.node.tag === "Image" ? "1:1" : "3:2", "center")
        : table(block);
    // The caption shows when it is short and, with bullets beside the table, the body stays within budget.
    const caption = takeaway ? "" : sentences.join(" ");
    const showCaption = caption && countWords(caption) <= 25 && countWords(caption) + (aside?.words ?? 0) <= BODY_WORDS;
    const label = section.label();
    const plan: SlidePlan = {
      label,
      notes: joinNotes([
        takeaway ? `${takeaway}.` : null,
        sentences.join(" "),
        describeTable(block),
        aside ? notesOf(extras) : null,
        ...section.comments,
      ]),
      children: [headingNode(takeaway), visual, ...(showCaption ? [text(caption, { size: "sm", tone: "muted" })] : [])],
    };
    if (aside || extras.length === 0) return [plan];
    // What does not fit beside the table follows it, on slides that continue this one.
    const more = planText({
      content: extras,
      sentences: [],
      metrics: [],
      quotes: extras.filter((extra) => extra.kind === "quote"),
      topic: section.topic,
      label: () => label,
      notes: notesOf(extras),
      headingNode,
      explicit: true,
      continued: true,
    });
    return [plan, ...more];
  });
}

const shownWithTables = new Set<Block["kind"]>(["list", "code", "math", "image", "callout", "quote"]);

/** Each table with what follows it up to the next table; what comes before the first table goes with it. */
function groupByTable(blocks: Block[]): Array<{ block: TableBlock; extras: Block[] }> {
  const groups: Array<{ block: TableBlock; extras: Block[] }> = [];
  const before: Block[] = [];
  for (const block of blocks) {
    if (block.kind === "table") groups.push({ block, extras: groups.length === 0 ? before : [] });
    else if (shownWithTables.has(block.kind)) (groups.at(-1)?.extras ?? before).push(block);
  }
  return groups;
}

/** The one list, image or short code block that fits beside a table, with the body words it adds. */
function besideTable(block: TableBlock, extras: Block[]): { node: ElementNode; words: number } | null {
  const [extra] = extras;
  if (!extra || extras.length > 1) return null;
  if (block.columns.length > ROOM.columns || block.rows.length > ROOM.rows) return null;
  if (extra.kind === "list" && extra.items.length <= MAX_BULLETS) {
    const items = extra.items.map(itemText);
    const words = items.reduce((sum, item) => sum + Math.min(countWords(item), BULLET_WORDS), 0);
    return { node: bullets(items, { numbered: extra.ordered, shorten: true }), words };
  }
  const lines = extra.kind === "code" ? extra.code.replace(/\n+$/, "").split("\n") : [];
  const short =
    extra.kind === "image" ||
    (extra.kind === "code" && lines.length <= ROOM.codeLines && lines.every((line) => line.length <= ROOM.codeWidth));
  const [node] = short ? visualNodes([extra]) : [];
  return node ? { node, words: 0 } : null;
}
