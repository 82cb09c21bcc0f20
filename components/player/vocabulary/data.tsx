"use client";

// Data components: big numbers, tables and charts (one series, or several with a legend). Charts are plain SVG laid out in
// canvas pixels: the plot measures its box so labels keep a fixed, readable size (≥ 22px) whatever
// width a column gives it, instead of shrinking with a scaled viewBox.

import { isValidElement, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from "react";
import { formatValue, oneOf, optionalOneOf, textOf, typographicMinus } from "@/components/player/vocabulary/tone";
import { aligns, chartTypes, statTones, type Align, type ChartType, type StatTone } from "@/lib/contract/vocabulary";

type StatProps = {
  value: string;
  label: string;
  detail?: string;
  tone?: StatTone;
  align?: Align;
};

export function Stat({ value, label, detail, tone, align }: StatProps) {
  const valueText = textOf(value);
  const labelText = textOf(label);
  const detailText = textOf(detail);
  if (!valueText && !labelText) return null;
  return (
    <div className="dh-stat" data-tone={oneOf(tone, statTones, "primary")} data-align={optionalOneOf(align, aligns)}>
      {valueText ? <p className="dh-stat-value">{typographicMinus(valueText)}</p> : null}
      {labelText ? (
        <p className="dh-stat-label" dir="auto">
          {labelText}
        </p>
      ) : null}
      {detailText ? (
        <p className="dh-stat-detail" dir="auto">
          {detailText}
        </p>
      ) : null}
    </div>
  );
}

type Cell = string | number | ReactNode;

type TableProps = {
  columns: Cell[];
  rows: Cell[][];
  highlight?: number;
  striped?: boolean;
};

// "42%", "$1.2M", "-3", "1,204", "2.5x": right-aligned like numbers so their digits line up.
const numericCell = /^[-+−]?\s*(?:[$€£¥₹]|US\$)?\s*\d[\d,.\s]*(?:%|x|×|k|m|bn|b|pp|[a-z]{0,3})?$/i;

// A cell's content: its text, or JSX for inline markup (<strong>, <code>, <Link>); anything else is empty.
function cellOf(cell: unknown): string | ReactNode {
  return isValidElement(cell) ? cell : (textOf(cell) ?? "");
}

export function Table({ columns, rows, highlight, striped }: TableProps) {
  const header = Array.isArray(columns) ? columns.map(cellOf) : [];
  const body = Array.isArray(rows)
    ? (rows as unknown[]).filter((row): row is unknown[] => Array.isArray(row)).map((row) => row.map(cellOf))
    : [];
  // Ragged rows are padded (or the header widened) so every row has the same cells.
  const width = Math.max(header.length, ...body.map((row) => row.length));
  if (width === 0) return null;
  const pad = (row: ReactNode[]) => Array.from({ length: width }, (_, index) => row[index] ?? "");
  const numeric = Array.from({ length: width }, (_, column) => {
    const cells = body.map((row) => row[column] ?? "").filter((cell) => typeof cell !== "string" || cell.trim() !== "");
    return (
      column > 0 && cells.length > 0 && cells.every((cell) => typeof cell === "string" && numericCell.test(cell.trim()))
    );
  });
  const highlighted = typeof highlight === "number" && Number.isInteger(highlight) ? highlight : -1;

  return (
    <table className="dh-table" data-striped={striped === false ? undefined : ""}>
      {header.length > 0 ? (
        <thead>
          <tr className="dh-table-head">
            {pad(header).map((cell, index) => (
              <th
                className="dh-table-cell"
                dir="auto"
                key={index}
                scope="col"
                data-numeric={numeric[index] ? "" : undefined}
              >
                {cell}
              </th>
            ))}
          </tr>
        </thead>
      ) : null}
      <tbody>
        {body.map((row, rowIndex) => (
          <tr className="dh-table-row" key={rowIndex} data-highlight={rowIndex === highlighted ? "" : undefined}>
            {pad(row).map((cell, index) => (
              <td className="dh-table-cell" dir="auto" key={index} data-numeric={numeric[index] ? "" : undefined}>
                {numeric[index] && typeof cell === "string" ? typographicMinus(cell) : cell}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A bar, point or slice; its paths say where its label and value are written (see editable below). */
type ChartPoint = { label: string; value: number; labelPath?: string; valuePath?: string };

type ChartSeries = { name: string; values: number[] };

type ChartProps = {
  type: ChartType;
  data?: ChartPoint[];
  labels?: string[];
  series?: ChartSeries[];
  stacked?: boolean;
  unit?: string;
  highlight?: string;
  showValues?: boolean;
  title?: string;
};

/** Several series over shared category labels; a value that is not a number is a gap (null). */
type MultiData = {
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
function editable(path: string | undefined, raw: string | number) {
  return path ? { "data-dh-edit": path, "data-dh-raw": String(raw) } : {};
}

/** The plot box in canvas pixels and the label size the stylesheet gives it (see .dh-chart-plot). */
type Size = { width: number; height: number; text: number };

// What the plot is drawn for before it has been measured (server render, first frame): a full-width
// chart on a content slide. The viewBox scales it to the real box until the measurement lands.
const fallbackSize: Size = { width: 1200, height: 560, text: 24 };

// Chart type follows the label size the stylesheet sets on the plot (24px on a slide, smaller in a
// webpage beat), so it tracks --type-base. Estimating text width from the font size is enough to
// reserve margins and shorten labels; the browser does the exact layout.
function fontsFor(text: number) {
  return { label: text, value: text * 1.08, tick: text * 0.92, legend: text * 1.08, centre: text * 2.6 };
}
type Fonts = ReturnType<typeof fontsFor>;
const charWidth = 0.56;
// Digits are wider than average letters, and tabular figures all take the widest digit's space.
const digitWidth = 0.62;

export function Chart({ type, data, labels, series, stacked, unit, highlight, showValues, title }: ChartProps) {
  const kind = oneOf(type, chartTypes, "bar");
  // `series` (with `labels`) makes a multi-series chart; a pie draws the first series. Without it,
  // `data` is the one series, exactly as before.
  const multi = chartSeries(labels, series);
  const points = multi && kind === "pie" ? pointsOfFirstSeries(multi) : chartPoints(data);
  const several = multi !== null && kind !== "pie";
  const isStacked = several && kind === "bar" && stacked === true;
  const titleText = textOf(title);
  const highlightLabel = textOf(highlight);
  const [ref, measured] = useBoxSize<HTMLDivElement>();
  const size = measured ?? fallbackSize;
  const options: PlotOptions = { unit, highlight: highlightLabel, showValues: showValues !== false };
  const summary = several
    ? multi.series
        .map(
          (line) =>
            `${line.name}: ${multi.labels
              .map((label, index) => `${label} ${formatSeriesValue(line.values[index], unit)}`)
              .join(", ")}`,
        )
        .join("; ")
    : points.map((point) => `${point.label}: ${formatValue(point.value, unit)}`).join(", ");

  let plot: ReactNode;
  if (several && kind === "bar") plot = <MultiBarPlot data={multi} size={size} options={options} stacked={isStacked} />;
  else if (several) plot = <MultiLinePlot data={multi} size={size} options={options} />;
  else if (points.length === 0) plot = <EmptyPlot size={size} />;
  else if (kind === "bar") plot = <BarPlot points={points} size={size} options={options} />;
  else if (kind === "line") plot = <LinePlot points={points} size={size} options={options} />;
  else plot = <PiePlot points={points} size={size} options={options} />;

  // What the PPTX export needs to rebuild the chart as a native one, as the viewer draws it: the data as
  // charted (a pie's merged slices), read by components/player/export/extract-slides.ts. Not drawn.
  const spec: ChartSpec | undefined = several
    ? {
        type: kind,
        stacked: isStacked,
        labels: multi.labels,
        series: multi.series,
        format: formatsOf(unit),
        highlight: -1,
        showValues: options.showValues,
      }
    : points.length > 0
      ? chartSpecOf(
          kind,
          kind === "pie" ? pieSlices(points) : points,
          titleText,
          unit,
          highlightLabel,
          options.showValues,
        )
      : undefined;

  return (
    <figure
      className="dh-chart"
      data-type={kind}
      data-stacked={isStacked ? "" : undefined}
      data-chart={spec ? JSON.stringify(spec) : undefined}
    >
      {titleText ? (
        <figcaption className="dh-chart-title" dir="auto">
          {titleText}
        </figcaption>
      ) : null}
      {several ? (
        <ul className="dh-chart-legend-list">
          {multi.series.map((line, index) => (
            <li className="dh-chart-legend-item" key={index}>
              <span className="dh-chart-key" data-series={index % maxSeries} aria-hidden="true" />
              <span
                className="dh-chart-legend-name"
                dir="auto"
                {...editable(multi.written.names[index] ? `series.${index}.name` : undefined, line.name)}
              >
                {line.name}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="dh-chart-plot" ref={ref}>
        <svg
          className="dh-chart-svg"
          viewBox={`0 0 ${size.width} ${size.height}`}
          role="img"
          aria-label={[titleText, summary || "No data"].filter(Boolean).join(". ")}
        >
          {plot}
        </svg>
      </div>
    </figure>
  );
}

/** The chart's data for the PPTX export (see extract-slides.ts); `highlight` is a category index or -1. */
type ChartSpec = {
  type: ChartType;
  stacked: boolean;
  labels: string[];
  series: Array<{ name: string; values: (number | null)[] }>;
  /** What goes before and after the digits of a value label and of an axis tick. */
  format: { value: [string, string]; axis: [string, string] };
  highlight: number;
  showValues: boolean;
};

function formatsOf(unit: unknown): ChartSpec["format"] {
  const around = (text: string): [string, string] => {
    const at = text.indexOf("1");
    return [text.slice(0, at), text.slice(at + 1)];
  };
  return { value: around(formatValue(1, unit)), axis: around(formatValue(1, unit, { axis: true })) };
}

function chartSpecOf(
  type: ChartType,
  points: ChartPoint[],
  title: string | undefined,
  unit: unknown,
  highlight: string | undefined,
  showValues: boolean,
): ChartSpec {
  return {
    type,
    stacked: false,
    labels: points.map((point) => point.label),
    series: [{ name: title ?? "Value", values: points.map((point) => point.value) }],
    format: formatsOf(unit),
    highlight: highlight === undefined ? -1 : points.findIndex((point) => point.label === highlight),
    showValues,
  };
}

/** The value scale and plot rectangle of a bar or line plot, for the PPTX export (not drawn). */
function frameData(frame: ReturnType<typeof cartesianFrame>): string {
  const { ticks, plot, min, max } = frame;
  const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : max - min;
  return JSON.stringify({ min, max, step, ...plot });
}

function chartPoints(data: unknown): ChartPoint[] {
  if (!Array.isArray(data)) return [];
  return data.flatMap((entry, index): ChartPoint[] => {
    if (typeof entry !== "object" || entry === null) return [];
    const { label, value } = entry as { label?: unknown; value?: unknown };
    const number = typeof value === "number" ? value : typeof value === "string" ? Number.parseFloat(value) : NaN;
    if (!Number.isFinite(number)) return [];
    const text = textOf(label);
    return [
      {
        label: text ?? "",
        value: number,
        labelPath: text === undefined ? undefined : `data.${index}.label`,
        valuePath: `data.${index}.value`,
      },
    ];
  });
}

// Past six series the colours repeat; more than that is not a chart a slide can carry anyway.
const maxSeries = 6;

function chartSeries(labels: unknown, series: unknown): MultiData | null {
  if (!Array.isArray(series)) return null;
  const lines = series.flatMap((entry, index): Array<MultiData["series"][number] & { named: boolean }> => {
    if (typeof entry !== "object" || entry === null) return [];
    const { name, values } = entry as { name?: unknown; values?: unknown };
    if (!Array.isArray(values)) return [];
    return [
      { name: textOf(name) ?? `Series ${index + 1}`, values: values.map(numberOf), named: textOf(name) !== undefined },
    ];
  });
  if (lines.length === 0) return null;
  const given = Array.isArray(labels) ? labels.map((label) => textOf(label) ?? "") : [];
  // As many categories as the longest series; missing labels are blank, missing values are gaps.
  const count = Math.max(given.length, ...lines.map((line) => line.values.length));
  if (count === 0 || lines.every((line) => line.values.every((value) => value === null))) return null;
  return {
    labels: Array.from({ length: count }, (_, index) => given[index] ?? ""),
    series: lines.map((line) => ({
      name: line.name,
      values: Array.from({ length: count }, (_, index) => line.values[index] ?? null),
    })),
    written: {
      labels: given.length,
      aligned: lines.length === series.length,
      names: lines.map((line) => line.named && lines.length === series.length),
    },
  };
}

function numberOf(value: unknown): number | null {
  const number = typeof value === "number" ? value : typeof value === "string" ? Number.parseFloat(value) : NaN;
  return Number.isFinite(number) ? number : null;
}

function pointsOfFirstSeries(data: MultiData): ChartPoint[] {
  const first = data.series[0];
  if (!first) return [];
  return data.labels.flatMap((label, index) => {
    const value = first.values[index];
    if (value === null || value === undefined) return [];
    return [
      {
        label,
        value,
        labelPath: index < data.written.labels ? `labels.${index}` : undefined,
        valuePath: seriesPath(data, 0, index),
      },
    ];
  });
}

function labelPaths(data: MultiData): (string | undefined)[] {
  return data.labels.map((_, index) => (index < data.written.labels ? `labels.${index}` : undefined));
}

/** Where series `series`'s value `index` is written, while every series is written at its own index. */
function seriesPath(data: MultiData, series: number, index: number): string | undefined {
  return data.written.aligned ? `series.${series}.values.${index}` : undefined;
}

function formatSeriesValue(value: number | null | undefined, unit: unknown): string {
  return value === null || value === undefined ? "no value" : formatValue(value, unit);
}

// The plot is absolutely positioned inside its box (see .dh-chart-plot), so drawing at the measured
// size can never change that size and feed back into the observer.
function useBoxSize<T extends HTMLElement>(): [RefObject<T | null>, Size | null] {
  const ref = useRef<T>(null);
  const [size, setSize] = useState<Size | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const width = Math.round(element.clientWidth);
      const height = Math.round(element.clientHeight);
      // A hidden slide (display: none) measures 0; keep the last good size until it is shown.
      if (width === 0 || height === 0) return;
      const text = Number.parseFloat(getComputedStyle(element).fontSize) || fallbackSize.text;
      setSize((previous) =>
        previous && previous.width === width && previous.height === height && previous.text === text
          ? previous
          : { width, height, text },
      );
    };
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, size];
}

type PlotOptions = { unit: unknown; highlight: string | undefined; showValues: boolean };
type PlotProps = { points: ChartPoint[]; size: Size; options: PlotOptions };

function EmptyPlot({ size }: { size: Size }) {
  const font = fontsFor(size.text);
  return (
    <g>
      <rect className="dh-chart-empty" x={1} y={1} width={size.width - 2} height={size.height - 2} rx={12} />
      <text
        className="dh-chart-note"
        x={size.width / 2}
        y={size.height / 2}
        textAnchor="middle"
        dominantBaseline="middle"
        fontSize={font.label}
      >
        No data to chart
      </text>
    </g>
  );
}

/** Frame shared by bar and line charts: value scale, ticks and the plot rectangle inside the margins. */
function cartesianFrame(
  values: number[],
  count: number,
  size: Size,
  options: PlotOptions,
  fromZero: boolean,
  right = 12,
) {
  const font = fontsFor(size.text);
  let low = Math.min(...values);
  const high = Math.max(...values, 0);
  // Bars always stand on zero. A line starts at zero too unless its values sit far above it; then a
  // nice minimum below the data keeps the shape visible instead of a flat line at the top.
  if (fromZero || low <= 0 || low < high * 0.5) low = Math.min(0, low);
  else low -= (high - low) * 0.15;
  const ticks = niceTicks(low, high, 4);
  const min = ticks[0] ?? low;
  const max = ticks[ticks.length - 1] ?? high;
  const tickTexts = ticks.map((tick) => formatValue(tick, options.unit, { compact: true, axis: true }));
  const left = Math.ceil(Math.max(...tickTexts.map((text) => text.length)) * font.tick * digitWidth) + font.tick;
  const top = options.showValues ? font.value * 2.1 : font.tick;
  const bottom = font.label * 2.2;
  const plot = {
    left,
    top,
    width: Math.max(size.width - left - right, 40),
    height: Math.max(size.height - top - bottom, 40),
  };
  const y = (value: number) => plot.top + plot.height * (1 - (value - min) / (max - min || 1));
  const band = plot.width / Math.max(count, 1);
  const x = (index: number) => plot.left + band * (index + 0.5);
  return { ticks, tickTexts, plot, y, x, band, min, max, font };
}

function Axes({ frame, size }: { frame: ReturnType<typeof cartesianFrame>; size: Size }) {
  const { ticks, tickTexts, plot, y, font } = frame;
  return (
    <g className="dh-chart-axes" data-frame={frameData(frame)}>
      {ticks.map((tick, index) => (
        <g key={index}>
          <line
            className={tick === 0 ? "dh-chart-baseline" : "dh-chart-grid"}
            x1={plot.left}
            x2={size.width - 4}
            y1={y(tick)}
            y2={y(tick)}
          />
          <text
            className="dh-chart-tick"
            x={plot.left - font.tick * 0.7}
            y={y(tick)}
            textAnchor="end"
            dominantBaseline="middle"
            fontSize={font.tick}
          >
            {tickTexts[index]}
          </text>
        </g>
      ))}
    </g>
  );
}

function CategoryLabels({
  labels,
  paths,
  frame,
}: {
  labels: string[];
  /** Where each label is written, when it is. */
  paths: (string | undefined)[];
  frame: ReturnType<typeof cartesianFrame>;
}) {
  const { band, plot, x, font } = frame;
  const longest = Math.max(...labels.map((label) => label.length), 1);
  // Crowded axes label every n-th category instead of overprinting.
  const every = Math.max(1, Math.ceil((Math.min(longest, 6) * font.label * charWidth + 12) / band));
  return (
    <g>
      {labels.map((label, index) =>
        index % every === 0 ? (
          <text
            key={index}
            className="dh-chart-label"
            x={x(index)}
            y={plot.top + plot.height + font.label * 1.55}
            textAnchor="middle"
            fontSize={font.label}
            {...editable(paths[index], label)}
          >
            {fitText(label, band * every - 12, font.label)}
          </text>
        ) : null,
      )}
    </g>
  );
}

function BarPlot({ points, size, options }: PlotProps) {
  const frame = cartesianFrame(
    points.map((point) => point.value),
    points.length,
    size,
    options,
    true,
  );
  const { band, y, x, font } = frame;
  const barWidth = Math.min(band * 0.62, 180);
  const valueText = valueLabeller(
    points.map((point) => point.value),
    options.unit,
    band,
    font,
  );
  return (
    <g>
      <Axes frame={frame} size={size} />
      {points.map((point, index) => {
        const isHighlight = point.label === options.highlight;
        const top = y(Math.max(point.value, 0));
        const bottom = y(Math.min(point.value, 0));
        const showValue = options.showValues && (valueText.fits || isHighlight);
        return (
          <g key={index}>
            <path
              className="dh-chart-bar"
              data-highlight={isHighlight ? "" : undefined}
              d={barPath(x(index) - barWidth / 2, top, barWidth, bottom - top, point.value >= 0)}
            />
            {showValue ? (
              <text
                className="dh-chart-value"
                data-highlight={isHighlight ? "" : undefined}
                x={x(index)}
                y={point.value >= 0 ? top - font.value * 0.55 : bottom + font.value * 1.25}
                textAnchor="middle"
                fontSize={font.value}
                {...editable(point.valuePath, point.value)}
              >
                {valueText.format(point.value)}
              </text>
            ) : null}
          </g>
        );
      })}
      <line className="dh-chart-baseline" x1={frame.plot.left} x2={size.width - 4} y1={y(0)} y2={y(0)} />
      <CategoryLabels
        labels={points.map((point) => point.label)}
        paths={points.map((point) => point.labelPath)}
        frame={frame}
      />
    </g>
  );
}

// Value labels keep their unit when every label fits its band; otherwise they drop a word unit (the
// axis still shows the scale) and, if even the bare numbers collide, only the highlight is labelled.
function valueLabeller(values: number[], unit: unknown, band: number, font: Fonts) {
  const widest = (format: (value: number) => string) =>
    Math.max(...values.map((value) => format(value).length)) * font.value * digitWidth;
  const full = (value: number) => formatValue(value, unit);
  if (widest(full) <= band - 4) return { format: full, fits: true };
  const short = (value: number) => formatValue(value, unit, { axis: true });
  return { format: short, fits: widest(short) <= band - 4 };
}

// Only the end away from the baseline is rounded, so bars still stand on the axis.
function barPath(x: number, y: number, width: number, height: number, up: boolean): string {
  const r = Math.max(0, Math.min(8, width / 4, height));
  if (up) {
    return `M${x},${y + height}V${y + r}Q${x},${y} ${x + r},${y}H${x + width - r}Q${x + width},${y} ${x + width},${y + r}V${y + height}Z`;
  }
  return `M${x},${y}V${y + height - r}Q${x},${y + height} ${x + r},${y + height}H${x + width - r}Q${x + width},${y + height} ${x + width},${y + height - r}V${y}Z`;
}

function LinePlot({ points, size, options }: PlotProps) {
  const frame = cartesianFrame(
    points.map((point) => point.value),
    points.length,
    size,
    options,
    false,
  );
  const { x, y, plot, band, min, font } = frame;
  const coordinates = points.map((point, index) => [x(index), y(point.value)] as const);
  const line = coordinates.map(([px, py], index) => `${index === 0 ? "M" : "L"}${px},${py}`).join("");
  const floor = y(min >= 0 ? min : 0);
  const first = coordinates[0];
  const last = coordinates[coordinates.length - 1];
  const area = first && last ? `${line}L${last[0]},${floor}L${first[0]},${floor}Z` : "";
  const valueText = valueLabeller(
    points.map((point) => point.value),
    options.unit,
    band,
    font,
  );
  return (
    <g>
      <Axes frame={frame} size={size} />
      <path className="dh-chart-area" d={area} />
      <path className="dh-chart-line" d={line} />
      {points.map((point, index) => {
        const isHighlight = point.label === options.highlight;
        const [px, py] = coordinates[index] ?? [0, 0];
        const showValue = options.showValues && (valueText.fits || isHighlight);
        // Labels sit above a point unless it is a dip (both neighbours higher), where the line would
        // run through them; a dip too close to the axis labels keeps its label above anyway.
        const next = coordinates[index + 1];
        const previous = coordinates[index - 1];
        const dip = next !== undefined && previous !== undefined && next[1] < py - 8 && previous[1] < py - 8;
        const below = dip && py + font.value * 1.7 < plot.top + plot.height - 4;
        return (
          <g key={index}>
            <circle
              className="dh-chart-point"
              data-highlight={isHighlight ? "" : undefined}
              cx={px}
              cy={py}
              r={(isHighlight ? 0.5 : 0.34) * font.label}
            />
            {showValue ? (
              <text
                className="dh-chart-value"
                data-highlight={isHighlight ? "" : undefined}
                x={px}
                y={below ? py + font.value * 1.7 : py - font.value}
                textAnchor="middle"
                fontSize={font.value}
                {...editable(point.valuePath, point.value)}
              >
                {valueText.format(point.value)}
              </text>
            ) : null}
          </g>
        );
      })}
      <CategoryLabels
        labels={points.map((point) => point.label)}
        paths={points.map((point) => point.labelPath)}
        frame={frame}
      />
    </g>
  );
}

type MultiPlotProps = { data: MultiData; size: Size; options: PlotOptions };

// Grouped bars stand side by side in each category's band; stacked bars pile up from zero (positive
// values upward, negative downward) and are labelled with their total.
function MultiBarPlot({ data, size, options, stacked }: MultiPlotProps & { stacked: boolean }) {
  const { labels, series } = data;
  const totals = labels.map((_, index) => {
    let up = 0;
    let down = 0;
    for (const line of series) {
      const value = line.values[index] ?? 0;
      if (value > 0) up += value;
      else down += value;
    }
    return { up, down };
  });
  const scale = stacked
    ? totals.flatMap((total) => [total.up, total.down])
    : series.flatMap((line) => line.values.filter((value): value is number => value !== null));
  const frame = cartesianFrame(scale, labels.length, size, options, true);
  const { band, y, x, font } = frame;
  const count = series.length;
  const segments: ReactNode[] = [];
  const values: ReactNode[] = [];
  if (stacked) {
    const barWidth = Math.min(band * 0.62, 180);
    const sums = totals.map((total) => total.up + total.down);
    const valueText = valueLabeller(sums, options.unit, band, font);
    labels.forEach((_, index) => {
      let up = 0;
      let down = 0;
      series.forEach((line, seriesIndex) => {
        const value = line.values[index];
        if (value === null || value === undefined || value === 0) return;
        const from = value > 0 ? up : down;
        const to = from + value;
        if (value > 0) up = to;
        else down = to;
        const top = y(Math.max(from, to));
        segments.push(
          <rect
            key={`${index}-${seriesIndex}`}
            className="dh-chart-bar"
            data-series={seriesIndex % maxSeries}
            x={x(index) - barWidth / 2}
            y={top}
            width={barWidth}
            height={Math.max(y(Math.min(from, to)) - top, 0)}
          />,
        );
      });
      if (options.showValues && valueText.fits && (up !== 0 || down !== 0)) {
        values.push(
          <text
            key={index}
            className="dh-chart-value"
            x={x(index)}
            y={up > 0 || down === 0 ? y(up) - font.value * 0.55 : y(down) + font.value * 1.25}
            textAnchor="middle"
            fontSize={font.value}
          >
            {valueText.format(up + down)}
          </text>,
        );
      }
    });
  } else {
    const groupWidth = Math.min(band * 0.78, 120 * count);
    const slot = groupWidth / count;
    const barWidth = slot * (count > 1 ? 0.86 : 1);
    const valueText = valueLabeller(scale, options.unit, slot + 2, font);
    labels.forEach((_, index) => {
      series.forEach((line, seriesIndex) => {
        const value = line.values[index];
        if (value === null || value === undefined) return;
        const centre = x(index) - groupWidth / 2 + slot * (seriesIndex + 0.5);
        const top = y(Math.max(value, 0));
        const bottom = y(Math.min(value, 0));
        segments.push(
          <path
            key={`${index}-${seriesIndex}`}
            className="dh-chart-bar"
            data-series={seriesIndex % maxSeries}
            d={barPath(centre - barWidth / 2, top, barWidth, bottom - top, value >= 0)}
          />,
        );
        if (options.showValues && valueText.fits) {
          values.push(
            <text
              key={`${index}-${seriesIndex}`}
              className="dh-chart-value"
              x={centre}
              y={value >= 0 ? top - font.value * 0.55 : bottom + font.value * 1.25}
              textAnchor="middle"
              fontSize={font.value}
              {...editable(seriesPath(data, seriesIndex, index), value)}
            >
              {valueText.format(value)}
            </text>,
          );
        }
      });
    });
  }
  return (
    <g>
      <Axes frame={frame} size={size} />
      {segments}
      {values}
      <line className="dh-chart-baseline" x1={frame.plot.left} x2={size.width - 4} y1={y(0)} y2={y(0)} />
      <CategoryLabels labels={labels} paths={labelPaths(data)} frame={frame} />
    </g>
  );
}

// Several lines share the axes; each is labelled once, at its last point, with the labels pushed
// apart so lines that end close together stay readable.
function MultiLinePlot({ data, size, options }: MultiPlotProps) {
  const { labels, series } = data;
  const all = series.flatMap((line) => line.values.filter((value): value is number => value !== null));
  const font = fontsFor(size.text);
  const lastOf = (values: (number | null)[]) => {
    for (let index = values.length - 1; index >= 0; index--) {
      const value = values[index];
      if (value !== null && value !== undefined) return { index, value };
    }
    return undefined;
  };
  const ends = series.map((line) => lastOf(line.values));
  const endTexts = ends.map((end) => (end ? formatValue(end.value, options.unit) : ""));
  const right = options.showValues
    ? Math.ceil(Math.max(...endTexts.map((text) => text.length), 1) * font.value * digitWidth) + font.value
    : 12;
  const frame = cartesianFrame(all, labels.length, size, options, false, right);
  const { x, y, plot } = frame;
  const paths = series.map((line) =>
    line.values
      .map((value, index, values) => {
        if (value === null) return "";
        const previous = values[index - 1];
        return `${index === 0 || previous === null || previous === undefined ? "M" : "L"}${x(index)},${y(value)}`;
      })
      .join(""),
  );
  // End labels: in order down the plot, each at least a line below the one above it.
  const gap = font.value * 1.25;
  type Placed = { index: number; want: number; at: number; x: number; path?: string; value: number };
  const placed = ends
    .map((end, index): Placed | null =>
      end
        ? {
            index,
            want: y(end.value),
            at: y(end.value),
            x: x(end.index),
            path: seriesPath(data, index, end.index),
            value: end.value,
          }
        : null,
    )
    .filter((entry): entry is Placed => entry !== null)
    .sort((a, b) => a.want - b.want);
  placed.forEach((entry, order) => {
    const above = placed[order - 1];
    entry.at = Math.max(entry.want, above ? above.at + gap : plot.top);
  });
  const overflow = (placed.at(-1)?.at ?? 0) - (plot.top + plot.height);
  if (overflow > 0) for (const entry of placed) entry.at -= overflow;
  return (
    <g>
      <Axes frame={frame} size={size} />
      {paths.map((d, index) => (
        <path key={index} className="dh-chart-line" data-series={index % maxSeries} d={d} />
      ))}
      {series.map((line, seriesIndex) =>
        line.values.map((value, index) =>
          value === null ? null : (
            <circle
              key={`${seriesIndex}-${index}`}
              className="dh-chart-point"
              data-series={seriesIndex % maxSeries}
              cx={x(index)}
              cy={y(value)}
              r={0.3 * font.label}
            />
          ),
        ),
      )}
      {options.showValues
        ? placed.map((entry) => (
            <text
              key={entry.index}
              className="dh-chart-value"
              data-series={entry.index}
              x={entry.x + font.value * 0.6}
              y={entry.at}
              dominantBaseline="central"
              fontSize={font.value}
              {...editable(entry.path, entry.value)}
            >
              {endTexts[entry.index]}
            </text>
          ))
        : null}
      <CategoryLabels labels={labels} paths={labelPaths(data)} frame={frame} />
    </g>
  );
}

const maxSlices = 6;

function PiePlot({ points, size, options }: PlotProps) {
  const font = fontsFor(size.text);
  const k = size.text / fallbackSize.text;
  const slices = pieSlices(points);
  const total = slices.reduce((sum, slice) => sum + slice.value, 0);
  if (slices.length === 0 || total <= 0) return <EmptyPlot size={size} />;

  const valueTexts = slices.map((slice) =>
    options.showValues ? formatValue(slice.value, options.unit) : `${Math.round((slice.value / total) * 100)}%`,
  );
  const valueWidth = Math.max(...valueTexts.map((text) => text.length)) * font.legend * digitWidth;
  const labelWidth = Math.max(...slices.map((slice) => slice.label.length)) * font.legend * charWidth;
  const swatch = 44 * k;
  const gutter = 64 * k;

  // Donut and legend form one group, centred in the box; the legend takes what the ring leaves.
  const diameter = Math.max(Math.min(size.height - 8, size.width * 0.46), 80);
  const outer = diameter / 2;
  const inner = outer * 0.58;
  const legendRoom = size.width - diameter - gutter;
  const legendLabelWidth = Math.max(Math.min(labelWidth, legendRoom - swatch - valueWidth - 40), 40);
  const legendWidth = swatch + legendLabelWidth + 40 + valueWidth;
  const groupWidth = Math.min(diameter + gutter + legendWidth, size.width);
  const offset = Math.max((size.width - groupWidth) / 2, 0);
  const cx = offset + outer + 4;
  const cy = size.height / 2;
  const highlightIndex = slices.findIndex((slice) => slice.label === options.highlight);
  const focus = slices[highlightIndex];

  const rowHeight = font.legend * 2.1;
  const legendX = offset + diameter + gutter;
  const legendTop = cy - (rowHeight * slices.length) / 2 + rowHeight / 2;
  const valueX = Math.min(legendX + legendWidth, size.width - 4);

  // Each slice starts where the one before it ends.
  const sectors: Array<{ start: number; end: number }> = [];
  for (const slice of slices) {
    const start = sectors.at(-1)?.end ?? 0;
    sectors.push({ start, end: start + (slice.value / total) * Math.PI * 2 });
  }
  return (
    <g>
      {sectors.map(({ start, end }, index) => (
        <path
          key={index}
          className="dh-chart-slice"
          data-series={highlightIndex === -1 ? index : undefined}
          data-shade={highlightIndex === -1 ? undefined : shadeIndex(index, highlightIndex)}
          data-highlight={index === highlightIndex ? "" : undefined}
          d={sectorPath(cx, cy, outer, inner, start, end)}
        />
      ))}
      {focus ? (
        <g>
          <text
            className="dh-chart-centre"
            x={cx}
            y={cy + font.centre * 0.12}
            textAnchor="middle"
            fontSize={Math.min(font.centre, inner * 0.7)}
          >
            {`${Math.round((focus.value / total) * 100)}%`}
          </text>
          <text
            className="dh-chart-note"
            x={cx}
            y={cy + font.centre * 0.12 + font.label + 14}
            textAnchor="middle"
            fontSize={font.label}
          >
            {fitText(focus.label, inner * 1.6, font.label)}
          </text>
        </g>
      ) : null}
      {slices.map((slice, index) => {
        const rowY = legendTop + index * rowHeight;
        return (
          <g key={index} className="dh-chart-legend-row">
            <rect
              className="dh-chart-slice dh-chart-swatch"
              data-series={highlightIndex === -1 ? index : undefined}
              data-shade={highlightIndex === -1 ? undefined : shadeIndex(index, highlightIndex)}
              data-highlight={index === highlightIndex ? "" : undefined}
              x={legendX}
              y={rowY - 12 * k}
              width={24 * k}
              height={24 * k}
              rx={6 * k}
            />
            <text
              className="dh-chart-legend"
              data-highlight={index === highlightIndex ? "" : undefined}
              x={legendX + swatch}
              y={rowY}
              dominantBaseline="central"
              fontSize={font.legend}
              {...editable(slice.labelPath, slice.label)}
            >
              {fitText(slice.label, legendLabelWidth, font.legend)}
            </text>
            <text
              className="dh-chart-value"
              data-highlight={index === highlightIndex ? "" : undefined}
              x={valueX}
              y={rowY}
              textAnchor="end"
              dominantBaseline="central"
              fontSize={font.legend}
              {...editable(options.showValues ? slice.valuePath : undefined, slice.value)}
            >
              {valueTexts[index]}
            </text>
          </g>
        );
      })}
    </g>
  );
}

// Pie slices need positive values; past six slices the rest merge into "Other" so the ring stays legible.
function pieSlices(points: ChartPoint[]): ChartPoint[] {
  const positive = points.filter((point) => point.value > 0);
  if (positive.length <= maxSlices) return positive;
  const kept = positive.slice(0, maxSlices - 1);
  const rest = positive.slice(maxSlices - 1).reduce((sum, point) => sum + point.value, 0);
  return [...kept, { label: "Other", value: rest }];
}

// With a highlighted slice the others step through tints of one colour by distance from it, so the
// highlight is the only saturated contrast on the chart.
function shadeIndex(index: number, highlightIndex: number): number {
  if (index === highlightIndex) return 0;
  const order = index < highlightIndex ? index : index - 1;
  return Math.min(order, maxSlices - 2);
}

function sectorPath(cx: number, cy: number, outer: number, inner: number, from: number, to: number): string {
  // A full ring cannot be drawn as one arc (start and end coincide), so it is two halves.
  if (to - from >= Math.PI * 2 - 1e-6) {
    return [
      `M${cx},${cy - outer}A${outer},${outer} 0 1 1 ${cx},${cy + outer}A${outer},${outer} 0 1 1 ${cx},${cy - outer}Z`,
      `M${cx},${cy - inner}A${inner},${inner} 0 1 0 ${cx},${cy + inner}A${inner},${inner} 0 1 0 ${cx},${cy - inner}Z`,
    ].join("");
  }
  const point = (radius: number, angle: number) => `${cx + radius * Math.sin(angle)},${cy - radius * Math.cos(angle)}`;
  const large = to - from > Math.PI ? 1 : 0;
  return [
    `M${point(outer, from)}`,
    `A${outer},${outer} 0 ${large} 1 ${point(outer, to)}`,
    `L${point(inner, to)}`,
    `A${inner},${inner} 0 ${large} 0 ${point(inner, from)}`,
    "Z",
  ].join("");
}

/** Round tick values (1, 2, 2.5, 5 × 10^n steps) covering [low, high], about `count` intervals. */
function niceTicks(low: number, high: number, count: number): number[] {
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

function fitText(text: string, width: number, fontSize: number): string {
  const max = Math.floor(width / (fontSize * charWidth));
  if (text.length <= max) return text;
  if (max <= 1) return "…";
  return `${text.slice(0, max - 1).trimEnd()}…`;
}
