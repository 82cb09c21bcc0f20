"use client";

// Chart: one series, or several with a legend, as plain SVG laid out in
// canvas pixels: the plot measures its box so labels keep a fixed, readable size (≥ 22px) whatever
// width a column gives it, instead of shrinking with a scaled viewBox. The plots are in cartesian.tsx
// and pie.tsx.

import { useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from "react";
import { formatValue, oneOf, textOf } from "@/components/player/vocabulary/tone";
import { chartTypes, type ChartType } from "@/lib/contract/prop-values";
import {
  BarPlot,
  EmptyPlot,
  LinePlot,
  MultiBarPlot,
  MultiLinePlot,
} from "@/components/player/vocabulary/chart/cartesian";
import { PiePlot, pieSlices } from "@/components/player/vocabulary/chart/pie";
import {
  type ChartPoint,
  type ChartSeries,
  type MultiData,
  type PlotOptions,
  type Size,
  editable,
  fallbackSize,
  formatSeriesValue,
  numberOf,
  seriesPath,
  maxSeries,
} from "@/components/player/vocabulary/chart/shared";

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
