import type { PackageParts } from "./package-parts";
import type PptxGenJS from "pptxgenjs";
import type { ChartItem, ChartText, Rect, Rgba } from "@/lib/contract/slide-model";
import { escapeXml, xmlChars } from "./ooxml";

// A Chart as a native PowerPoint chart: pptxgenjs writes the chart part and its embedded workbook (so
// "Edit Data" opens the deck's numbers), in the colours, fonts, scale and plot box the viewer drew;
// finishCharts then edits what pptxgenjs cannot say: the highlighted bar or point (<c:dPt>) and its label,
// labels on the last point of each line only, the legend and title where the viewer put them, and the
// order CT_BarSer/CT_LineSer require of a series' children.

const PX_PER_INCH = 144;
const PT_PER_PX = 0.5;
const inch = (value: number) => Math.round((value / PX_PER_INCH) * 10_000) / 10_000;
const pt = (value: number) => Math.round(value * PT_PER_PX * 100) / 100;
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
// PowerPoint's font sizes: 1-4,000 pt.
const fontSize = (px: number) => clamp(pt(px), 1, 4_000);
const fraction = (value: number) => Math.round(clamp(value, 0, 1) * 10_000) / 10_000;
const fraction4 = (value: number) => Math.round(clamp(value, -1, 1) * 10_000) / 10_000;

// pptxgenjs escapes names, labels, the title and format codes itself, and writes font faces as they are.
const font = (text: ChartText) => escapeXml(text.font);

// An Excel number format as the viewer formats values: grouped digits, as many decimals as the data has
// (up to 2), the unit around them and a typographic minus. A double quote cannot be quoted in a format.
function numberFormat(values: number[], [prefix, suffix]: [string, string]): string {
  const decimals = Math.max(
    0,
    ...values.map((value) => {
      const text = String(Math.round(Math.abs(value) * 100) / 100);
      return text.includes(".") ? Math.min(text.length - text.indexOf(".") - 1, 2) : 0;
    }),
  );
  // Whole and fractional values together ("12.5", "4"): General drops the decimals a whole number has not.
  const mixed = decimals > 0 && values.some(Number.isInteger) && values.every((value) => Math.abs(value) < 1_000);
  const digits = mixed ? "General" : decimals > 0 ? `#,##0.${"0".repeat(decimals)}` : "#,##0";
  const quoted = (text: string) => (text ? `"${xmlChars(text).replace(/"/g, "")}"` : "");
  return `${quoted(prefix)}${digits}${quoted(suffix)};${quoted(`\u2212${prefix}`)}${digits}${quoted(suffix)}`;
}

function layout(inner: Rect, outer: Rect) {
  return {
    x: fraction((inner.x - outer.x) / Math.max(outer.w, 1)),
    y: fraction((inner.y - outer.y) / Math.max(outer.h, 1)),
    w: fraction(inner.w / Math.max(outer.w, 1)),
    h: fraction(inner.h / Math.max(outer.h, 1)),
  };
}

// The viewer's points are circles of a radius in label sizes, ringed by 4 px of the slide's colour: what
// shows of them is a disc 4 px narrower. PowerPoint's marker size is its width in points.
function markerSize(item: ChartItem, radius: number): number {
  return clamp(Math.round(pt(item.category.size * radius * 2 - 4)), 2, 72);
}

// A colour with alpha, as it shows over the slide (chart lines take no alpha in pptxgenjs).
function over(color: Rgba, ground: Rgba | null): string {
  if (color.alpha >= 1 || !ground) return color.hex;
  const channel = (hex: string, at: number) => Number.parseInt(hex.slice(at, at + 2), 16);
  return [0, 2, 4]
    .map((at) => Math.round(channel(color.hex, at) * color.alpha + channel(ground.hex, at) * (1 - color.alpha)))
    .map((value) => value.toString(16).padStart(2, "0"))
    .join("")
    .toUpperCase();
}

/** Adds the chart to the slide; `name` identifies its graphic frame. */
export function addChart(pptx: PptxGenJS, slide: PptxGenJS.Slide, item: ChartItem, name: string): void {
  const box = { x: inch(item.rect.x), y: inch(item.rect.y), w: inch(item.rect.w), h: inch(item.rect.h) };
  const pie = item.type === "pie";
  const data = item.series.map((line) => ({
    name: xmlChars(line.name),
    labels: item.labels.map(xmlChars),
    // pptxgenjs writes null as an empty cell: a gap, as the viewer draws it.
    values: line.values as number[],
  }));
  const numbers = item.series.flatMap((line) => line.values.filter((value): value is number => value !== null));
  const valueFormat = numberFormat(numbers, item.format.value);
  const bars = item.series.length;
  const band = item.plot ? item.plot.w / Math.max(item.labels.length, 1) : 0;
  // Grouped bars stand 14% of their slot apart (data.tsx); PowerPoint sizes bars by the gaps between them.
  const overlap = !item.stacked && bars > 1 ? -16 : 0;
  const gap =
    item.barWidth > 0 && band > 0
      ? Math.round(
          clamp(
            (band / item.barWidth - (item.stacked ? 1 : bars) + (item.stacked ? 0 : (bars - 1) * (overlap / 100))) *
              100,
            0,
            500,
          ),
        )
      : 150;
  const text = (prefix: "cat" | "val" | "dataLabel" | "legend" | "title", style: ChartText) =>
    prefix === "cat" || prefix === "val"
      ? {
          [`${prefix}AxisLabelFontFace`]: font(style),
          [`${prefix}AxisLabelFontSize`]: fontSize(style.size),
          [`${prefix}AxisLabelColor`]: style.color.hex,
        }
      : {
          [`${prefix}FontFace`]: font(style),
          [`${prefix}FontSize`]: fontSize(style.size),
          [`${prefix}Color`]: style.color.hex,
        };
  const options: PptxGenJS.IChartOpts = {
    ...box,
    objectName: name,
    altText: xmlChars(item.label),
    chartColors: pie ? (item.pointColors ?? []).map((color) => color.hex) : item.series.map((line) => line.color.hex),
    showTitle: item.title !== null,
    ...(item.title
      ? {
          title: xmlChars(item.title.text),
          titleAlign: "left",
          titleBold: item.title.style.bold,
          ...text("title", item.title.style),
        }
      : {}),
    showLegend: item.legend !== null,
    ...(item.legend ? { legendPos: pie ? "r" : "t", ...text("legend", item.legend.style) } : {}),
    ...(item.plot && !pie ? { layout: layout(item.plot, item.rect) } : {}),
    showValue: item.values === "all" && !item.stacked,
    dataLabelFormatCode: valueFormat,
    dataLabelFontBold: item.value.bold,
    ...text("dataLabel", item.value),
    // Outside the end is the only place for clustered bars' labels, and one PowerPoint refuses for stacked ones.
    dataLabelPosition: item.type === "line" ? (bars > 1 ? "r" : "t") : item.stacked ? "inEnd" : "outEnd",
  } as PptxGenJS.IChartOpts;

  if (pie) {
    Object.assign(options, {
      holeSize: 58,
      showPercent: false,
      showLabel: false,
      showValue: false,
      dataBorder: item.ground ? { pt: 2, color: item.ground.hex } : undefined,
    });
    slide.addChart(pptx.ChartType.doughnut, data, options);
    return;
  }
  Object.assign(options, {
    ...text("cat", item.category),
    ...text("val", item.tick),
    valAxisLabelFormatCode: numberFormat(item.axis ? [item.axis.step, item.axis.min] : numbers, item.format.axis),
    ...(item.axis
      ? { valAxisMinVal: item.axis.min, valAxisMaxVal: item.axis.max, valAxisMajorUnit: item.axis.step }
      : {}),
    valAxisLineShow: false,
    valAxisMajorTickMark: "none",
    catAxisMajorTickMark: "none",
    valGridLine: item.grid
      ? { color: item.grid.color.hex, size: pt(item.grid.width), style: "solid" }
      : { style: "none" },
    catGridLine: { style: "none" },
    catAxisLineShow: item.baseline !== null,
    ...(item.baseline
      ? { catAxisLineColor: over(item.baseline.color, item.ground), catAxisLineSize: pt(item.baseline.width) }
      : {}),
  });
  if (item.type === "bar") {
    Object.assign(options, {
      barDir: "col",
      barGrouping: item.stacked ? "stacked" : "clustered",
      barGapWidthPct: gap,
      barOverlapPct: overlap,
      ...(item.stacked && item.ground ? { dataBorder: { pt: 1, color: item.ground.hex } } : {}),
    });
    slide.addChart(pptx.ChartType.bar, data, options);
  } else {
    Object.assign(options, {
      lineSize: clamp(pt(item.lineWidth), 0.25, 20),
      lineDataSymbol: "circle",
      lineDataSymbolSize: markerSize(item, bars > 1 ? 0.3 : 0.34),
      lineCap: "round",
    });
    slide.addChart(pptx.ChartType.line, data, options);
  }
}

const solid = (hex: string) => `<a:solidFill><a:srgbClr val="${hex}"/></a:solidFill>`;

type LabelOptions = { position?: string; shift?: { x: number; y: number }; text?: string };

// One data label (CT_DLbl, children in schema order): moved by a fraction of the chart's size, or with
// text of its own instead of the value.
function labelXml(item: ChartItem, index: number, style: ChartText, options: LabelOptions = {}): string {
  const numbers = item.series.flatMap((line) => line.values.filter((value): value is number => value !== null));
  const format = escapeXml(numberFormat(numbers, item.format.value));
  const position = options.position ?? (item.type === "line" ? "t" : "outEnd");
  const shift = options.shift
    ? `<c:layout><c:manualLayout><c:x val="${options.shift.x}"/><c:y val="${options.shift.y}"/></c:manualLayout></c:layout>`
    : "";
  const run = `<a:defRPr sz="${Math.round(fontSize(style.size) * 100)}" b="${style.bold ? 1 : 0}">${solid(style.color.hex)}<a:latin typeface="${font(style)}"/></a:defRPr>`;
  const text =
    options.text !== undefined
      ? `<c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p><a:pPr>${run}</a:pPr><a:r><a:rPr lang="en-US" sz="${Math.round(fontSize(style.size) * 100)}" b="${style.bold ? 1 : 0}">${solid(style.color.hex)}<a:latin typeface="${font(style)}"/></a:rPr><a:t>${escapeXml(options.text)}</a:t></a:r></a:p></c:rich></c:tx>`
      : "";
  return (
    `<c:dLbl><c:idx val="${index}"/>${shift}${text}<c:numFmt formatCode="${format}" sourceLinked="0"/><c:spPr><a:noFill/><a:ln><a:noFill/></a:ln></c:spPr>` +
    `<c:txPr><a:bodyPr/><a:lstStyle/><a:p><a:pPr>${run}</a:pPr><a:endParaRPr lang="en-US"/></a:p></c:txPr>` +
    `<c:dLblPos val="${position}"/><c:showLegendKey val="0"/><c:showVal val="1"/><c:showCatName val="0"/><c:showSerName val="0"/><c:showPercent val="0"/><c:showBubbleSize val="0"/></c:dLbl>`
  );
}

// A value as the viewer writes it (formatValue in the player): grouped digits, at most two decimals, the
// unit around them, a typographic minus.
const digits = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
function formatted(value: number, [prefix, suffix]: [string, string]): string {
  const text = digits.format(Math.abs(value));
  return `${value < 0 && text !== "0" ? "\u2212" : ""}${prefix}${text}${suffix}`;
}

function manualLayout(inner: Rect, outer: Rect, withSize: boolean): string {
  const { x, y, w, h } = layout(inner, outer);
  return `<c:layout><c:manualLayout><c:xMode val="edge"/><c:yMode val="edge"/><c:x val="${x}"/><c:y val="${y}"/>${withSize ? `<c:w val="${w}"/><c:h val="${h}"/>` : ""}</c:manualLayout></c:layout>`;
}

// PowerPoint and LibreOffice draw a legend's keys wider than the viewer and drop entries that do not fit
// the box: it gets room to the right, up to the chart's edge.
// LibreOffice centres the entries in the box, so a bar chart's (square keys, as the viewer's) gets little.
function legendBox(legend: Rect, chart: Rect, type: ChartItem["type"]): Rect {
  const w = Math.min(type === "line" ? legend.w * 1.4 + 40 : legend.w + 24, chart.x + chart.w - legend.x);
  return { ...legend, w: Math.max(w, legend.w) };
}

/** The chart part pptxgenjs wrote for `item`, finished (see the top of this file). */
function finishChartXml(xml: string, item: ChartItem): string {
  let out = xml;
  if (item.type !== "pie") {
    let seriesIndex = 0;
    // Replacements are functions throughout: a format code may hold "$&" or "$'".
    out = out.replace(/<c:ser>([\s\S]*?)<\/c:ser>/g, (_, body: string) => {
      const line = item.series[seriesIndex++];
      let inner = body;
      if (item.type === "line") inner = inner.replace(/\s*<c:invertIfNegative val="0"\/>/, "");
      // The series' labels move to just before the categories, after any marker and the dPt below.
      const labels = /<c:dLbls>[\s\S]*?<\/c:dLbls>/.exec(inner)?.[0] ?? "";
      if (labels) inner = inner.replace(labels, () => "");
      let points = "";
      let pointLabels = "";
      if (item.highlight && item.series.length === 1) {
        const { index, color } = item.highlight;
        if (item.type === "bar") {
          points = `<c:dPt><c:idx val="${index}"/><c:invertIfNegative val="0"/><c:bubble3D val="0"/><c:spPr>${solid(color.hex)}</c:spPr></c:dPt>`;
        } else {
          const size = markerSize(item, 0.5);
          points = `<c:dPt><c:idx val="${index}"/><c:marker><c:symbol val="circle"/><c:size val="${size}"/><c:spPr>${solid(color.hex)}<a:ln w="9525">${solid(color.hex)}</a:ln></c:spPr></c:marker><c:bubble3D val="0"/><c:spPr>${solid(color.hex)}</c:spPr></c:dPt>`;
        }
        if (item.values !== "none") {
          pointLabels = labelXml(item, index, { ...item.value, color: color, bold: true });
        }
      }
      // One line: a dip's label goes under the point, out of the line's way, as the viewer puts it.
      if (item.type === "line" && item.series.length === 1 && line && item.values === "all") {
        const dips = line.values.flatMap((value, index) => {
          const before = line.values[index - 1];
          const after = line.values[index + 1];
          const isDip =
            value !== null &&
            before != null &&
            after != null &&
            before > value &&
            after > value &&
            index !== item.highlight?.index;
          return isDip && value > (item.axis?.min ?? -Infinity)
            ? [labelXml(item, index, item.value, { position: "b" })]
            : [];
        });
        pointLabels += dips.join("");
      }
      // Several lines: each labelled once, at its last value, as the viewer does.
      if (item.type === "line" && item.series.length > 1 && line && item.values !== "none") {
        let last = -1;
        line.values.forEach((value, index) => {
          if (value !== null) last = index;
        });
        const shift = item.labelShifts?.[seriesIndex - 1] ?? 0;
        pointLabels = line.values
          .map((_, index) =>
            index === last
              ? labelXml(item, index, item.value, {
                  position: "r",
                  shift: shift ? { x: 0, y: fraction4(shift / Math.max(item.rect.h, 1)) } : undefined,
                })
              : `<c:dLbl><c:idx val="${index}"/><c:delete val="1"/></c:dLbl>`,
          )
          .join("");
      }
      // Stacked bars: the total of each category above its top segment, as the viewer labels them.
      if (item.stacked && item.values !== "none" && line) {
        pointLabels = item.labels
          .map((_, index) => {
            const values = item.series.map((other) => other.values[index] ?? 0);
            const top = values.reduce((found, value, at) => (value > 0 ? at : found), -1);
            if (top !== seriesIndex - 1) return "";
            const total = values.reduce((sum, value) => sum + value, 0);
            const above = (item.value.size * 1.6) / Math.max(item.rect.h, 1);
            return labelXml(item, index, item.value, {
              position: "inEnd",
              shift: { x: 0, y: fraction4(-above) },
              text: formatted(total, item.format.value),
            });
          })
          .join("");
      }
      const finished = !labels ? "" : labels.replace("<c:dLbls>", () => `<c:dLbls>${pointLabels}`);
      inner = inner.replace("<c:cat>", () => `${points}${finished}<c:cat>`);
      return `<c:ser>${inner}</c:ser>`;
    });
  }
  if (item.legend) {
    out = out.replace(
      /(<c:legend>\s*<c:legendPos val="[a-z]+"\/>)/,
      (start: string) => `${start}${manualLayout(legendBox(item.legend!.rect, item.rect, item.type), item.rect, true)}`,
    );
  }
  if (item.title) {
    out = out.replace(
      /(<c:title>[\s\S]*?<\/c:tx>\s*)<c:layout\/>/,
      (_, start: string) => `${start}${manualLayout(item.title!.rect, item.rect, false)}`,
    );
  }
  if (item.type === "pie" && item.plot) {
    out = out.replace("<c:plotArea><c:layout/>", () => `<c:plotArea>${manualLayout(item.plot!, item.rect, true)}`);
  }
  return out;
}

/** Finishes every chart part of the file; `charts` in the order they were added. */
export function finishCharts(parts: PackageParts, charts: ChartItem[]): void {
  // pptxgenjs numbers chart parts in the order charts are added (a counter that spans files).
  const names = parts
    .names()
    .map((name) => [name, /^ppt\/charts\/chart(\d+)\.xml$/.exec(name)?.[1]] as const)
    .filter((entry): entry is readonly [string, string] => entry[1] !== undefined)
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .map(([name]) => name);
  if (names.length !== charts.length) throw new Error(`${charts.length} charts were added, ${names.length} written`);
  for (const [index, name] of names.entries()) parts.set(name, finishChartXml(parts.text(name), charts[index]!));
}
