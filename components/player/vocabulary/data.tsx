"use client";

// Data components: big numbers, tables and single-series charts. Charts are plain SVG laid out in
// canvas pixels: the plot measures its box so labels keep a fixed, readable size (≥ 22px) whatever
// width a column gives it, instead of shrinking with a scaled viewBox.

import { useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from "react";
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

type Cell = string | number;

type TableProps = {
  columns: string[];
  rows: Cell[][];
  highlight?: number;
  striped?: boolean;
};

// "42%", "$1.2M", "-3", "1,204", "2.5x": right-aligned like numbers so their digits line up.
const numericCell = /^[-+−]?\s*(?:[$€£¥₹]|US\$)?\s*\d[\d,.\s]*(?:%|x|×|k|m|bn|b|pp|[a-z]{0,3})?$/i;

export function Table({ columns, rows, highlight, striped }: TableProps) {
  const header = Array.isArray(columns) ? columns.map((cell) => textOf(cell) ?? "") : [];
  const body = Array.isArray(rows)
    ? (rows as unknown[])
        .filter((row): row is unknown[] => Array.isArray(row))
        .map((row) => row.map((cell) => textOf(cell) ?? ""))
    : [];
  // Ragged rows are padded (or the header widened) so every row has the same cells.
  const width = Math.max(header.length, ...body.map((row) => row.length));
  if (width === 0) return null;
  const pad = (row: string[]) => Array.from({ length: width }, (_, index) => row[index] ?? "");
  const numeric = Array.from({ length: width }, (_, column) => {
    const cells = body.map((row) => row[column] ?? "").filter((cell) => cell.trim() !== "");
    return column > 0 && cells.length > 0 && cells.every((cell) => numericCell.test(cell.trim()));
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
                {numeric[index] ? typographicMinus(cell) : cell}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type ChartPoint = { label: string; value: number };

type ChartProps = {
  type: ChartType;
  data: ChartPoint[];
  unit?: string;
  highlight?: string;
  showValues?: boolean;
  title?: string;
};

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

export function Chart({ type, data, unit, highlight, showValues, title }: ChartProps) {
  const kind = oneOf(type, chartTypes, "bar");
  const points = chartPoints(data);
  const titleText = textOf(title);
  const highlightLabel = textOf(highlight);
  const [ref, measured] = useBoxSize<HTMLDivElement>();
  const size = measured ?? fallbackSize;
  const options: PlotOptions = { unit, highlight: highlightLabel, showValues: showValues !== false };
  const summary = points.map((point) => `${point.label}: ${formatValue(point.value, unit)}`).join(", ");

  let plot: ReactNode;
  if (points.length === 0) plot = <EmptyPlot size={size} />;
  else if (kind === "bar") plot = <BarPlot points={points} size={size} options={options} />;
  else if (kind === "line") plot = <LinePlot points={points} size={size} options={options} />;
  else plot = <PiePlot points={points} size={size} options={options} />;

  return (
    <figure className="dh-chart" data-type={kind}>
      {titleText ? (
        <figcaption className="dh-chart-title" dir="auto">
          {titleText}
        </figcaption>
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

function chartPoints(data: unknown): ChartPoint[] {
  if (!Array.isArray(data)) return [];
  return data.flatMap((entry): ChartPoint[] => {
    if (typeof entry !== "object" || entry === null) return [];
    const { label, value } = entry as { label?: unknown; value?: unknown };
    const number = typeof value === "number" ? value : typeof value === "string" ? Number.parseFloat(value) : NaN;
    if (!Number.isFinite(number)) return [];
    return [{ label: textOf(label) ?? "", value: number }];
  });
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
function cartesianFrame(points: ChartPoint[], size: Size, options: PlotOptions, fromZero: boolean) {
  const font = fontsFor(size.text);
  const values = points.map((point) => point.value);
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
  const right = 12;
  const plot = {
    left,
    top,
    width: Math.max(size.width - left - right, 40),
    height: Math.max(size.height - top - bottom, 40),
  };
  const y = (value: number) => plot.top + plot.height * (1 - (value - min) / (max - min || 1));
  const band = plot.width / points.length;
  const x = (index: number) => plot.left + band * (index + 0.5);
  return { ticks, tickTexts, plot, y, x, band, min, max, font };
}

function Axes({ frame, size }: { frame: ReturnType<typeof cartesianFrame>; size: Size }) {
  const { ticks, tickTexts, plot, y, font } = frame;
  return (
    <g>
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

function CategoryLabels({ points, frame }: { points: ChartPoint[]; frame: ReturnType<typeof cartesianFrame> }) {
  const { band, plot, x, font } = frame;
  const longest = Math.max(...points.map((point) => point.label.length), 1);
  // Crowded axes label every n-th category instead of overprinting.
  const every = Math.max(1, Math.ceil((Math.min(longest, 6) * font.label * charWidth + 12) / band));
  return (
    <g>
      {points.map((point, index) =>
        index % every === 0 ? (
          <text
            key={index}
            className="dh-chart-label"
            x={x(index)}
            y={plot.top + plot.height + font.label * 1.55}
            textAnchor="middle"
            fontSize={font.label}
          >
            {fitText(point.label, band * every - 12, font.label)}
          </text>
        ) : null,
      )}
    </g>
  );
}

function BarPlot({ points, size, options }: PlotProps) {
  const frame = cartesianFrame(points, size, options, true);
  const { band, y, x, font } = frame;
  const barWidth = Math.min(band * 0.62, 180);
  const valueText = valueLabeller(points, options.unit, band, font);
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
              >
                {valueText.format(point.value)}
              </text>
            ) : null}
          </g>
        );
      })}
      <line className="dh-chart-baseline" x1={frame.plot.left} x2={size.width - 4} y1={y(0)} y2={y(0)} />
      <CategoryLabels points={points} frame={frame} />
    </g>
  );
}

// Value labels keep their unit when every label fits its band; otherwise they drop a word unit (the
// axis still shows the scale) and, if even the bare numbers collide, only the highlight is labelled.
function valueLabeller(points: ChartPoint[], unit: unknown, band: number, font: Fonts) {
  const widest = (format: (value: number) => string) =>
    Math.max(...points.map((point) => format(point.value).length)) * font.value * digitWidth;
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
  const frame = cartesianFrame(points, size, options, false);
  const { x, y, plot, band, min, font } = frame;
  const coordinates = points.map((point, index) => [x(index), y(point.value)] as const);
  const line = coordinates.map(([px, py], index) => `${index === 0 ? "M" : "L"}${px},${py}`).join("");
  const floor = y(min >= 0 ? min : 0);
  const first = coordinates[0];
  const last = coordinates[coordinates.length - 1];
  const area = first && last ? `${line}L${last[0]},${floor}L${first[0]},${floor}Z` : "";
  const valueText = valueLabeller(points, options.unit, band, font);
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
              >
                {valueText.format(point.value)}
              </text>
            ) : null}
          </g>
        );
      })}
      <CategoryLabels points={points} frame={frame} />
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
