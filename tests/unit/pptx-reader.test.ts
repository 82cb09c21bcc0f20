import fs from "node:fs";
import path from "node:path";
import { deflateRawSync } from "node:zlib";
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/core/errors";
import type { PptxDeck, Shape } from "@/lib/import/pptx/model";
import { pptxLimits, readPptx } from "@/lib/import/pptx/read-pptx";
import { zipLimits } from "@/lib/import/pptx/zip";
import { statusOf } from "@/lib/api/status";

// The PowerPoint reader (lib/import/pptx) on the shared samples, on packages crafted here for each mapping,
// and on hostile packages: each refused with a 422 naming the problem, quickly.

const SAMPLES = path.join(import.meta.dirname, "../fixtures/pptx");
const sample = (name: string) => fs.readFileSync(path.join(SAMPLES, name));
const BASE = "python-pptx-sld-notes.pptx";

const NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

function rels(items: Array<[id: string, type: string, target: string, external?: boolean]>): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items
    .map(
      ([id, type, target, external]) =>
        `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"${external ? ' TargetMode="External"' : ""}/>`,
    )
    .join("")}</Relationships>`;
}

const xfrm = (x: number, y: number, w: number, h: number) =>
  `<a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="${w}" cy="${h}"/></a:xfrm>`;

const layout = `<?xml version="1.0" encoding="UTF-8"?><p:sldLayout ${NS}><p:cSld name="Title and Content"><p:bg><p:bgPr><a:gradFill><a:gsLst><a:gs pos="0"><a:srgbClr val="112233"/></a:gs><a:gs pos="100000"><a:schemeClr val="accent1"/></a:gs></a:gsLst><a:lin ang="5400000"/></a:gradFill></p:bgPr></p:bg><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>
<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr>${xfrm(100, 200, 3000, 400)}</p:spPr><p:txBody><a:bodyPr/><a:lstStyle/><a:p/></p:txBody></p:sp>
<p:sp><p:nvSpPr><p:cNvPr id="3" name="Body"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr><p:spPr>${xfrm(100, 700, 3000, 2000)}</p:spPr><p:txBody><a:bodyPr/><a:lstStyle><a:lvl1pPr><a:buChar char="•"/></a:lvl1pPr><a:lvl2pPr><a:buChar char="–"/></a:lvl2pPr></a:lstStyle><a:p/></p:txBody></p:sp>
</p:spTree></p:cSld></p:sldLayout>`;

function slide(body: string, attrs = ""): string {
  return `<?xml version="1.0" encoding="UTF-8"?><p:sld ${NS}${attrs}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${body}</p:spTree></p:cSld></p:sld>`;
}

const titleShape = (text: string) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="10" name="Title 1"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:p><a:r><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>`;

/** The base sample with its first slide (and layout) replaced, and any other parts added or replaced. */
async function craft(
  slideXml: string,
  slideRels: Array<[string, string, string, boolean?]> = [],
  parts: Record<string, string | Buffer> = {},
): Promise<Buffer> {
  const zip = await JSZip.loadAsync(sample(BASE));
  zip.file("ppt/slideLayouts/slideLayout1.xml", layout);
  zip.file("ppt/slides/slide1.xml", slideXml);
  zip.file(
    "ppt/slides/_rels/slide1.xml.rels",
    rels([
      ["rIdL", "slideLayout", "../slideLayouts/slideLayout1.xml"],
      ["rIdN", "notesSlide", "../notesSlides/notesSlide1.xml"],
      ...slideRels,
    ]),
  );
  for (const [name, content] of Object.entries(parts)) zip.file(name, content);
  return zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
}

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("expected a refusal");
}

function flat(shapes: Shape[]): Shape[] {
  return shapes.flatMap((shape) => (shape.kind === "group" ? [shape, ...flat(shape.children)] : [shape]));
}

const text = (shape: Shape | undefined) =>
  shape && shape.kind === "text" ? shape.paragraphs.map((p) => p.runs.map((r) => r.text).join("")).join("\n") : "";

describe("PowerPoint reader: the samples", () => {
  const read = (name: string): PptxDeck => readPptx(sample(name));

  it("reads every valid sample's slides in order, and refuses the cut-short one", () => {
    const counts: Record<string, number> = {};
    for (const name of fs.readdirSync(SAMPLES).filter((file) => file !== "poi-Divino_Revelado.pptx")) {
      counts[name] = read(name).slides.length;
    }
    expect(counts).toMatchObject({
      "poi-SampleShow.pptx": 2,
      "poi-ae.ac.uaeu.faculty_nafaachbili_GeomLec1.pptx": 14,
      "poi-backgrounds.pptx": 4,
      "poi-layouts.pptx": 10,
      "python-pptx-mst-slide-layouts.pptx": 0,
      "python-pptx-ph-populated-placeholders.pptx": 9,
    });
    const error = refusal(() => read("poi-Divino_Revelado.pptx"));
    expect(statusOf(error)).toBe(422);
    expect(error.message).toMatch(/not a ZIP archive, or it is cut short/);
  });

  it("reads a bar chart from the chart part's caches, and backgrounds of each kind", () => {
    const bar = flat(read("poi-bar-chart.pptx").slides[0]!.shapes).find((shape) => shape.kind === "chart");
    expect(bar?.kind === "chart" && bar.chart).toEqual({
      type: "bar",
      stacked: false,
      categories: ["1st Qtr", "2nd Qtr", "3rd Qtr", "4th Qtr"],
      series: [{ name: "Sales", values: [8.200000000000001, 3.2, 1.4, 1.2] }],
    });
    expect(read("poi-backgrounds.pptx").slides.map((s) => s.background?.kind)).toEqual([
      "solid",
      "gradient",
      "gradient",
      "picture",
    ]);
  });

  it("keeps pictures' crop and alt text, groups in slide coordinates, notes and Japanese text", () => {
    const pictures = flat(read("python-pptx-shp-picture.pptx").slides[0]!.shapes);
    expect(pictures[1]).toMatchObject({ kind: "picture", alt: "python-powered.png", crop: { left: 15.479 } });
    const group = read("python-pptx-shp-groupshape.pptx").slides[0]!.shapes[0]!;
    expect(group.kind === "group" && group.children.map((child) => child.frame?.x)).toEqual([
      3347864, 5940152, 4355976,
    ]);
    expect(read("python-pptx-sld-notes.pptx").slides[0]!.notes).toBe("Notes");
    const japanese = read("poi-with_japanese.pptx").slides[0]!.shapes.map(text).join(" ");
    expect(japanese).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
  });
});

describe("PowerPoint reader: what maps", () => {
  it("places placeholders from their layout, inherits bullets per level, and reads numbering and runs", async () => {
    const body = `<p:sp><p:nvSpPr><p:cNvPr id="11" name="Content"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>
<a:p><a:r><a:rPr b="1"/><a:t>Bold</a:t></a:r><a:r><a:rPr i="1" u="sng"><a:solidFill><a:srgbClr val="ff0000"/></a:solidFill></a:rPr><a:t> red</a:t></a:r></a:p>
<a:p><a:pPr lvl="1"/><a:r><a:rPr><a:hlinkClick r:id="rIdH"/></a:rPr><a:t>a link</a:t></a:r></a:p>
<a:p><a:pPr><a:buAutoNum type="arabicPeriod" startAt="3"/></a:pPr><a:r><a:t>third</a:t></a:r></a:p>
<a:p><a:pPr><a:buNone/></a:pPr><a:r><a:t>plain</a:t></a:r></a:p></p:txBody></p:sp>`;
    const deck = readPptx(
      await craft(slide(titleShape("Hello") + body, ' show="0"'), [
        ["rIdH", "hyperlink", "https://example.com/x", true],
      ]),
    );
    const [title, content] = deck.slides[0]!.shapes;
    expect(deck.slides[0]!.hidden).toBe(true);
    expect(deck.slides[0]!.layoutName).toBe("Title and Content");
    expect(title).toMatchObject({ kind: "text", placeholder: { type: "title" }, frame: { x: 100, y: 200 } });
    expect(content).toMatchObject({ kind: "text", frame: { x: 100, y: 700, width: 3000, height: 2000 } });
    const paragraphs = content?.kind === "text" ? content.paragraphs : [];
    expect(paragraphs.map((p) => [p.level, p.bullet])).toEqual([
      [0, { kind: "char", char: "•" }],
      [1, { kind: "char", char: "–" }],
      [0, { kind: "number", scheme: "arabicPeriod", startAt: 3 }],
      [0, { kind: "none" }],
    ]);
    expect(paragraphs[0]!.runs).toEqual([
      { text: "Bold", bold: true },
      { text: " red", italic: true, underline: true, color: "#FF0000" },
    ]);
    expect(paragraphs[1]!.runs[0]).toEqual({ text: "a link", href: "https://example.com/x" });
    // The layout's gradient, its scheme colour resolved through the theme.
    expect(deck.slides[0]!.background).toMatchObject({
      kind: "gradient",
      angle: 90,
      stops: [{ color: "#112233" }, {}],
    });
    expect(deck.slides[0]!.notes).toBe("Notes");
  });

  it("reads tables with merged cells and a header row", async () => {
    const cell = (t: string, extra = "") =>
      `<a:tc${extra}><a:txBody><a:bodyPr/><a:p><a:r><a:t>${t}</a:t></a:r></a:p></a:txBody></a:tc>`;
    const table = `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Table 3"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="0" y="0"/><a:ext cx="100" cy="100"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr firstRow="1"/><a:tblGrid><a:gridCol w="50"/><a:gridCol w="50"/></a:tblGrid>
<a:tr h="10">${cell("Wide", ' gridSpan="2"')}${cell("", ' hMerge="1"')}</a:tr><a:tr h="10">${cell("Tall", ' rowSpan="2"')}${cell("b")}</a:tr><a:tr h="10">${cell("", ' vMerge="1"')}${cell("c")}</a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
    const shape = readPptx(await craft(slide(table))).slides[0]!.shapes[0]!;
    expect(shape.kind).toBe("table");
    if (shape.kind !== "table") return;
    expect(shape.headerRow).toBe(true);
    expect(shape.rows.map((row) => row.map((c) => [c.colSpan, c.rowSpan, c.merged]))).toEqual([
      [
        [2, 1, false],
        [1, 1, true],
      ],
      [
        [1, 2, false],
        [1, 1, false],
      ],
      [
        [1, 1, true],
        [1, 1, false],
      ],
    ]);
  });

  it("reads each chart kind from its caches", async () => {
    const ser = (name: string, values: number[]) =>
      `<c:ser><c:tx><c:strRef><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>${name}</c:v></c:pt></c:strCache></c:strRef></c:tx><c:cat><c:strRef><c:strCache><c:ptCount val="${values.length}"/>${values.map((_, i) => `<c:pt idx="${i}"><c:v>C${i}</c:v></c:pt>`).join("")}</c:strCache></c:strRef></c:cat><c:val><c:numRef><c:numCache><c:ptCount val="${values.length}"/>${values.map((v, i) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join("")}</c:numCache></c:numRef></c:val></c:ser>`;
    const scatter = `<c:ser><c:tx><c:v>S</c:v></c:tx><c:xVal><c:numRef><c:numCache><c:ptCount val="2"/><c:pt idx="0"><c:v>1</c:v></c:pt><c:pt idx="1"><c:v>2</c:v></c:pt></c:numCache></c:numRef></c:xVal><c:yVal><c:numRef><c:numCache><c:ptCount val="2"/><c:pt idx="0"><c:v>5</c:v></c:pt><c:pt idx="1"><c:v>7</c:v></c:pt></c:numCache></c:numRef></c:yVal></c:ser>`;
    const plots = [
      `<c:barChart><c:barDir val="col"/><c:grouping val="stacked"/>${ser("A", [1, 2])}${ser("B", [3, 4])}</c:barChart>`,
      `<c:lineChart>${ser("L", [1, 2])}</c:lineChart>`,
      `<c:pieChart>${ser("P", [1, 2])}</c:pieChart>`,
      `<c:doughnutChart>${ser("D", [1, 2])}</c:doughnutChart>`,
      `<c:areaChart>${ser("Ar", [1, 2])}</c:areaChart>`,
      `<c:scatterChart>${scatter}</c:scatterChart>`,
      `<c:radarChart>${ser("R", [1, 2])}</c:radarChart>`,
    ];
    const frames = plots
      .map(
        (_, i) =>
          `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="${20 + i}" name="Chart ${i}"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="0" y="0"/><a:ext cx="10" cy="10"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rIdC${i}"/></a:graphicData></a:graphic></p:graphicFrame>`,
      )
      .join("");
    const parts = Object.fromEntries(
      plots.map((plot, i) => [
        `ppt/charts/chart${i}.xml`,
        `<?xml version="1.0"?><c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart>${i === 0 ? "<c:title><c:tx><c:rich><a:p><a:r><a:t>Revenue</a:t></a:r></a:p></c:rich></c:tx></c:title>" : ""}<c:plotArea>${plot}</c:plotArea></c:chart></c:chartSpace>`,
      ]),
    );
    const deck = readPptx(
      await craft(
        slide(frames),
        plots.map((_, i) => [`rIdC${i}`, "chart", `../charts/chart${i}.xml`]),
        parts,
      ),
    );
    const charts = deck.slides[0]!.shapes.map((shape) => (shape.kind === "chart" ? shape.chart : null));
    expect(charts.map((chart) => chart?.type)).toEqual(["column", "line", "pie", "doughnut", "area", "scatter"]);
    expect(charts[0]).toEqual({
      type: "column",
      title: "Revenue",
      stacked: true,
      categories: ["C0", "C1"],
      series: [
        { name: "A", values: [1, 2] },
        { name: "B", values: [3, 4] },
      ],
    });
    expect(charts[5]?.series).toEqual([{ name: "S", values: [5, 7], x: [1, 2] }]);
    expect(deck.warnings).toContainEqual({
      slide: 1,
      message: 'a chart of a kind that is not drawn (radar) ("Chart 6")',
    });
  });

  it("flattens nested groups into slide coordinates and reads a picture background", async () => {
    const box = (id: number, x: number, y: number) =>
      `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Box ${id}"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr>${xfrm(x, y, 10, 10)}</p:spPr><p:txBody><a:bodyPr/><a:p><a:r><a:t>in group</a:t></a:r></a:p></p:txBody></p:sp>`;
    // The outer group doubles its children's space and moves it to (1000, 1000); the inner one moves by 100.
    const group = `<p:grpSp><p:nvGrpSpPr><p:cNvPr id="30" name="Outer"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="1000" y="1000"/><a:ext cx="200" cy="200"/><a:chOff x="0" y="0"/><a:chExt cx="100" cy="100"/></a:xfrm></p:grpSpPr>${box(31, 10, 10)}<p:grpSp><p:nvGrpSpPr><p:cNvPr id="32" name="Inner"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="50" y="50"/><a:ext cx="10" cy="10"/><a:chOff x="0" y="0"/><a:chExt cx="10" cy="10"/></a:xfrm></p:grpSpPr>${box(33, 0, 0)}</p:grpSp></p:grpSp>`;
    const bg = `<p:bg><p:bgPr><a:blipFill><a:blip r:embed="rIdI"/></a:blipFill></p:bgPr></p:bg>`;
    const xml = slide(group).replace("<p:cSld>", `<p:cSld>${bg}`);
    const png = sample("python-pptx-shp-picture.pptx");
    const image = (await JSZip.loadAsync(png)).file("ppt/media/image1.png")!;
    const deck = readPptx(
      await craft(xml, [["rIdI", "image", "../media/bg.png"]], { "ppt/media/bg.png": await image.async("nodebuffer") }),
    );
    const shapes = flat(deck.slides[0]!.shapes);
    expect(shapes.filter((s) => s.kind === "text").map((s) => [s.frame?.x, s.frame?.y, s.frame?.width])).toEqual([
      [1020, 1020, 20],
      [1100, 1100, 20],
    ]);
    expect(deck.slides[0]!.background).toEqual({ kind: "picture", media: "ppt/media/bg.png" });
    expect(deck.media["ppt/media/bg.png"]?.contentType).toBe("image/png");
  });
});

describe("PowerPoint reader: hostile and wrong input", () => {
  const fast = (run: () => unknown): AppError => {
    const started = performance.now();
    const error = refusal(run);
    // Not a timing assertion on the machine: a refusal must not inflate the package to find the problem.
    expect(performance.now() - started).toBeLessThan(60_000);
    return error;
  };

  it("refuses what is not a ZIP, a legacy .ppt and an encrypted package, each by name", () => {
    expect(fast(() => readPptx(Buffer.from("just some text, not a package"))).message).toMatch(/not a ZIP archive/);
    const ole = Buffer.alloc(4096);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(ole);
    expect(fast(() => readPptx(ole)).message).toMatch(/legacy PowerPoint 97–2003 \(\.ppt\)/);
    Buffer.from("EncryptionInfo", "utf16le").copy(ole, 1024);
    expect(fast(() => readPptx(ole)).message).toMatch(/password-protected \(encrypted\)/);
  });

  it("refuses a ZIP without a presentation part, and a Word document", async () => {
    const empty = new JSZip();
    empty.file("hello.txt", "hi");
    const error = fast(() => readPptx(Buffer.from([])));
    expect(statusOf(error)).toBe(422);
    const bytes = await empty.generateAsync({ type: "nodebuffer" });
    expect(fast(() => readPptx(bytes)).message).toMatch(/no presentation part/);
    const word = await JSZip.loadAsync(sample(BASE));
    word.file("ppt/presentation.xml", '<?xml version="1.0"?><w:document xmlns:w="urn:w"/>');
    const wordBytes = await word.generateAsync({ type: "nodebuffer" });
    expect(fast(() => readPptx(wordBytes)).message).toMatch(/not a presentation/);
  });

  it("stops a ZIP bomb while inflating: by ratio, by entry size, by total size, by entry count", async () => {
    const zip = await JSZip.loadAsync(sample(BASE));
    // 64 MB of zeros deflate to about 64 KB; the ratio cap stops the inflation at 200 times that.
    zip.file("ppt/slides/slide1.xml", Buffer.alloc(64 * 1024 * 1024, 0x20));
    const bomb = await zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
    const byRatio = fast(() => readPptx(bomb));
    expect(byRatio.code).toBe("payload_too_large");
    expect(byRatio.message).toMatch(/more than 200 times its compressed size/);
    const base = sample(BASE);
    expect(fast(() => readPptx(base, { ...zipLimits, maxEntryBytes: 2000 })).message).toMatch(/at most 2000 are read/);
    expect(fast(() => readPptx(base, { ...zipLimits, maxTotalBytes: 5000 })).message).toMatch(/in all/);
    expect(fast(() => readPptx(base, { ...zipLimits, maxEntries: 3 })).message).toMatch(/holds \d+ entries; at most 3/);
  });

  it("refuses entry names and relationship targets that climb out of the package", async () => {
    const deflated = deflateRawSync(Buffer.from("x"));
    const climbing = zipOf([["../../evil.txt", deflated, 1]]);
    expect(fast(() => readPptx(climbing)).message).toMatch(/names a path outside the package/);
    const rooted = zipOf([["/etc/passwd", deflated, 1]]);
    expect(fast(() => readPptx(rooted)).message).toMatch(/outside the package/);
    const bytes = await craft(slide(""), [["rIdX", "image", "../../../../etc/passwd"]]);
    expect(fast(() => readPptx(bytes)).message).toMatch(/points outside the package/);
  });

  it("refuses a DOCTYPE anywhere, so no entity is ever declared or resolved", async () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><p:sld ${NS}><p:cSld><p:spTree/></p:cSld></p:sld>`;
    const bytes = await craft(laughs);
    expect(fast(() => readPptx(bytes)).message).toMatch(/ppt\/slides\/slide1\.xml declares a DOCTYPE/);
    const external = await craft(`<?xml version="1.0"?><!DOCTYPE x SYSTEM "http://127.0.0.1:9/x.dtd"><p:sld ${NS}/>`);
    expect(fast(() => readPptx(external)).message).toMatch(/DOCTYPE/);
  });

  it("answers groups nested past what the reader follows with a 422 naming the file, not a server error", async () => {
    const group = `<p:grpSp><p:nvGrpSpPr><p:cNvPr id="2" name="g"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>`;
    const deep = await craft(slide(group.repeat(20_000) + "</p:grpSp>".repeat(20_000)));
    // (Its repeated XML compresses past the ZIP bomb ratio, which refuses it first; that cap is lifted here.)
    const error = refusal(() => readPptx(deep, { ...zipLimits, maxRatio: 1e9 }));
    expect(statusOf(error)).toBe(422);
    expect(error.message).toMatch(/^The PowerPoint file could not be read: it is damaged/);
  });

  it("refuses more than 500 slides and more than 50 MB before reading any slide", async () => {
    const zip = await JSZip.loadAsync(sample(BASE));
    const ids = Array.from({ length: pptxLimits.maxSlides + 1 }, (_, i) => `<p:sldId id="${256 + i}" r:id="rId2"/>`);
    const presentation = (await zip.file("ppt/presentation.xml")!.async("string")).replace(
      /<p:sldIdLst>.*<\/p:sldIdLst>/,
      `<p:sldIdLst>${ids.join("")}</p:sldIdLst>`,
    );
    zip.file("ppt/presentation.xml", presentation);
    const many = await zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
    const error = fast(() => readPptx(many));
    expect(error.code).toBe("payload_too_large");
    expect(error.message).toBe("The presentation has 501 slides; at most 500 are imported.");
    const huge = Buffer.alloc(pptxLimits.maxBytes + 1);
    expect(fast(() => readPptx(huge)).message).toMatch(/at most 50 MB is imported/);
  });
});

/** A ZIP written by hand, for names no library would write. */
function zipOf(entries: Array<[name: string, data: Buffer, size: number]>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data, size] of entries) {
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
