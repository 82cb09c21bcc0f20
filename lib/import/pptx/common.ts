import { type ElementNode, el, type SlidePlan } from "@/lib/ai/offline/print";
import type { ChartData, ImportWarning, Paragraph, PptxDeck, Shape, Tile } from "./model";

// What both import modes (faithful.ts, restyle.ts) make the same way: the deck's title (and a cover when no
// slide is shown), warnings said once, a shape's plain text, the key of a picture as shown, and tables and
// charts as the vocabulary's Table and Chart.

/** The stored image that stands for each picture as shown (pictureKey), by part name and crop. */
export type PictureUrls = Map<string, string>;

export function pictureKey(
  media: string,
  crop?: { left: number; top: number; right: number; bottom: number },
  tile?: Tile,
): string {
  const cropped = crop ? `${media}#${crop.left},${crop.top},${crop.right},${crop.bottom}` : media;
  return tile ? `${cropped}#tile:${tile.scaleX},${tile.scaleY},${tile.width}x${tile.height}` : cropped;
}

/**
 * The deck's title: the one asked for, the presentation's own, its first named slide's, or "Imported deck".
 * A deck has at least one slide: a presentation with none shown (a template of layouts) gets a cover.
 */
export function titleAndCover(
  asked: string | undefined,
  deck: PptxDeck,
  plans: SlidePlan[],
  warnings: ImportWarning[],
): string {
  const title = (
    asked?.trim() ||
    deck.title ||
    plans.find((plan) => !/^Slide \d+$/.test(plan.label))?.label ||
    "Imported deck"
  ).slice(0, 300);
  if (plans.length === 0) {
    warnings.push({ slide: 0, message: "the presentation has no slides to show; a cover with its title is made" });
    plans.push({ label: "Cover", notes: "", layout: "center", children: [el("Title", [], title)] });
  }
  return title;
}

export function dedupe(warnings: ImportWarning[]): ImportWarning[] {
  const seen = new Set<string>();
  return warnings.filter((warning) => {
    const key = `${warning.slide}\n${warning.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function flatten(shapes: Shape[]): Shape[] {
  return shapes.flatMap((shape) => (shape.kind === "group" ? flatten(shape.children) : [shape]));
}

export const plain = (paragraph: Paragraph) =>
  paragraph.runs
    .map((run) => run.text)
    .join("")
    .replace(/\s*\n\s*/g, " ")
    .trim();

export function shapeText(shape: Shape): string {
  return shape.kind === "text" ? shape.paragraphs.map(plain).filter(Boolean).join(" ") : "";
}

export function tableElement(shape: Extract<Shape, { kind: "table" }>, warn: (message: string) => void): ElementNode {
  const cellText = (paragraphs: Paragraph[]) => paragraphs.map(plain).filter(Boolean).join(" ");
  if (shape.rows.some((row) => row.some((cell) => cell.merged || cell.colSpan > 1 || cell.rowSpan > 1))) {
    warn(`the merged cells of "${shape.name}" are split (the text stays in the first cell)`);
  }
  const width = Math.max(0, ...shape.rows.map((row) => row.length));
  const rows = shape.rows.map((row) => {
    const cells = row.map((cell) => (cell.merged ? "" : cellText(cell.paragraphs)));
    while (cells.length < width) cells.push("");
    return cells;
  });
  if (!shape.headerRow) warn(`the table "${shape.name}" has no header row; its first row is used as one`);
  const [columns = [], ...body] = rows;
  return el("Table", [
    ["columns", columns],
    ["rows", body],
  ]);
}

export function chartElement(chart: ChartData, warn: (message: string) => void): ElementNode {
  const type =
    chart.type === "line" || chart.type === "area" || chart.type === "scatter"
      ? "line"
      : chart.type === "pie" || chart.type === "doughnut"
        ? "pie"
        : "bar";
  if (chart.type === "area" || chart.type === "doughnut" || chart.type === "scatter" || chart.type === "bar") {
    const as = {
      area: "a line chart",
      doughnut: "a pie chart",
      scatter: "a line chart over its x values",
      bar: "vertical bars",
    }[chart.type];
    warn(`a ${chart.type === "bar" ? "horizontal bar" : chart.type} chart drawn as ${as}`);
  }
  const labels =
    chart.type === "scatter"
      ? (chart.series[0]?.x ?? []).map((x, index) => (x === null ? String(index + 1) : String(x)))
      : chart.categories;
  if (chart.series.some((series) => series.values.some((value) => value === null))) {
    warn("a chart's missing values are drawn as 0");
  }
  const values = (series: ChartData["series"][number]) => series.values.map((value) => value ?? 0);
  const title: Array<[string, string]> = chart.title ? [["title", chart.title]] : [];
  if (chart.series.length === 1) {
    const only = chart.series[0]!;
    return el("Chart", [
      ["type", type],
      ...title,
      ["data", labels.map((label, index) => ({ label, value: only.values[index] ?? 0 }))],
    ]);
  }
  if (type === "pie" && chart.series.length > 1) warn("a pie chart of several series shows its first");
  return el("Chart", [
    ["type", type],
    ...title,
    ["labels", labels],
    ["series", chart.series.map((series) => ({ name: series.name, values: values(series) }))],
    ["stacked", chart.stacked && type === "bar" ? true : undefined],
  ]);
}
