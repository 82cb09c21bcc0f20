import type { Element } from "@xmldom/xmldom";
import type { ChartData, ChartType } from "./model";
import { attr, descendants, kid, kids, nameOf, path } from "./xml";

// A chart part (c:chartSpace) read from the caches PowerPoint keeps beside the embedded workbook: series
// names, categories and values as last shown. The first plot of a kind the vocabulary draws wins; 3-D
// plots read as their flat kind; anything else (radar, stock, surface, bubble) is reported by the caller.

const plots: Record<string, (plot: Element) => ChartType> = {
  barChart: (plot) => (attr(kid(plot, "barDir"), "val") === "bar" ? "bar" : "column"),
  bar3DChart: (plot) => (attr(kid(plot, "barDir"), "val") === "bar" ? "bar" : "column"),
  lineChart: () => "line",
  line3DChart: () => "line",
  pieChart: () => "pie",
  pie3DChart: () => "pie",
  ofPieChart: () => "pie",
  doughnutChart: () => "doughnut",
  areaChart: () => "area",
  area3DChart: () => "area",
  scatterChart: () => "scatter",
};

export type ReadChart = { chart: ChartData | null; notes: string[] };

export function readChart(root: Element): ReadChart {
  const chartElement = kid(root, "chart");
  const plotArea = kid(chartElement, "plotArea");
  const notes: string[] = [];
  const found = kids(plotArea).filter((element) => nameOf(element).endsWith("Chart"));
  const plot = found.find((element) => plots[nameOf(element)]);
  if (!plot) {
    const kinds = found.map((element) => nameOf(element).replace(/Chart$/, "")).join(", ") || "no plot";
    return { chart: null, notes: [`a chart of a kind that is not drawn (${kinds})`] };
  }
  if (found.length > 1) notes.push("a combined chart, of which only its first plot is kept");
  if (nameOf(plot).includes("3D")) notes.push("a 3-D chart, drawn flat");
  const type = plots[nameOf(plot)]!(plot);
  const grouping = attr(kid(plot, "grouping"), "val");
  const series = kids(plot, "ser").map((ser, index) => {
    const name = texts(kid(ser, "tx")).join(" ") || `Series ${index + 1}`;
    if (type === "scatter") {
      return { name, values: numbers(kid(ser, "yVal")), x: numbers(kid(ser, "xVal")) };
    }
    return { name, values: numbers(kid(ser, "val")) };
  });
  const firstSeries = kid(plot, "ser");
  const categories = type === "scatter" ? [] : categoryLabels(kid(firstSeries, "cat"));
  const length = Math.max(0, ...series.map((s) => s.values.length));
  while (type !== "scatter" && categories.length < length) categories.push(String(categories.length + 1));
  const titleElement = kid(chartElement, "title");
  const title = descendants(titleElement, "t")
    .map((t) => t.textContent ?? "")
    .join("")
    .trim();
  return {
    chart: {
      type,
      ...(title ? { title } : {}),
      stacked: grouping === "stacked" || grouping === "percentStacked",
      categories,
      series,
    },
    notes,
  };
}

// The points of a string or number cache, in index order, with gaps where a point is missing.
function points(cache: Element | null): Array<string | null> {
  if (!cache) return [];
  const count = Number(attr(kid(cache, "ptCount"), "val") ?? 0);
  const out: Array<string | null> = [];
  for (const pt of kids(cache, "pt")) {
    const idx = Number(attr(pt, "idx"));
    if (!Number.isInteger(idx) || idx < 0 || idx > 100_000) continue;
    while (out.length < idx) out.push(null);
    out[idx] = kid(pt, "v")?.textContent ?? "";
  }
  while (out.length < Math.min(count, 100_000)) out.push(null);
  return out;
}

function cacheOf(element: Element | null): Element | null {
  if (!element) return null;
  return (
    path(element, "numRef", "numCache") ??
    path(element, "strRef", "strCache") ??
    kid(element, "numLit") ??
    kid(element, "strLit") ??
    null
  );
}

function numbers(element: Element | null): Array<number | null> {
  return points(cacheOf(element)).map((value) => {
    if (value === null || value.trim() === "") return null;
    const number = Number(value);
    return Number.isFinite(number) ? number : null;
  });
}

function texts(element: Element | null): string[] {
  if (!element) return [];
  const cache = cacheOf(element);
  if (cache) return points(cache).map((value) => value ?? "");
  const v = kid(element, "v");
  return v ? [v.textContent ?? ""] : [];
}

function categoryLabels(cat: Element | null): string[] {
  if (!cat) return [];
  const multi = path(cat, "multiLvlStrRef", "multiLvlStrCache");
  if (multi) {
    // The innermost level names each point; outer levels group them.
    return points(kid(multi, "lvl")).map((value, index) => value ?? String(index + 1));
  }
  return points(cacheOf(cat)).map((value, index) => value ?? String(index + 1));
}
