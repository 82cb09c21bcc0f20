// What the PPTX export makes of a <Chart>: a native chart from the spec the component wrote on its figure
// (type, labels, series, highlight, axis), with its colours, fonts and value labels read from the SVG.

import {
  type ChartItem,
  type ChartText,
  type Rect,
  type Rgba,
  slideModelLimits as limits,
} from "@/lib/contract/slide-model";
import { parseColor } from "@/components/player/export/color";
import { contentBox, position, px, relative, size, within } from "@/components/player/export/extract-box";
import { firstFamily } from "@/components/player/export/extract-text";

// A Chart (components/player/vocabulary/data.tsx) as a native chart: the data from the JSON the component
// writes on its figure (never read back from the SVG's geometry), the colours and type as the browser
// computed them for the chart's own classes, and where the viewer put the plot, title and legend.
const svgNs = "http://www.w3.org/2000/svg";

/** The properties a chart's probes read from their computed style. */
type Probed = Pick<CSSStyleDeclaration, "fill" | "stroke" | "strokeWidth" | "fontFamily" | "fontWeight" | "color">;

const probeKey = (tag: string, className: string, attributes: Record<string, string>) =>
  `${tag}.${className}${Object.entries(attributes)
    .map(([name, value]) => `[${name}=${value}]`)
    .join("")}`;

// Every probe a chart can ask for: series colours (one series, or up to six by data-series), the highlight,
// the text, line and point classes. A superset, so the batch needs no spec.
const probeList: [string, string, Record<string, string>][] = [
  ...["rect.dh-chart-bar", "circle.dh-chart-point"].flatMap((probe) => {
    const [tag, className] = probe.split(".") as [string, string];
    return [
      [tag, className, {}],
      [tag, className, { "data-highlight": "" }],
      ...Array.from({ length: 6 }, (_, index) => [tag, className, { "data-series": String(index) }]),
    ] as [string, string, Record<string, string>][];
  }),
  ["text", "dh-chart-tick", {}],
  ["text", "dh-chart-label", {}],
  ["text", "dh-chart-value", {}],
  ["line", "dh-chart-grid", {}],
  ["line", "dh-chart-baseline", {}],
  ["path", "dh-chart-line", {}],
];

function probeElement(svg: Element, tag: string, className: string, attributes: Record<string, string>): Element {
  const element = document.createElementNS(svgNs, tag);
  element.setAttribute("class", className);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.setAttribute("visibility", "hidden");
  svg.appendChild(element);
  return element;
}

function snapshot(style: CSSStyleDeclaration): Probed {
  const { fill, stroke, strokeWidth, fontFamily, fontWeight, color } = style;
  return { fill, stroke, strokeWidth, fontFamily, fontWeight, color };
}

function probeOne(svg: Element, tag: string, className: string, attributes: Record<string, string>): Probed {
  const element = probeElement(svg, tag, className, attributes);
  try {
    return snapshot(getComputedStyle(element));
  } finally {
    element.remove();
  }
}

let probed = new WeakMap<Element, Map<string, Probed>>();

/**
 * The computed styles of every chart's probes, read in one pass before the walk: all probe elements are
 * added, read and removed together, so the document's style and layout are computed again once for the
 * deck instead of once per probe of every chart (which made a deck's walk grow with the square of its charts).
 */
export function probeCharts(root: ParentNode): void {
  probed = new WeakMap();
  const added: [Element, string, Element][] = [];
  for (const svg of root.querySelectorAll("figure.dh-chart[data-chart] > .dh-chart-plot > svg.dh-chart-svg")) {
    for (const [tag, className, attributes] of probeList) {
      added.push([svg, probeKey(tag, className, attributes), probeElement(svg, tag, className, attributes)]);
    }
  }
  try {
    for (const [svg, key, element] of added) {
      let styles = probed.get(svg);
      if (!styles) probed.set(svg, (styles = new Map()));
      styles.set(key, snapshot(getComputedStyle(element)));
    }
  } finally {
    for (const [, , element] of added) element.remove();
  }
}

// SVG text is painted with `fill`, HTML text with `color`.
function chartTextOf(style: Probed, size: number, fallback: Rgba, html = false): ChartText {
  return {
    font: firstFamily(style.fontFamily),
    size: within(size, 0, limits.fontSize),
    bold: Number(style.fontWeight) >= 600,
    color: parseColor(html ? style.color : style.fill) ?? fallback,
  };
}

const finite = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

const plainText = (value: unknown, max: number) => (typeof value === "string" ? value.slice(0, max) : "");

export function extractChart(figure: Element, origin: DOMRect): ChartItem | null {
  let spec: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(figure.getAttribute("data-chart") ?? "");
    if (typeof parsed !== "object" || parsed === null) return null;
    spec = parsed as Record<string, unknown>;
  } catch {
    return null;
  }
  const svg = figure.querySelector(":scope > .dh-chart-plot > svg.dh-chart-svg");
  const plotBox = svg?.parentElement;
  if (!(svg instanceof SVGSVGElement) || !plotBox) return null;
  const type = spec.type === "line" || spec.type === "pie" ? spec.type : spec.type === "bar" ? "bar" : null;
  if (!type || !Array.isArray(spec.labels) || !Array.isArray(spec.series)) return null;
  const labels = spec.labels.slice(0, limits.chartCategories).map((label) => plainText(label, limits.labelCharacters));
  const rawSeries = spec.series.slice(0, limits.chartSeries).flatMap((entry: unknown) => {
    if (typeof entry !== "object" || entry === null) return [];
    const { name, values } = entry as { name?: unknown; values?: unknown };
    if (!Array.isArray(values)) return [];
    return [
      {
        name: plainText(name, limits.labelCharacters),
        values: labels.map((_, index) => (finite(values[index]) ? (values[index] as number) : null)),
      },
    ];
  });
  if (labels.length === 0 || rawSeries.length === 0) return null;

  // Computed styles of the chart's own classes, read by probeCharts before the walk (or probed here alone).
  const probe = <T>(tag: string, className: string, attributes: Record<string, string>, read: (style: Probed) => T) =>
    read(probed.get(svg)?.get(probeKey(tag, className, attributes)) ?? probeOne(svg, tag, className, attributes));
  const black: Rgba = { hex: "000000", alpha: 1 };
  const seriesColor = (index: number) =>
    probe(
      type === "line" ? "circle" : "rect",
      type === "line" ? "dh-chart-point" : "dh-chart-bar",
      rawSeries.length > 1 ? { "data-series": String(index % 6) } : {},
      (style) => parseColor(style.fill),
    ) ?? black;
  const series = rawSeries.map((line, index) => ({ ...line, color: seriesColor(index) }));

  const svgRect = svg.getBoundingClientRect();
  const viewBox = svg.viewBox.baseVal;
  const scale = viewBox && viewBox.width > 0 ? svgRect.width / viewBox.width : 1;
  const text = px(getComputedStyle(plotBox).fontSize) * scale;
  const highlightIndex =
    finite(spec.highlight) && spec.highlight >= 0 && spec.highlight < labels.length ? spec.highlight : -1;

  const union = (elements: Element[]) => {
    const boxes = elements.map((element) => element.getBoundingClientRect());
    if (boxes.length === 0) return null;
    const left = Math.min(...boxes.map((box) => box.left));
    const top = Math.min(...boxes.map((box) => box.top));
    const right = Math.max(...boxes.map((box) => box.right));
    const bottom = Math.max(...boxes.map((box) => box.bottom));
    return relative(new DOMRect(left, top, right - left, bottom - top), origin);
  };
  let plot: Rect | null = null;
  let axis: ChartItem["axis"] = null;
  let labelShifts: number[] | undefined;
  let pointColors: Rgba[] | undefined;
  let highlightColor: Rgba | null = null;
  let legend: ChartItem["legend"] = null;
  if (type === "pie") {
    const slices = [...svg.querySelectorAll(".dh-chart-slice:not(.dh-chart-swatch)")];
    pointColors = labels.map((_, index) => parseColor(getComputedStyle(slices[index] ?? svg).fill) ?? black);
    if (highlightIndex >= 0) highlightColor = pointColors[highlightIndex] ?? null;
    plot = union(slices);
    // The names' column only (PowerPoint's legend has no values): a box that narrow keeps one entry a row.
    const rowsRect = union([...svg.querySelectorAll(".dh-chart-legend-row > :is(.dh-chart-swatch, .dh-chart-legend)")]);
    const name = svg.querySelector(".dh-chart-legend");
    if (rowsRect && name) legend = { rect: rowsRect, style: chartTextOf(getComputedStyle(name), text * 1.08, black) };
  } else {
    const frameElement = svg.querySelector(".dh-chart-axes[data-frame]");
    try {
      const frame = JSON.parse(frameElement?.getAttribute("data-frame") ?? "") as Record<string, unknown>;
      const { min, max, step, left, top, width, height } = frame;
      if (finite(min) && finite(max) && finite(step) && step > 0 && max > min) axis = { min, max, step };
      if (finite(left) && finite(top) && finite(width) && finite(height)) {
        plot = {
          x: position(svgRect.left - origin.left + left * scale),
          y: position(svgRect.top - origin.top + top * scale),
          w: size(width * scale),
          h: size(height * scale),
        };
      }
    } catch {
      // No frame: PowerPoint lays the plot out itself.
    }
    if (highlightIndex >= 0 && rawSeries.length === 1) {
      highlightColor = probe(
        type === "line" ? "circle" : "rect",
        type === "line" ? "dh-chart-point" : "dh-chart-bar",
        { "data-highlight": "" },
        (style) => parseColor(style.fill),
      );
    }
    // The legend's entries, packed at the start of the list as the viewer lays them out.
    const entries = [...figure.querySelectorAll(":scope > .dh-chart-legend-list > .dh-chart-legend-item")];
    const entriesRect = union(entries);
    const name = figure.querySelector(":scope > .dh-chart-legend-list .dh-chart-legend-name");
    if (entriesRect && name && rawSeries.length > 1) {
      const nameStyle = getComputedStyle(name);
      legend = { rect: entriesRect, style: chartTextOf(nameStyle, px(nameStyle.fontSize), black, true) };
    }
    // Several lines: each end label sits where the viewer pushed it apart from the others.
    if (type === "line" && rawSeries.length > 1) {
      labelShifts = rawSeries.map((_, index) => {
        const label = svg.querySelector(`.dh-chart-value[data-series="${index}"]`);
        const points = svg.querySelectorAll(`.dh-chart-point[data-series="${index % 6}"]`);
        const point = points[points.length - 1];
        if (!label || !point) return 0;
        const a = label.getBoundingClientRect();
        const b = point.getBoundingClientRect();
        return within(a.top + a.height / 2 - (b.top + b.height / 2), -limits.coordinate, limits.coordinate);
      });
    }
  }

  const caption = figure.querySelector(":scope > .dh-chart-title");
  const captionStyle = caption ? getComputedStyle(caption) : null;
  const title =
    caption && captionStyle && caption.textContent?.trim()
      ? {
          text: caption.textContent.trim().slice(0, limits.labelCharacters),
          rect: contentBox(caption, captionStyle, origin),
          style: chartTextOf(captionStyle, px(captionStyle.fontSize), black, true),
        }
      : null;

  const line = (className: string) =>
    probe("line", className, {}, (style) => {
      const color = parseColor(style.stroke);
      const width = px(style.strokeWidth) * scale;
      return color && width > 0 ? { width: size(width), color } : null;
    });
  const valueTexts = svg.querySelectorAll(".dh-chart-value").length;
  const points = series.length * labels.length;
  const values =
    spec.showValues === false || valueTexts === 0
      ? "none"
      : type !== "pie" && series.length === 1 && valueTexts < points
        ? "highlight"
        : "all";
  const affixes = (value: unknown): [string, string] =>
    Array.isArray(value) && value.length === 2
      ? [plainText(value[0], limits.affixCharacters), plainText(value[1], limits.affixCharacters)]
      : ["", ""];
  const format =
    typeof spec.format === "object" && spec.format !== null ? (spec.format as Record<string, unknown>) : {};
  const firstBar = svg.querySelector(".dh-chart-bar");
  const barWidth = (() => {
    try {
      return firstBar instanceof SVGGraphicsElement ? firstBar.getBBox().width * scale : 0;
    } catch {
      return 0;
    }
  })();
  return {
    kind: "chart",
    rect: contentBox(figure, getComputedStyle(figure), origin),
    type,
    stacked: spec.stacked === true && type === "bar" && series.length > 1,
    labels,
    series,
    ...(pointColors ? { pointColors } : {}),
    ...(labelShifts ? { labelShifts } : {}),
    highlight: highlightIndex >= 0 && highlightColor ? { index: highlightIndex, color: highlightColor } : null,
    format: { value: affixes(format.value), axis: affixes(format.axis) },
    values,
    axis,
    plot,
    title,
    legend,
    tick: probe("text", "dh-chart-tick", {}, (style) => chartTextOf(style, text * 0.92, black)),
    category: probe("text", "dh-chart-label", {}, (style) => chartTextOf(style, text, black)),
    value: probe("text", "dh-chart-value", {}, (style) => chartTextOf(style, text * 1.08, black)),
    grid: line("dh-chart-grid"),
    baseline: line("dh-chart-baseline"),
    ground: probe("circle", "dh-chart-point", {}, (style) => parseColor(style.stroke)),
    barWidth: size(barWidth),
    lineWidth: probe("path", "dh-chart-line", {}, (style) => size(px(style.strokeWidth) * scale)),
    label: (svg.getAttribute("aria-label") ?? "").slice(0, limits.labelCharacters),
  };
}
