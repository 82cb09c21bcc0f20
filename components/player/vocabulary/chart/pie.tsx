// The chart's pie and doughnut: at most six slices (the rest as "Other"), the highlighted one in the
// accent colour, the share of the highlighted slice in the hole.

import { formatValue } from "@/components/player/vocabulary/tone";
import { EmptyPlot } from "@/components/player/vocabulary/chart/cartesian";
import {
  type ChartPoint,
  type PlotProps,
  charWidth,
  digitWidth,
  editable,
  fallbackSize,
  fitText,
  fontsFor,
  shadeIndex,
  maxSlices,
} from "@/components/player/vocabulary/chart/shared";

export function PiePlot({ points, size, options }: PlotProps) {
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
export function pieSlices(points: ChartPoint[]): ChartPoint[] {
  const positive = points.filter((point) => point.value > 0);
  if (positive.length <= maxSlices) return positive;
  const kept = positive.slice(0, maxSlices - 1);
  const rest = positive.slice(maxSlices - 1).reduce((sum, point) => sum + point.value, 0);
  return [...kept, { label: "Other", value: rest }];
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
