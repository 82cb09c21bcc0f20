// The chart's cartesian plots: bars and lines, one series or several (grouped or stacked), drawn as SVG in
// canvas pixels with their axes and category labels.

import { type ReactNode } from "react";
import { formatValue } from "@/components/player/vocabulary/tone";
import {
  type MultiPlotProps,
  type PlotOptions,
  type PlotProps,
  type Size,
  charWidth,
  digitWidth,
  editable,
  fitText,
  fontsFor,
  labelPaths,
  niceTicks,
  seriesPath,
  valueLabeller,
  maxSeries,
} from "@/components/player/vocabulary/chart/shared";

/** The value scale and plot rectangle of a bar or line plot, for the PPTX export (not drawn). */
function frameData(frame: ReturnType<typeof cartesianFrame>): string {
  const { ticks, plot, min, max } = frame;
  const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : max - min;
  return JSON.stringify({ min, max, step, ...plot });
}

export function EmptyPlot({ size }: { size: Size }) {
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

export function BarPlot({ points, size, options }: PlotProps) {
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

// Only the end away from the baseline is rounded, so bars still stand on the axis.
function barPath(x: number, y: number, width: number, height: number, up: boolean): string {
  const r = Math.max(0, Math.min(8, width / 4, height));
  if (up) {
    return `M${x},${y + height}V${y + r}Q${x},${y} ${x + r},${y}H${x + width - r}Q${x + width},${y} ${x + width},${y + r}V${y + height}Z`;
  }
  return `M${x},${y}V${y + height - r}Q${x},${y + height} ${x + r},${y + height}H${x + width - r}Q${x + width},${y + height} ${x + width},${y + height - r}V${y}Z`;
}

export function LinePlot({ points, size, options }: PlotProps) {
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

// Grouped bars stand side by side in each category's band; stacked bars pile up from zero (positive
// values upward, negative downward) and are labelled with their total.
export function MultiBarPlot({ data, size, options, stacked }: MultiPlotProps & { stacked: boolean }) {
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
export function MultiLinePlot({ data, size, options }: MultiPlotProps) {
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
