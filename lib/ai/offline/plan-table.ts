// A brief section with tables: a slide per table, with a Chart beside it when the brief asks for one and
// the columns after the first hold numbers ("Show this as a chart: every region grew" also gives the
// heading its takeaway). The section's prose is the caption when it is short; the notes tell the table
// row by row.

import type { Block } from "./blocks";
import { columns, joinNotes, table, text } from "./nodes";
import { el, type ElementNode, type SlidePlan } from "./print";
import { chartData } from "./shapes";
import { countWords } from "./text";

export type TableSection = {
  tables: Array<Extract<Block, { kind: "table" }>>;
  /** The section's sentences without the chart request. */
  sentences: string[];
  chartAsked: boolean;
  takeaway: string | null;
  comments: string[];
  label: () => string;
  headingNode: (lead?: string | null) => ElementNode;
};

export function planTables(section: TableSection): SlidePlan[] {
  const { sentences, takeaway, headingNode } = section;
  return section.tables.map((block) => {
    const data = section.chartAsked ? chartData(block.columns, block.rows) : null;
    const visual = table(block);
    const chart = data
      ? el("Chart", [
          ["type", "bar"],
          ["labels", data.labels],
          ["series", data.series],
          ["unit", data.unit],
        ])
      : null;
    const caption = takeaway ? null : sentences.join(" ");
    const described = block.rows.map(
      (row) =>
        `${row[0] ?? ""}: ${block.columns
          .slice(1)
          .map((column, index) => `${column} ${row[index + 1] ?? ""}`)
          .join(", ")}.`,
    );
    return {
      label: section.label(),
      notes: joinNotes([
        takeaway ? `${takeaway}.` : null,
        sentences.join(" "),
        described.join(" "),
        ...section.comments,
      ]),
      children: [
        headingNode(takeaway),
        chart ? columns([visual, chart], "1:1", "center") : visual,
        ...(caption && countWords(caption) <= 25 ? [text(caption, { size: "sm", tone: "muted" })] : []),
      ],
    };
  });
}
