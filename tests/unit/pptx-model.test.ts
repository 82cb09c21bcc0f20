import { describe, expect, it } from "vitest";
import JSZip from "jszip";
import type { ChartItem, SlideModel, TextItem, TextList, TextRun } from "@/lib/contract/slide-model";
import { buildPptx, textBoxSpan } from "@/lib/exports/build-pptx";
import { escapeXml, xmlChars } from "@/lib/exports/ooxml";
import { isExportableLink, parseExportModel } from "@/lib/exports/pptx-model";
import { DeckFaultError } from "@/lib/render/browser";
import { attributeValues, everyAttribute, readPptxXml, slideParts, texts } from "../helpers/pptx-xml";

// The PPTX builder and the gate in front of it, without a browser: what reaches the file is escaped (or
// dropped, for characters XML cannot hold), and a model that is not what the extractor produces is refused.

const white = { hex: "FFFFFF", alpha: 1 };
const ink = { hex: "111111", alpha: 1 };

function run(text: string, extra: Partial<TextRun> = {}): TextRun {
  return {
    text,
    font: "Inter",
    size: 40,
    bold: false,
    italic: false,
    underline: false,
    strike: false,
    color: ink,
    letterSpacing: 0,
    ...extra,
  };
}

function textSlide(runs: TextRun[]): SlideModel {
  return {
    background: white,
    items: [
      {
        kind: "text",
        rect: { x: 100, y: 100, w: 1000, h: 60 },
        runs,
        align: "left",
        lineHeight: 48,
        singleLine: false,
      },
    ],
  };
}

const onePixel = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

describe("what the builder writes", () => {
  // Every string a deck controls, with the characters that end an attribute or an element, start a
  // reference, or that XML 1.0 cannot hold at all.
  const hostileFont = `Evil"Font' $& $' <b> & x="1"`;
  const hostileText = `Fish & <chips> "quoted" 'single' ]]> \u0001\u0008\u000B\u000C\u001F\uFFFE\uFFFF\uD800 lone \uDC00 end 😀`;
  const keptText = `Fish & <chips> "quoted" 'single' ]]>  lone  end 😀`;
  const hostileLink = `https://example.com/?a=1&b="2"<3>`;
  const hostileNotes = `Say <this> & "that"\u0002 now`;
  const hostileLabel = `Chart "A" & <B>\u0003`;
  const hostileTitle = `Q3 & Q4 <"draft">\u0007`;

  async function hostileFile() {
    const bytes = await buildPptx({
      title: hostileTitle,
      slides: [
        {
          background: white,
          items: [
            {
              kind: "text",
              rect: { x: 100, y: 100, w: 1000, h: 60 },
              runs: [run(hostileText, { font: hostileFont, href: hostileLink })],
              align: "left",
              lineHeight: 48,
              singleLine: false,
            },
            {
              kind: "table",
              rect: { x: 100, y: 300, w: 800, h: 100 },
              columnWidths: [400, 400],
              rowHeights: [50, 50],
              rows: [
                [
                  {
                    runs: [run("A & B", { font: hostileFont })],
                    fill: null,
                    align: "left",
                    valign: "top",
                    padding: [4, 4, 4, 4],
                    borderBottom: null,
                  },
                  {
                    runs: [run("<c>")],
                    fill: ink,
                    align: "right",
                    valign: "middle",
                    padding: [4, 4, 4, 4],
                    borderBottom: { width: 1, color: ink },
                  },
                ],
                [
                  {
                    runs: [run("d")],
                    fill: null,
                    align: "center",
                    valign: "bottom",
                    padding: [4, 4, 4, 4],
                    borderBottom: null,
                  },
                  {
                    runs: [run("e\u0001")],
                    fill: null,
                    align: "left",
                    valign: "top",
                    padding: [4, 4, 4, 4],
                    borderBottom: null,
                  },
                ],
              ],
            },
            { kind: "raster", rect: { x: 0, y: 0, w: 10, h: 10 }, id: 1, alone: false, label: hostileLabel },
          ],
        },
      ],
      notes: [hostileNotes],
      rasters: new Map([[1, { png: onePixel, width: 10, height: 10 }]]),
    });
    return readPptxXml(bytes);
  }

  it("produces XML that parses, with every hostile string kept as the same text (minus what XML cannot hold)", async () => {
    const parts = await hostileFile();
    const [slide] = slideParts(parts);
    expect(slide).toBeDefined();
    // The font is one attribute value, the same string, on latin/ea/cs of each run that names it.
    const typefaces = ["a:latin", "a:ea", "a:cs"].flatMap((tag) => attributeValues(slide!, tag, "typeface"));
    expect(typefaces.filter((face) => face === hostileFont)).toHaveLength(6);
    expect(typefaces.every((face) => face === hostileFont || face === "Inter")).toBe(true);
    expect(texts(slide!, "a:t")).toEqual(expect.arrayContaining([keptText, "A & B", "<c>", "e"]));
    expect(attributeValues(slide!, "p:cNvPr", "descr")).toContain('Chart "A" & <B>');

    const rels = parts.get("ppt/slides/_rels/slide1.xml.rels")!;
    const targets = attributeValues(rels, "Relationship", "Target");
    expect(targets).toContain(hostileLink);

    const [notes] = slideParts(parts, "notesSlides", "notesSlide");
    expect(texts(notes!, "a:t").join("")).toContain('Say <this> & "that" now');
    expect(texts(parts.get("docProps/core.xml")!, "dc:title")).toEqual([`Q3 & Q4 <"draft">`]);
  });

  it("keeps colours to six hex digits and numbers finite in every attribute", async () => {
    const parts = await hostileFile();
    for (const [name, document] of parts) {
      for (const value of attributeValues(document, "a:srgbClr", "val")) expect(value, name).toMatch(/^[0-9A-F]{6}$/);
    }
    for (const [name, document] of parts) {
      for (const [element, attribute, value] of everyAttribute(document)) {
        expect(value, `${name} ${element} ${attribute}`).not.toMatch(/NaN|Infinity|undefined/);
      }
    }
  });
});

describe("right-to-left paragraphs", () => {
  // Each <a:p> with its <a:pPr>'s rtl and algn, and its text.
  function paragraphs(slide: ReturnType<typeof slideParts>[number]) {
    return [...slide.getElementsByTagName("a:p")].map((paragraph) => {
      const properties = paragraph.getElementsByTagName("a:pPr")[0];
      return {
        text: texts(paragraph as never, "a:t").join(""),
        rtl: properties?.getAttribute("rtl") ?? "",
        algn: properties?.getAttribute("algn") ?? "",
      };
    });
  }

  it('writes rtl="1" and algn="r" on right-to-left text boxes and table cells, and nothing on the others', async () => {
    const arabic = "مرحبا بكم في Deckhand";
    const hebrew = "שלום עולם";
    const slide: SlideModel = {
      background: white,
      items: [
        {
          kind: "text",
          rect: { x: 100, y: 100, w: 1000, h: 60 },
          runs: [run(arabic)],
          align: "right",
          rtl: true,
          lineHeight: 48,
          singleLine: true,
        },
        {
          kind: "text",
          rect: { x: 100, y: 200, w: 1000, h: 120 },
          runs: [run("English", { breakAfter: true }), run("line two")],
          align: "left",
          lineHeight: 48,
          singleLine: false,
        },
        {
          kind: "table",
          rect: { x: 0, y: 400, w: 800, h: 100 },
          columnWidths: [400, 400],
          rowHeights: [100],
          rows: [
            [
              {
                runs: [run(hebrew)],
                fill: null,
                align: "right",
                rtl: true,
                valign: "middle",
                padding: [0, 0, 0, 0],
                borderBottom: null,
              },
              {
                runs: [run("Cell")],
                fill: null,
                align: "left",
                valign: "middle",
                padding: [0, 0, 0, 0],
                borderBottom: null,
              },
            ],
          ],
        },
      ],
    };
    const bytes = await buildPptx({ title: "RTL", slides: [slide], notes: [""], rasters: new Map() });
    const [part] = slideParts(await readPptxXml(bytes));
    const found = paragraphs(part!);
    expect(found).toEqual(
      expect.arrayContaining([
        { text: arabic, rtl: "1", algn: "r" },
        { text: hebrew, rtl: "1", algn: "r" },
      ]),
    );
    for (const paragraph of found.filter((entry) => /English|line two|Cell/.test(entry.text))) {
      expect(paragraph.rtl, paragraph.text).not.toBe("1");
      expect(paragraph.algn, paragraph.text).not.toBe("r");
    }
  });

  it("accepts rtl as an optional boolean and refuses anything else", () => {
    const rtl = textSlide([run("x")]);
    (rtl.items[0] as { rtl?: unknown }).rtl = true;
    expect(() => parseExportModel({ slides: [rtl], notes: [""] })).not.toThrow();
    (rtl.items[0] as { rtl?: unknown }).rtl = "yes";
    expect(() => parseExportModel({ slides: [rtl], notes: [""] })).toThrow(DeckFaultError);
  });
});

// A Chart as extract-slides.ts reads it from the viewer (colours, fonts and boxes as the browser drew them).
function chartItem(extra: Partial<ChartItem> = {}): ChartItem {
  const style = { font: "Inter", size: 24, bold: false, color: ink };
  return {
    kind: "chart",
    rect: { x: 96, y: 200, w: 1728, h: 800 },
    type: "bar",
    stacked: false,
    labels: ["Q1", "Q2", "Q3", "Q4"],
    series: [
      { name: "EMEA", values: [12, 15, 18, 22], color: { hex: "1D4ED8", alpha: 1 } },
      { name: "Americas", values: [20, 22, null, 31], color: { hex: "0F766E", alpha: 1 } },
    ],
    highlight: null,
    format: { value: ["", " $M"], axis: ["", ""] },
    values: "all",
    axis: { min: 0, max: 40, step: 10 },
    plot: { x: 150, y: 330, w: 1660, h: 600 },
    title: { text: "Revenue by region", rect: { x: 96, y: 200, w: 1728, h: 40 }, style: { ...style, bold: true } },
    legend: { rect: { x: 96, y: 260, w: 600, h: 32 }, style },
    tick: { ...style, size: 22 },
    category: style,
    value: { ...style, size: 26, bold: true },
    grid: { width: 1.5, color: { hex: "E5E5E5", alpha: 1 } },
    baseline: { width: 2.5, color: { hex: "777777", alpha: 1 } },
    ground: white,
    barWidth: 90,
    lineWidth: 5,
    label: "Revenue by region. EMEA: Q1 12 $M, Q2 15 $M",
    ...extra,
  };
}

describe("native charts", () => {
  const singleBar = chartItem({
    labels: ["Apr", "May", "Sep"],
    series: [{ name: "Revenue", values: [42, 48, 94], color: { hex: "1D4ED8", alpha: 1 } }],
    highlight: { index: 2, color: { hex: "C2410C", alpha: 1 } },
    format: { value: ["$", ""], axis: ["$", ""] },
    title: null,
    legend: null,
    label: "Apr: $42, May: $48, Sep: $94",
  });
  const line = chartItem({
    type: "line",
    labels: ["Jan", "Feb", "Mar"],
    series: [{ name: "Sign-ups", values: [40, 44.5, 47], color: { hex: "1D4ED8", alpha: 1 } }],
    highlight: { index: 1, color: { hex: "C2410C", alpha: 1 } },
    legend: null,
  });
  const pie = chartItem({
    type: "pie",
    labels: ["A", "B", "C"],
    series: [{ name: "Share", values: [50, 30, 20], color: { hex: "1D4ED8", alpha: 1 } }],
    pointColors: ["1D4ED8", "0F766E", "C2410C"].map((hex) => ({ hex, alpha: 1 })),
    axis: null,
  });
  const slides: SlideModel[] = [
    { background: white, items: [chartItem()] },
    { background: white, items: [chartItem({ stacked: true }), singleBar] },
    { background: white, items: [line, pie] },
  ];

  it("writes each chart as a chart part with its data, an embedded workbook, the highlight and alt text", async () => {
    const bytes = await buildPptx({ title: "Charts", slides, notes: ["", "", ""], rasters: new Map() });
    const parts = await readPptxXml(bytes);
    const zip = await JSZip.loadAsync(bytes);
    const chartNames = [...parts.keys()].filter((name) => /^ppt\/charts\/chart\d+\.xml$/.test(name));
    expect(chartNames).toHaveLength(5);
    const charts = chartNames
      .sort((a, b) => Number(/(\d+)\.xml$/.exec(a)![1]) - Number(/(\d+)\.xml$/.exec(b)![1]))
      .map((name) => parts.get(name)!);
    for (const [index, chart] of charts.entries()) {
      expect(chart.getElementsByTagName("c:chart")).toHaveLength(1);
      // Each chart part points at its own workbook, stored in the file: "Edit Data" opens it.
      const rels = parts.get(chartNames[index]!.replace("charts/", "charts/_rels/") + ".rels")!;
      const target = attributeValues(rels, "Relationship", "Target").find((value) => value.endsWith(".xlsx"));
      expect(target).toBeDefined();
      const workbook = zip.file(`ppt/embeddings/${target!.split("/").pop()}`);
      expect(workbook).not.toBeNull();
      const sheet = await JSZip.loadAsync(await workbook!.async("nodebuffer"));
      expect(Object.keys(sheet.files)).toContain("xl/worksheets/sheet1.xml");
    }
    // Grouped: both series by name with their values, the gap kept as an empty value.
    const grouped = charts[0]!;
    expect(grouped.getElementsByTagName("c:barChart")).toHaveLength(1);
    expect(attributeValues(grouped, "c:grouping", "val")).toEqual(["clustered"]);
    const names = [...grouped.getElementsByTagName("c:ser")].map(
      (series) => series.getElementsByTagName("c:tx")[0]!.getElementsByTagName("c:v")[0]!.textContent,
    );
    expect(names).toEqual(["EMEA", "Americas"]);
    expect(texts(grouped, "a:t")).toContain("Revenue by region");
    const values = [...grouped.getElementsByTagName("c:val")].map((val) =>
      [...val.getElementsByTagName("c:v")].map((v) => v.textContent),
    );
    expect(values).toEqual([
      ["12", "15", "18", "22"],
      ["20", "22", "", "31"],
    ]);
    expect(texts(grouped, "c:v")).toEqual(expect.arrayContaining(["Q1", "Q4"]));
    expect(attributeValues(grouped, "a:srgbClr", "val")).toEqual(expect.arrayContaining(["1D4ED8", "0F766E"]));
    expect(attributeValues(grouped, "c:numFmt", "formatCode")).toContain('#,##0" $M";"−"#,##0" $M"');
    expect(grouped.getElementsByTagName("c:legend")).toHaveLength(1);
    expect(attributeValues(charts[1]!, "c:grouping", "val")).toEqual(["stacked"]);
    // Stacked bars' labels sit inside the segment ends (the totals moved above them); never outside.
    expect(attributeValues(charts[1]!, "c:dLblPos", "val")).not.toContain("outEnd");
    expect(texts(charts[1]!, "a:t")).toEqual(expect.arrayContaining(["32 $M", "53 $M"]));
    // The highlighted bar and point: a data point of their own with the highlight colour.
    for (const chart of [charts[2]!, charts[3]!]) {
      const points = [...chart.getElementsByTagName("c:dPt")];
      expect(points).toHaveLength(1);
      const values = (tag: string) =>
        [...points[0]!.getElementsByTagName(tag)].map((element) => element.getAttribute("val"));
      expect(values("c:idx")).toEqual([chart === charts[2] ? "2" : "1"]);
      expect(values("a:srgbClr")).toContain("C2410C");
    }
    expect(charts[3]!.getElementsByTagName("c:lineChart")).toHaveLength(1);
    expect(charts[4]!.getElementsByTagName("c:doughnutChart")).toHaveLength(1);
    // Alt text on the graphic frames, and no picture in place of a chart.
    const slideDocs = slideParts(parts);
    const frames = slideDocs.flatMap((slide) => [...slide.getElementsByTagName("p:graphicFrame")]);
    expect(frames.map((frame) => frame.getElementsByTagName("p:cNvPr")[0]!.getAttribute("descr"))).toEqual(
      expect.arrayContaining(["Apr: $42, May: $48, Sep: $94", "Revenue by region. EMEA: Q1 12 $M, Q2 15 $M"]),
    );
    expect(slideDocs.flatMap((slide) => [...slide.getElementsByTagName("p:pic")])).toHaveLength(0);
  });

  it("keeps hostile names, labels, units and fonts as text in the chart parts and their workbooks", async () => {
    const hostile = `Fish & <chips> "quoted" 'single' $& $' \u0001\uFFFF end`;
    const kept = `Fish & <chips> "quoted" 'single' $& $'  end`;
    const style = { font: `Evil"Font' $& $' <b> & x="1"`, size: 24, bold: true, color: ink };
    const item = chartItem({
      labels: [hostile, "B", "C", "D"],
      series: [{ name: hostile, values: [1, 2, 3, 4], color: ink }],
      highlight: { index: 0, color: white },
      format: { value: [`$"<&`, `" $&'`], axis: ["", ""] },
      title: { text: hostile, rect: { x: 96, y: 200, w: 600, h: 40 }, style },
      legend: { rect: { x: 96, y: 260, w: 600, h: 32 }, style },
      value: style,
      label: hostile,
    });
    const stacked = chartItem({ stacked: true, format: { value: [`$"<&`, `" $&'`], axis: ["", ""] }, value: style });
    const bytes = await buildPptx({
      title: "T",
      slides: [{ background: null, items: [item, stacked] }],
      notes: [""],
      rasters: new Map(),
    });
    const parts = await readPptxXml(bytes);
    const chart = parts.get(
      "ppt/charts/chart" +
        Math.min(
          ...[...parts.keys()].flatMap((name) => /^ppt\/charts\/chart(\d+)\.xml$/.exec(name)?.[1] ?? []).map(Number),
        ) +
        ".xml",
    )!;
    expect(texts(chart, "c:v")).toEqual(expect.arrayContaining([kept]));
    expect(texts(chart, "a:t")).toContain(kept);
    expect(attributeValues(chart, "a:latin", "typeface")).toContain(`Evil"Font' $& $' <b> & x="1"`);
    const frames = slideParts(parts).flatMap((slide) => attributeValues(slide, "p:cNvPr", "descr"));
    expect(frames).toContain(kept);
    const zip = await JSZip.loadAsync(bytes);
    for (const name of Object.keys(zip.files).filter((part) => part.endsWith(".xlsx"))) {
      const workbook = await readPptxXml(await zip.file(name)!.async("nodebuffer"));
      expect(workbook.size).toBeGreaterThan(0);
    }
  });

  it("refuses a chart whose series do not match its categories, or too many categories", async () => {
    const build = (item: ChartItem) =>
      buildPptx({ title: "T", slides: [{ background: null, items: [item] }], notes: [""], rasters: new Map() });
    await expect(build(chartItem({ labels: ["A"] }))).rejects.toBeInstanceOf(DeckFaultError);
    const many = Array.from({ length: 2_000 }, (_, index) => String(index));
    await expect(
      build(chartItem({ labels: many, series: [{ name: "x", values: many.map(Number), color: ink }] })),
    ).rejects.toBeInstanceOf(DeckFaultError);
    await expect(build(chartItem({ highlight: { index: 9, color: ink } }))).rejects.toBeInstanceOf(DeckFaultError);
  });
});

describe("a model that is not what the extractor produces", () => {
  const valid = textSlide([run("Hello")]);

  async function build(slides: unknown, notes: unknown = [""]) {
    return buildPptx({ title: "T", slides: slides as SlideModel[], notes: notes as string[], rasters: new Map() });
  }

  it("builds the valid model", async () => {
    await expect(build([valid])).resolves.toBeInstanceOf(Buffer);
  });

  const broken: [string, unknown, unknown?][] = [
    ["a font with a line break", [textSlide([run("x", { font: 'Inter\n"/><p:sp/>' })])]],
    ["an empty font", [textSlide([run("x", { font: "" })])]],
    ["a font of a thousand characters", [textSlide([run("x", { font: "F".repeat(1_000) })])]],
    ["a font with a lone surrogate", [textSlide([run("x", { font: "Inter\uD800" })])]],
    ["a colour that is not six hex digits", [textSlide([run("x", { color: { hex: '000000"/><x y="', alpha: 1 } })])]],
    ["a colour in lower case", [textSlide([run("x", { color: { hex: "ff0000", alpha: 1 } })])]],
    ["an alpha above 1", [textSlide([run("x", { color: { hex: "FF0000", alpha: 2 } })])]],
    ["a NaN coordinate", [{ ...valid, items: [{ ...valid.items[0]!, rect: { x: Number.NaN, y: 0, w: 10, h: 10 } }] }]],
    ["an infinite font size", [textSlide([run("x", { size: Number.POSITIVE_INFINITY })])]],
    ["a javascript: link", [textSlide([run("x", { href: "javascript:alert(1)" })])]],
    ["a link with a space", [textSlide([run("x", { href: "https://example.com/a b" })])]],
    [
      "a box a billion pixels wide",
      [{ ...valid, items: [{ ...valid.items[0]!, rect: { x: 0, y: 0, w: 1e9, h: 10 } }] }],
    ],
    [
      "a table with fewer heights than rows",
      [
        {
          background: null,
          items: [{ kind: "table", rect: { x: 0, y: 0, w: 1, h: 1 }, columnWidths: [1], rowHeights: [], rows: [[]] }],
        },
      ],
    ],
    [
      "a picture id used twice",
      [
        {
          background: null,
          items: [1, 1].map((id) => ({
            kind: "raster",
            rect: { x: 0, y: 0, w: 1, h: 1 },
            id,
            alone: false,
            label: "",
          })),
        },
      ],
    ],
    ["notes of a megabyte", [valid], ["n".repeat(1_000_000)]],
    ["no slides", []],
    ["an unknown item kind", [{ background: null, items: [{ kind: "script", rect: { x: 0, y: 0, w: 1, h: 1 } }] }]],
    ["an extra field", [{ ...valid, extra: "<evil/>" }]],
    ["ten thousand slides", Array.from({ length: 10_000 }, () => valid)],
    ["a run of a million characters", [textSlide([run("x".repeat(1_000_000))])]],
    ["not an array", { 0: valid }],
  ];
  it.each(broken)("refuses %s as the deck's fault", async (_, slides, notes?: unknown) => {
    const error = await build(slides, notes).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DeckFaultError);
    expect((error as Error).message).toMatch(/^The slides could not be exported to PowerPoint/);
  });
});

describe("escapeXml", () => {
  it("escapes markup, keeps tab, newline and carriage return as references", () => {
    expect(escapeXml(`a&b<c>d"e'f`)).toBe("a&amp;b&lt;c&gt;d&quot;e&apos;f");
    expect(escapeXml("a\tb\nc\rd")).toBe("a&#9;b&#10;c&#13;d");
    expect(escapeXml("&amp;")).toBe("&amp;amp;");
  });

  it("drops what XML 1.0 cannot hold: control characters, lone surrogates, U+FFFE and U+FFFF", () => {
    const controls = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).join("");
    expect(xmlChars(controls)).toBe("\t\n\r");
    expect(xmlChars("a\uD800b\uDC00c\uDBFF")).toBe("abc");
    expect(xmlChars("\uFFFE\uFFFFx\uFFFD")).toBe("x\uFFFD");
    // Proper pairs, the rest of the BMP and C1 controls (allowed by XML 1.0) are kept.
    expect(xmlChars("😀 \u{10FFFF} é \u0085 \uE000")).toBe("😀 \u{10FFFF} é \u0085 \uE000");
    expect(escapeXml("<\u0000>")).toBe("&lt;&gt;");
  });
});

describe("parseExportModel", () => {
  it("returns the model when it is what the extractor produces", () => {
    const slides = [textSlide([run("Hello", { href: "https://example.com/?a=1&b=2", breakAfter: true })])];
    expect(parseExportModel({ slides, notes: ["n"] })).toEqual({ slides, notes: ["n"] });
  });

  it("says where the problem is", () => {
    const slides = [textSlide([run("a")]), textSlide([run("b"), run("c", { font: "Bad\u0001Font" })])];
    expect(() => parseExportModel({ slides, notes: [] })).toThrow(
      /^The slides could not be exported to PowerPoint: slide 2, item 1, run 2, font: a font is one plain family name\.$/,
    );
  });

  it("keeps the message short when the model quotes something long", () => {
    const slides = [{ ...textSlide([run("a")]), ["k".repeat(100_000)]: 1 }];
    let message = "";
    try {
      parseExportModel({ slides, notes: [] });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^The slides could not be exported to PowerPoint: slide 1: Unrecognized key/);
    expect(message.length).toBeLessThan(300);
  });

  it("allows only http(s) and mailto links", () => {
    expect(isExportableLink("https://example.com/docs")).toBe(true);
    expect(isExportableLink("mailto:someone@example.com")).toBe(true);
    for (const link of [
      "javascript:alert(1)",
      "data:text/html,x",
      "file:///etc/passwd",
      "ftp://x",
      "/relative",
      "https://x/\u0001",
    ])
      expect(isExportableLink(link), link).toBe(false);
  });
});

describe("lists, code and single lines", () => {
  const blue = { hex: "1D4ED8", alpha: 1 };
  const list = (marker: TextList["marker"], font = "Inter"): TextList => ({
    marker,
    color: blue,
    font,
    sizePercent: marker.kind === "number" ? 70 : 100,
    indent: 48,
    gap: 24,
  });
  const listItem = (textList: TextList): TextItem => ({
    kind: "text",
    rect: { x: 100, y: 100, w: 1000, h: 200 },
    runs: [
      run("First "),
      run("point", { bold: true, breakAfter: true }),
      run("Second", { breakAfter: true }),
      run("Third"),
    ],
    align: "left",
    lineHeight: 48,
    singleLine: false,
    list: textList,
  });
  const paragraphsOf = async (items: SlideModel["items"]) => {
    const bytes = await buildPptx({
      title: "L",
      slides: [{ background: white, items }],
      notes: [""],
      rasters: new Map(),
    });
    const [part] = slideParts(await readPptxXml(bytes));
    return [...part!.getElementsByTagName("a:p")];
  };

  it("writes a list as paragraphs with one a:pPr each: the bullet in its colour, font and size, the indent and the gap", async () => {
    for (const [marker, tag, value] of [
      [{ kind: "char", char: "✓" }, "a:buChar", "✓"],
      [{ kind: "number" }, "a:buAutoNum", "arabicPlain"],
    ] as const) {
      const paragraphs = await paragraphsOf([listItem(list(marker, `Evil"Font' $& $' <b> & x="1"`))]);
      expect(paragraphs.map((paragraph) => texts(paragraph as never, "a:t").join(""))).toEqual([
        "First point",
        "Second",
        "Third",
      ]);
      paragraphs.forEach((paragraph, index) => {
        const properties = [...paragraph.childNodes].filter((node) => node.nodeName === "a:pPr");
        expect(properties).toHaveLength(1);
        expect(paragraph.firstChild?.nodeName).toBe("a:pPr");
        const pPr = paragraph.getElementsByTagName("a:pPr")[0]!;
        expect(pPr.getAttribute("marL")).toBe(String(Math.round(48 * 0.5 * 12_700)));
        expect(pPr.getAttribute("indent")).toBe(String(-Math.round(48 * 0.5 * 12_700)));
        const bullet = pPr.getElementsByTagName(tag)[0]!;
        expect(bullet.getAttribute(tag === "a:buChar" ? "char" : "type")).toBe(value);
        expect(pPr.getElementsByTagName("a:buClr")[0]!.getElementsByTagName("a:srgbClr")[0]!.getAttribute("val")).toBe(
          "1D4ED8",
        );
        expect(pPr.getElementsByTagName("a:buFont")[0]!.getAttribute("typeface")).toBe(`Evil"Font' $& $' <b> & x="1"`);
        // The schema's order: colour, size, font, then the bullet.
        expect([...pPr.childNodes].map((node) => node.nodeName).filter((name) => name.startsWith("a:bu"))).toEqual([
          "a:buClr",
          "a:buSzPct",
          "a:buFont",
          tag,
        ]);
        expect(pPr.getElementsByTagName("a:spcBef").length).toBe(index === 0 ? 0 : 1);
      });
    }
  });

  it("keeps the leading spaces of code lines, its empty lines and its hanging indent", async () => {
    const lines = ["def f(x):", "    if x:", "", "        return 1"];
    const paragraphs = await paragraphsOf([
      {
        kind: "text",
        rect: { x: 100, y: 100, w: 1000, h: 200 },
        runs: lines.map((line, index) => run(line, { font: "JetBrains Mono", breakAfter: index < lines.length - 1 })),
        align: "left",
        lineHeight: 48,
        singleLine: false,
        preformatted: { hangingIndent: 28 },
      },
    ]);
    expect(paragraphs.map((paragraph) => texts(paragraph as never, "a:t").join(""))).toEqual(lines);
    // Wrapped lines hang 28 px (14 pt) under their first.
    for (const paragraph of paragraphs) {
      const properties = paragraph.getElementsByTagName("a:pPr")[0]!;
      expect([properties.getAttribute("marL"), properties.getAttribute("indent")]).toEqual(["177800", "-177800"]);
    }
  });

  it("makes a single-line box at least its text's width and more, growing away from its alignment", () => {
    const line = (align: TextItem["align"], textWidth: number, letterSpacing = 0): TextItem => ({
      kind: "text",
      rect: { x: 500, y: 0, w: 400, h: 40 },
      runs: [run("QUESTIONS AND DISCUSSION", { size: 28, letterSpacing })],
      align,
      lineHeight: 36,
      singleLine: true,
      textWidth,
    });
    const left = textBoxSpan(line("left", 600));
    expect(left.x).toBe(500);
    expect(left.w).toBeGreaterThanOrEqual(600 * 1.08);
    const centre = textBoxSpan(line("center", 600));
    expect(centre.x + centre.w / 2).toBeCloseTo(700);
    const right = textBoxSpan(line("right", 600));
    expect(right.x + right.w).toBeCloseTo(900);
    // Letter spacing widens it further.
    expect(textBoxSpan(line("left", 600, 3.4)).w).toBeGreaterThan(left.w + 3.4 * 24 * 0.2);
  });

  it("accepts a list of one visible bullet character or numbering, and refuses anything else", () => {
    const check = (textList: unknown) => {
      const slide = textSlide([run("x")]);
      (slide.items[0] as { list?: unknown }).list = textList;
      return () => parseExportModel({ slides: [slide], notes: [""] });
    };
    expect(check(list({ kind: "char", char: "•" }))).not.toThrow();
    expect(check(list({ kind: "number" }))).not.toThrow();
    for (const char of ["", "••", " ", "\u0007", "\u200B", "\uD800"]) {
      expect(check(list({ kind: "char", char })), JSON.stringify(char)).toThrow(DeckFaultError);
    }
    expect(check({ ...list({ kind: "number" }), sizePercent: 1_000 })).toThrow(DeckFaultError);
    expect(check({ ...list({ kind: "number" }), extra: 1 })).toThrow(DeckFaultError);
  });
});

describe("pictures: gradient scrims, icons, stored images", () => {
  const ground = { hex: "FAFAF9", alpha: 0.92 };
  const scrim = (gradient: unknown): SlideModel =>
    ({
      background: white,
      items: [
        {
          kind: "shape",
          rect: { x: 0, y: 0, w: 1920, h: 1080 },
          fill: null,
          gradient,
          border: null,
          radius: 0,
          ellipse: false,
          shadow: null,
        },
      ],
    }) as SlideModel;
  const linear = {
    kind: "linear",
    angle: 180,
    stops: [
      { color: ground, at: 0 },
      { color: { hex: "FAFAF9", alpha: 0.45 }, at: 1 },
    ],
  };

  it("writes a gradient scrim as a:gradFill with an alpha on each stop, linear by angle or radial from the centre", async () => {
    const radial = { ...linear, kind: "radial", angle: 180 };
    const bytes = await buildPptx({
      title: "G",
      slides: [scrim(linear), scrim({ ...linear, angle: 100 }), scrim(radial)],
      notes: ["", "", ""],
      rasters: new Map(),
    });
    const slides = slideParts(await readPptxXml(bytes));
    for (const slide of slides) {
      const fill = slide.getElementsByTagName("a:gradFill")[0]!;
      expect(fill).toBeDefined();
      expect(slide.getElementsByTagName("a:solidFill").length).toBe(1); // the slide's background only
      expect(attributeValues(slide, "a:gs", "pos")).toEqual(["0", "100000"]);
      expect(attributeValues(slide, "a:alpha", "val")).toEqual(["92000", "45000"]);
      expect(attributeValues(slide, "a:srgbClr", "val").slice(-2)).toEqual(["FAFAF9", "FAFAF9"]);
    }
    // CSS 180deg (downwards) is DrawingML's 90°, CSS 100deg is 10°.
    expect(attributeValues(slides[0]!, "a:lin", "ang")).toEqual(["5400000"]);
    expect(attributeValues(slides[1]!, "a:lin", "ang")).toEqual(["600000"]);
    expect(attributeValues(slides[2]!, "a:path", "path")).toEqual(["circle"]);
  });

  it("refuses gradients out of order, with one stop, too many, or at an angle out of range", () => {
    const parse = (gradient: unknown) => () => parseExportModel({ slides: [scrim(gradient)], notes: [""] });
    expect(parse(linear)).not.toThrow();
    expect(
      parse({ ...linear, stops: [...linear.stops].reverse().map((stop, i) => ({ ...stop, at: i })) }),
    ).not.toThrow();
    expect(parse({ ...linear, stops: [linear.stops[1], { ...linear.stops[0], at: 0.5 }] })).toThrow(DeckFaultError);
    expect(parse({ ...linear, stops: [linear.stops[0]] })).toThrow(DeckFaultError);
    expect(parse({ ...linear, stops: Array.from({ length: 17 }, () => linear.stops[0]) })).toThrow(DeckFaultError);
    expect(parse({ ...linear, angle: 720 })).toThrow(DeckFaultError);
    expect(parse({ ...linear, kind: "conic" })).toThrow(DeckFaultError);
  });

  it("places an icon as an SVG picture with its screenshot as the PNG fallback and its name as alt text", async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="48" height="48" fill="none" stroke="#1D4ED8"><path d="M20 6 9 17l-5-5"/></svg>';
    const bytes = await buildPptx({
      title: "I",
      slides: [
        {
          background: white,
          items: [
            { kind: "raster", rect: { x: 10, y: 10, w: 48, h: 48 }, id: 1, alone: false, label: "Icon: check", svg },
          ],
        },
      ],
      notes: [""],
      rasters: new Map([[1, { png: onePixel, width: 48, height: 48, svg }]]),
    });
    const parts = await readPptxXml(bytes);
    const [slide] = slideParts(parts);
    expect(attributeValues(slide!, "p:cNvPr", "descr")).toContain("Icon: check");
    const png = attributeValues(slide!, "a:blip", "r:embed")[0];
    const vector = attributeValues(slide!, "asvg:svgBlip", "r:embed")[0];
    const rels = [...parts.get("ppt/slides/_rels/slide1.xml.rels")!.getElementsByTagName("Relationship")];
    const target = (id: string | undefined) =>
      rels.find((rel) => rel.getAttribute("Id") === id)?.getAttribute("Target");
    expect(target(png)).toMatch(/\.png$/);
    expect(target(vector)).toMatch(/\.svg$/);
    const zip = await JSZip.loadAsync(bytes);
    expect((await zip.file(`ppt/${target(png)!.slice(3)}`)!.async("nodebuffer")).equals(onePixel)).toBe(true);
    expect(await zip.file(`ppt/${target(vector)!.slice(3)}`)!.async("string")).toBe(svg);
  });

  it("scales a stored image down to twice the size it covers, once however often it is shown", async () => {
    const sharp = (await import("sharp")).default;
    const photo = await sharp({ create: { width: 6000, height: 3375, channels: 3, background: "#88ccff" } })
      .jpeg()
      .toBuffer();
    const small = await sharp({ create: { width: 1600, height: 900, channels: 3, background: "#ff8800" } })
      .jpeg()
      .toBuffer();
    const background = (id: number, width: number, height: number): SlideModel["items"][number] => ({
      kind: "raster",
      rect: { x: 0, y: 0, w: 1920, h: 1080 },
      id,
      alone: false,
      label: "Background image: Harbour",
      asset: { path: `/assets/${String(id).repeat(64)}.jpg`, fit: "cover", width, height },
    });
    const bytes = await buildPptx({
      title: "S",
      slides: [
        { background: white, items: [background(1, 6000, 3375)] },
        { background: white, items: [background(2, 6000, 3375)] },
        { background: white, items: [background(3, 1600, 900)] },
      ],
      notes: ["", "", ""],
      rasters: new Map([
        [1, { png: photo, width: 1920, height: 1080, contentType: "image/jpeg" }],
        [2, { png: photo, width: 1920, height: 1080, contentType: "image/jpeg" }],
        [3, { png: small, width: 1920, height: 1080, contentType: "image/jpeg" }],
      ]),
    });
    const zip = await JSZip.loadAsync(bytes);
    const media = Object.keys(zip.files).filter((name) => name.startsWith("ppt/media/") && !zip.files[name]!.dir);
    expect(media).toHaveLength(2);
    const sizes = await Promise.all(
      media.map(async (name) => {
        const data = await zip.file(name)!.async("nodebuffer");
        const { width, height } = await sharp(data).metadata();
        return { width, height, same: data.equals(small) };
      }),
    );
    expect(sizes).toEqual(
      expect.arrayContaining([
        { width: 3840, height: 2160, same: false },
        { width: 1600, height: 900, same: true },
      ]),
    );
  });
});
