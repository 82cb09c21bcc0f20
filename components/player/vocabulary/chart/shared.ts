// What the chart's plots share: the data shapes, the plot's measured size and its label fonts, value
// formatting, tick and label helpers.

import { formatValue } from "@/components/player/vocabulary/tone";

// Past six series the colours repeat; more than that is not a chart a slide can carry anyway.
export const maxSeries = 6;
// A pie shows at most six slices: the largest five and "Other".
export const maxSlices = 6;

/** A bar, point or slice; its paths say where its label and value are written (see editable below). */
export type ChartPoint = { label: string; value: number; labelPath?: string; valuePath?: string };

export type ChartSeries = { name: string; values: number[] };

/** Several series over shared category labels; a value that is not a number is a gap (null). */
export type MultiData = {
  labels: string[];
  series: Array<{ name: string; values: (number | null)[] }>;
  /**
   * Where the texts are written: how many labels, whether series N is the prop's item N (no item was
   * skipped), and which series have a name written (not "Series N").
   */
  written: { labels: number; aligned: boolean; names: boolean[] };
};

// The editor's preview edits these texts in place (components/player/shell/edit-mode.ts): a text drawn
// from the chart's data says where in the props it is written (`data.2.label`, `series.0.values.3`) and,
// when it shows it formatted or shortened, the value as written.
export function editable(path: string | undefined, raw: string | number) {
  return path ? { "data-dh-edit": path, "data-dh-raw": String(raw) } : {};
}

/** The plot box in canvas pixels and the label size the stylesheet gives it (see .dh-chart-plot). */
export type Size = { width: number; height: number; text: number };

// What the plot is drawn for before it has been measured (server render, first frame): a full-width
// chart on a content slide. The viewBox scales it to the real box until the measurement lands.
export const fallbackSize: Size = { width: 1200, height: 560, text: 24 };

// Chart type follows the label size the stylesheet sets on the plot (24px on a slide, smaller in a
// webpage beat), so it tracks --type-base. Estimating text width from the font size is enough to
// reserve margins and shorten labels; the browser does the exact layout.
export function fontsFor(text: number) {
  return { label: text, value: text * 1.08, tick: text * 0.92, legend: text * 1.08, centre: text * 2.6 };
}

type Fonts = ReturnType<typeof fontsFor>;

export const charWidth = 0.56;

// Digits are wider than average letters, and tabular figures all take the widest digit's space.
export const digitWidth = 0.62;

export function numberOf(value: unknown): number | null {
  const number = typeof value === "number" ? value : typeof value === "string" ? Number.parseFloat(value) : NaN;
  return Number.isFinite(number) ? number : null;
}

export function labelPaths(data: MultiData): (string | undefined)[] {
  return data.labels.map((_, index) => (index < data.written.labels ? `labels.${index}` : undefined));
}

/** Where series `series`'s value `index` is written, while every series is written at its own index. */
export function seriesPath(data: MultiData, series: number, index: number): string | undefined {
  return data.written.aligned ? `series.${series}.values.${index}` : undefined;
}

export function formatSeriesValue(value: number | null | undefined, unit: unknown): string {
  return value === null || value === undefined ? "no value" : formatValue(value, unit);
}

export type PlotOptions = { unit: unknown; highlight: string | undefined; showValues: boolean };

export type PlotProps = { points: ChartPoint[]; size: Size; options: PlotOptions };

// Value labels keep their unit when every label fits its band; otherwise they drop a word unit (the
// axis still shows the scale) and, if even the bare numbers collide, only the highlight is labelled.
export function valueLabeller(values: number[], unit: unknown, band: number, font: Fonts) {
  const widest = (format: (value: number) => string) =>
    Math.max(...values.map((value) => format(value).length)) * font.value * digitWidth;
  const full = (value: number) => formatValue(value, unit);
  if (widest(full) <= band - 4) return { format: full, fits: true };
  const short = (value: number) => formatValue(value, unit, { axis: true });
  return { format: short, fits: widest(short) <= band - 4 };
}

export type MultiPlotProps = { data: MultiData; size: Size; options: PlotOptions };

// With a highlighted slice the others step through tints of one colour by distance from it, so the
// highlight is the only saturated contrast on the chart.
export function shadeIndex(index: number, highlightIndex: number): number {
  if (index === highlightIndex) return 0;
  const order = index < highlightIndex ? index : index - 1;
  return Math.min(order, maxSlices - 2);
}

/** Round tick values (1, 2, 2.5, 5 × 10^n steps) covering [low, high], about `count` intervals. */
export function niceTicks(low: number, high: number, count: number): number[] {
  if (low === high) high = low === 0 ? 1 : low + Math.abs(low) * 0.5;
  const rough = (high - low) / count;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 2.5, 5, 10].find((factor) => factor * magnitude >= rough) ?? 10) * magnitude;
  const start = Math.floor(low / step) * step;
  const end = Math.ceil(high / step) * step;
  const ticks: number[] = [];
  for (let value = start; value <= end + step / 2; value += step) ticks.push(Number(value.toPrecision(12)));
  return ticks;
}

export function fitText(text: string, width: number, fontSize: number): string {
  const max = Math.floor(width / (fontSize * charWidth));
  if (text.length <= max) return text;
  if (max <= 1) return "…";
  return `${text.slice(0, max - 1).trimEnd()}…`;
}
