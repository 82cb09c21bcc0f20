import type JSZip from "jszip";
import type PptxGenJS from "pptxgenjs";
import type { ChartItem, ChartText, Rect } from "@/lib/contract/slide-model";
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
  const digits = decimals > 0 ? `#,##0.${"0".repeat(decimals)}` : "#,##0";
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
    dataLabelPosition: item.type === "line" ? (bars > 1 ? "r" : "t") : "outEnd",
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
    ...(item.baseline ? { catAxisLineColor: item.baseline.color.hex, catAxisLineSize: pt(item.baseline.width) } : {}),
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
    const radius = item.category.size * (bars > 1 ? 0.3 : 0.34);
    Object.assign(options, {
      lineSize: clamp(pt(item.lineWidth), 0.25, 20),
      lineDataSymbol: "circle",
      lineDataSymbolSize: clamp(Math.round(pt(radius * 2 + 4)), 2, 72),
      lineDataSymbolLineSize: 2,
      ...(item.ground ? { lineDataSymbolLineColor: item.ground.hex } : {}),
      lineCap: "round",
    });
    slide.addChart(pptx.ChartType.line, data, options);
  }
}

const solid = (hex: string) => `<a:solidFill><a:srgbClr val="${hex}"/></a:solidFill>`;

function labelXml(item: ChartItem, index: number, style: ChartText): string {
  const format = escapeXml(
    numberFormat(
      item.series.flatMap((line) => line.values.filter((v) => v !== null) as number[]),
      item.format.value,
    ),
  );
  const position = item.type === "line" ? "t" : "outEnd";
  return (
    `<c:dLbl><c:idx val="${index}"/><c:numFmt formatCode="${format}" sourceLinked="0"/><c:spPr><a:noFill/><a:ln><a:noFill/></a:ln></c:spPr>` +
    `<c:txPr><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr sz="${Math.round(fontSize(style.size) * 100)}" b="${style.bold ? 1 : 0}">${solid(style.color.hex)}<a:latin typeface="${font(style)}"/></a:defRPr></a:pPr><a:endParaRPr lang="en-US"/></a:p></c:txPr>` +
    `<c:dLblPos val="${position}"/><c:showLegendKey val="0"/><c:showVal val="1"/><c:showCatName val="0"/><c:showSerName val="0"/><c:showPercent val="0"/><c:showBubbleSize val="0"/></c:dLbl>`
  );
}

function manualLayout(inner: Rect, outer: Rect, withSize: boolean): string {
  const { x, y, w, h } = layout(inner, outer);
  return `<c:layout><c:manualLayout><c:xMode val="edge"/><c:yMode val="edge"/><c:x val="${x}"/><c:y val="${y}"/>${withSize ? `<c:w val="${w}"/><c:h val="${h}"/>` : ""}</c:manualLayout></c:layout>`;
}

/** The chart part pptxgenjs wrote for `item`, finished (see the top of this file). */
export function finishChartXml(xml: string, item: ChartItem): string {
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
          const size = clamp(Math.round(pt(item.category.size * 0.5 * 2 + 4)), 2, 72);
          const ring = item.ground ? `<a:ln w="25400">${solid(item.ground.hex)}</a:ln>` : "";
          points = `<c:dPt><c:idx val="${index}"/><c:marker><c:symbol val="circle"/><c:size val="${size}"/><c:spPr>${solid(color.hex)}${ring}</c:spPr></c:marker><c:bubble3D val="0"/></c:dPt>`;
        }
        if (item.values !== "none") {
          pointLabels = labelXml(item, index, { ...item.value, color: color, bold: true });
        }
      }
      // Several lines: each labelled once, at its last value, as the viewer does.
      if (item.type === "line" && item.series.length > 1 && line && item.values !== "none") {
        let last = -1;
        line.values.forEach((value, index) => {
          if (value !== null) last = index;
        });
        pointLabels = line.values
          .map((_, index) =>
            index === last
              ? labelXml(item, index, item.value).replace('<c:dLblPos val="t"/>', () => '<c:dLblPos val="r"/>')
              : `<c:dLbl><c:idx val="${index}"/><c:delete val="1"/></c:dLbl>`,
          )
          .join("");
      }
      const finished = labels.replace("<c:dLbls>", () => `<c:dLbls>${pointLabels}`);
      inner = inner.replace("<c:cat>", () => `${points}${finished}<c:cat>`);
      return `<c:ser>${inner}</c:ser>`;
    });
  }
  if (item.legend) {
    out = out.replace(
      /(<c:legend>\s*<c:legendPos val="[a-z]+"\/>)/,
      (start: string) => `${start}${manualLayout(item.legend!.rect, item.rect, true)}`,
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
export async function finishCharts(zip: JSZip, charts: ChartItem[]): Promise<void> {
  // pptxgenjs numbers chart parts in the order charts are added (a counter that spans files).
  const parts = Object.keys(zip.files)
    .map((name) => [name, /^ppt\/charts\/chart(\d+)\.xml$/.exec(name)?.[1]] as const)
    .filter((entry): entry is readonly [string, string] => entry[1] !== undefined)
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .map(([name]) => name);
  if (parts.length !== charts.length) throw new Error(`${charts.length} charts were added, ${parts.length} written`);
  for (const [index, name] of parts.entries()) {
    const xml = await zip.file(name)!.async("string");
    zip.file(name, finishChartXml(xml, charts[index]!));
  }
}
