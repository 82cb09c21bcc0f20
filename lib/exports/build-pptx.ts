import { createHash } from "node:crypto";
import PptxGenJS from "pptxgenjs";
import sharp from "sharp";
import type {
  ChartItem,
  Gradient,
  RasterItem,
  Rgba,
  SlideModel,
  TextItem,
  TextList,
  TextRun,
} from "@/lib/contract/slide-model";
import { type EmbeddedFonts, embedShippedFonts } from "./embed-fonts";
import { sanitiseIconSvg } from "./icon-svg";
import { escapeXml, xmlChars } from "./ooxml";
import { addChart, finishCharts } from "./pptx-charts";
import { PackageParts } from "./package-parts";
import { parseExportModel } from "./pptx-model";

// Turns the extracted slide models into a PowerPoint file. The canvas is 1920x1080 px on a 13.333x7.5 in
// (16:9) slide: 144 px per inch, and since a point is 1/72 in, 0.5 pt per px.

const PX_PER_INCH = 144;
const PT_PER_PX = 0.5;

const inch = (value: number) => Math.round((value / PX_PER_INCH) * 10_000) / 10_000;
const pt = (value: number) => Math.round(value * PT_PER_PX * 100) / 100;
const transparency = (color: Rgba) => Math.round((1 - color.alpha) * 100);
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

// pptxgenjs (4.0.1) escapes run text, notes, the title, alt text and link targets itself (but leaves in
// characters XML cannot hold), and writes font faces, shadow colours and the company into attributes as
// they are. Every string from the model goes through exactly one of these two; the unit test reads each
// one back through an XML parser, so a pptxgenjs that changes either habit fails it.
const escapedByPptxgenjs = xmlChars;
const writtenAsIsByPptxgenjs = escapeXml;
const hex = (color: Rgba) => writtenAsIsByPptxgenjs(color.hex);

// PowerPoint's ranges: font sizes 1-4,000 pt, line spacing and line widths up to 1,584 pt.
const fontSize = (px: number) => (px > 0 ? clamp(pt(px), 1, 4_000) : undefined);
const MAX_SPACING_PT = 1_584;

const none: PptxGenJS.BorderProps = { type: "none" };

/**
 * A picture: a PNG screenshot, or a stored image's file (`contentType` set) placed as the item's `asset`
 * says; an icon's screenshot comes with its SVG (`svg`, checked against the icons' allow-list), which the file
 * holds as the picture, the PNG as its fallback.
 */
export type Raster = { png: Buffer; width: number; height: number; contentType?: string; svg?: string };

// A gradient fill (the scrim over a background image): pptxgenjs writes only solid fills, so the shape is
// written with its first stop's colour, named, and its fill replaced in the slide's XML by <a:gradFill>,
// each stop with its alpha. CSS angles point up at 0 and turn clockwise; DrawingML's point right at 0
// and turn clockwise, in 60,000ths of a degree. A radial gradient grows from the centre (position 0) to
// the corners, as CSS's farthest-corner ellipse does.
const gradientName = (index: number) => `Deckhand gradient ${index}`;

function gradientFillXml(gradient: Gradient): string {
  const stops = gradient.stops
    .map(
      (stop) =>
        `<a:gs pos="${Math.round(stop.at * 100_000)}"><a:srgbClr val="${hex(stop.color)}"><a:alpha val="${Math.round(
          stop.color.alpha * 100_000,
        )}"/></a:srgbClr></a:gs>`,
    )
    .join("");
  const shade =
    gradient.kind === "linear"
      ? `<a:lin ang="${Math.round((((gradient.angle - 90) % 360) + 360) % 360) * 60_000}" scaled="0"/>`
      : '<a:path path="circle"><a:fillToRect l="50000" t="50000" r="50000" b="50000"/></a:path>';
  return `<a:gradFill rotWithShape="1"><a:gsLst>${stops}</a:gsLst>${shade}</a:gradFill>`;
}

function completeGradients(xml: string, gradients: Map<string, Gradient>): string {
  if (gradients.size === 0) return xml;
  return xml.replace(/<p:sp>(?:(?!<\/p:sp>)[\s\S])*<\/p:sp>/g, (shape) => {
    const name = /<p:cNvPr [^>]*name="([^"]*)"/.exec(shape)?.[1] ?? "";
    const gradient = gradients.get(name);
    if (!gradient) return shape;
    return shape.replace(/<a:solidFill>(?:(?!<\/a:solidFill>)[\s\S])*<\/a:solidFill>/, () => gradientFillXml(gradient));
  });
}

// A stored image embedded at most at twice the size it is drawn at on the 1920x1080 canvas, the density of
// the export's own 2x render and its screenshots (a full-slide background at most 3840x2160): a larger one
// is scaled down to that, in its own format. The same
// bytes at the same size give the same file, and within one build each is made once, so an image shown
// twice stays one media part. GIFs (perhaps animated) are left as they are.
type Scaled = { data: Buffer; width: number; height: number };

async function downscaled(raster: Raster, item: RasterItem, cache: Map<string, Promise<Scaled>>): Promise<Scaled> {
  const asset = item.asset!;
  const original = { data: raster.png, width: asset.width, height: asset.height };
  const scale = (asset.fit === "cover" ? Math.max : Math.min)(item.rect.w / asset.width, item.rect.h / asset.height);
  if (!(scale > 0) || scale >= 0.5 || !/^image\/(png|jpeg|jpg)$/.test(raster.contentType ?? "")) return original;
  const width = Math.max(1, Math.round(asset.width * scale * 2));
  const height = Math.max(1, Math.round(asset.height * scale * 2));
  const key = `${createHash("sha256").update(raster.png).digest("hex")} ${width}x${height}`;
  let made = cache.get(key);
  if (!made) {
    const resized = sharp(raster.png).resize(width, height, { fit: "fill" });
    made = (raster.contentType === "image/png" ? resized.png() : resized.jpeg({ quality: 88, mozjpeg: true }))
      .toBuffer()
      .then((data) => ({ data, width, height }))
      .catch(() => original);
    cache.set(key, made);
  }
  return made;
}

// An icon is written by pptxgenjs as an SVG picture (<asvg:svgBlip> in the blip's extension list) whose
// PNG fallback it cannot draw in Node: the fallback part is replaced by the screenshot in the rewrite.
const iconName = (index: number) => `Deckhand icon ${index}`;

// rtl: the paragraph is right to left (<a:pPr rtl="1">): PowerPoint orders its runs from the right and
// puts bullets on the right. pptxgenjs reads rtlMode from each paragraph's first run.
function textRun(run: TextRun, rtl = false): PptxGenJS.TextProps {
  return {
    text: escapedByPptxgenjs(run.text),
    options: {
      fontFace: writtenAsIsByPptxgenjs(run.font),
      fontSize: fontSize(run.size),
      bold: run.bold,
      italic: run.italic,
      underline: run.underline ? { style: "sng" } : undefined,
      strike: run.strike ? "sngStrike" : undefined,
      color: hex(run.color),
      transparency: run.color.alpha < 1 ? transparency(run.color) : undefined,
      charSpacing: run.letterSpacing ? pt(run.letterSpacing) : undefined,
      // The model is validated: a link is an http(s) or mailto URL.
      hyperlink: run.href ? { url: escapedByPptxgenjs(run.href) } : undefined,
      breakLine: run.breakAfter || undefined,
      rtlMode: rtl || undefined,
    },
  };
}

// A text box's place and width. Fonts differ slightly between the browser and PowerPoint or LibreOffice;
// a little room keeps lines from re-wrapping. A single line (wrap="none") is never narrower than the
// browser measured its text, with room for another program's metrics (a semi-bold drawn with the Bold
// face, a fallback font): more for letter-spaced text, which spacing and hinting widen per character,
// and more for a short line, where a few pixels count. The box grows away from its alignment edge (both
// ways when centred), so the text stays where it was.
export function textBoxSpan(item: TextItem): { x: number; w: number } {
  let width: number;
  if (item.singleLine) {
    const characters = item.runs.reduce((count, run) => count + [...run.text].length, 0);
    const spacing = item.runs.reduce((most, run) => Math.max(most, Math.abs(run.letterSpacing)), 0);
    const size = item.runs.reduce((most, run) => Math.max(most, run.size), 0);
    const text = item.textWidth ?? item.rect.w;
    width = Math.max(item.rect.w, text * 1.08 + spacing * characters * 0.25 + size * 0.5);
  } else {
    // Code wraps where the browser wraps it (a monospace font's advances are the same everywhere).
    width = item.preformatted ? item.rect.w + 1 : item.rect.w * 1.04;
  }
  const slack = width - item.rect.w;
  const x =
    item.align === "center" ? item.rect.x - slack / 2 : item.align === "right" ? item.rect.x - slack : item.rect.x;
  return { x, w: width };
}

// pptxgenjs writes a bullet's character or numbering but not its colour, font or size, and no hanging
// indent without a bullet: each such box is named, and its paragraphs are completed in the slide's XML
// (buClr, buSzPct, buFont before buChar/buAutoNum, the order the schema wants; marL and indent).
const listName = (index: number) => `Deckhand list ${index}`;

function bulletXml(list: TextList): string {
  const color = `<a:buClr><a:srgbClr val="${hex(list.color)}">${
    list.color.alpha < 1 ? `<a:alpha val="${Math.round(list.color.alpha * 100_000)}"/>` : ""
  }</a:srgbClr></a:buClr>`;
  const font = `<a:buFont typeface="${writtenAsIsByPptxgenjs(list.font)}"/>`;
  const sizePct = `<a:buSzPct val="${Math.round(list.sizePercent * 1000)}"/>`;
  const marker =
    list.marker.kind === "number"
      ? '<a:buAutoNum type="arabicPlain" startAt="1"/>'
      : `<a:buChar char="${writtenAsIsByPptxgenjs(list.marker.char)}"/>`;
  return color + sizePct + font + marker;
}

// pptxgenjs (4.0.1) writes a paragraph's properties again before each of its runs after the first; the
// schema allows one <a:pPr>, first, and PowerPoint repairs a file that has more. The first is kept.
function oneParagraphProperties(xml: string): string {
  return xml.replace(/<a:p>((?:(?!<\/a:p>)[\s\S])*)<\/a:p>/g, (paragraph, body: string) => {
    let seen = false;
    const kept = body.replace(/<a:pPr\b(?:[^>]*\/>|(?:(?!<\/a:pPr>)[\s\S])*<\/a:pPr>)/g, (properties) => {
      if (!seen) {
        seen = true;
        return properties;
      }
      return "";
    });
    return kept === body ? paragraph : `<a:p>${kept}</a:p>`;
  });
}

function completeBullets(xml: string, lists: Map<string, TextList>, hanging: Map<string, number> = new Map()): string {
  if (lists.size === 0 && hanging.size === 0) return xml;
  return xml.replace(/<p:sp>(?:(?!<\/p:sp>)[\s\S])*<\/p:sp>/g, (shape) => {
    const name = /<p:cNvPr [^>]*name="([^"]*)"/.exec(shape)?.[1] ?? "";
    const list = lists.get(name);
    if (list) {
      const bulleted = shape.replace(
        /<a:buSzPct val="\d+"\/>(?:<a:buFont [^>]*\/>)?(?:<a:buChar [^>]*\/>|<a:buAutoNum [^>]*\/>)/g,
        // A function, not a string: a font name may hold "$&" or "$'", which a replacement string expands.
        () => bulletXml(list),
      );
      // pptxgenjs indents level L by (L + 1) hanging indents; the player's sub-lists step by levelIndent.
      const step = list.levelIndent;
      if (!step) return bulleted;
      const emu = (px: number) => Math.round(pt(px) * 12_700);
      return bulleted.replace(
        /(<a:pPr\b[^>]*?\blvl=")(\d)("[^>]*?\bmarL=")\d+"/g,
        (_whole, head: string, level: string, middle: string) =>
          `${head}${level}${middle}${emu(list.indent) + Number(level) * emu(step)}"`,
      );
    }
    // Wrapped lines of code hang under the first: a left margin, and the first line back at the edge.
    const indent = hanging.get(name);
    if (indent === undefined) return shape;
    const emu = Math.round(pt(indent) * 12_700);
    return shape.replaceAll(' indent="0" marL="0"', ` indent="-${emu}" marL="${emu}"`);
  });
}

/** The PPTX alone (see buildPptxPackage). */
export async function buildPptx(input: Parameters<typeof buildPptxPackage>[0]): Promise<Buffer> {
  return (await buildPptxPackage(input)).data;
}

/** The PPTX, with the shipped families whose fonts it embeds. */
export async function buildPptxPackage(input: {
  title: string;
  slides: SlideModel[];
  notes: string[];
  rasters: Map<number, Raster>;
}): Promise<EmbeddedFonts> {
  // Whoever calls this, nothing reaches the file unchecked (a DeckFaultError otherwise).
  const { slides, notes } = parseExportModel({ slides: input.slides, notes: input.notes });
  const pptx = new PptxGenJS();
  pptx.layout = "LAYOUT_WIDE";
  pptx.title = escapedByPptxgenjs(input.title);
  pptx.company = writtenAsIsByPptxgenjs("Deckhand");
  const lists = new Map<string, TextList>();
  const shapeNames = new Map<TextItem, string>();
  const hanging = new Map<string, number>();

  const gradients = new Map<string, Gradient>();
  const iconFallbacks = new Map<string, Buffer>();
  const scaledImages = new Map<string, Promise<Scaled>>();
  // Stored images scaled down first (a promise each, shared by the copies of one image).
  const placed = new Map<number, Scaled>();
  for (const model of slides) {
    for (const item of model.items) {
      const raster = item.kind === "raster" ? input.rasters.get(item.id) : undefined;
      if (item.kind === "raster" && raster?.contentType && item.asset)
        placed.set(item.id, await downscaled(raster, item, scaledImages));
    }
  }

  const charts: ChartItem[] = [];
  slides.forEach((model, index) => {
    const slide = pptx.addSlide();
    if (model.background)
      slide.background = { color: hex(model.background), transparency: transparency(model.background) };

    for (const item of model.items) {
      const box = { x: inch(item.rect.x), y: inch(item.rect.y), w: inch(item.rect.w), h: inch(item.rect.h) };
      if (item.kind === "shape") {
        // PowerPoint's rounding is a fraction of the shorter side, at most half of it.
        const radius = Math.min(item.radius, item.rect.w / 2, item.rect.h / 2);
        let objectName: string | undefined;
        let fill = item.fill;
        if (item.gradient) {
          objectName = gradientName(gradients.size + 1);
          gradients.set(objectName, item.gradient);
          fill = item.gradient.stops[0]!.color;
        }
        slide.addShape(
          item.ellipse ? pptx.ShapeType.ellipse : radius > 0 ? pptx.ShapeType.roundRect : pptx.ShapeType.rect,
          {
            ...box,
            objectName,
            fill: fill ? { color: hex(fill), transparency: transparency(fill) } : { type: "none" },
            line: item.border
              ? {
                  color: hex(item.border.color),
                  transparency: transparency(item.border.color),
                  width: Math.min(pt(item.border.width), MAX_SPACING_PT),
                  dashType: item.border.dash === "dash" ? "dash" : item.border.dash === "dot" ? "sysDot" : "solid",
                }
              : { type: "none" },
            rectRadius: radius > 0 && !item.ellipse ? inch(radius) : undefined,
            shadow: item.shadow
              ? {
                  type: "outer",
                  color: hex(item.shadow.color),
                  opacity: item.shadow.color.alpha,
                  blur: pt(item.shadow.blur),
                  offset: pt(Math.hypot(item.shadow.x, item.shadow.y)),
                  angle: Math.round(((Math.atan2(item.shadow.y, item.shadow.x) * 180) / Math.PI + 360) % 360),
                }
              : undefined,
          },
        );
      } else if (item.kind === "text") {
        const span = textBoxSpan(item);
        const list = item.list;
        let runs = item.runs.map((run) => textRun(run, item.rtl));
        if (list) {
          // Each point is a paragraph with its bullet, its level, its hanging indent and the space before it.
          let point = -1;
          runs = runs.map((run, at) => {
            const startsPoint = at === 0 || item.runs[at - 1]!.breakAfter;
            if (startsPoint) point++;
            const level = list.levels?.[point] ?? 0;
            return {
              ...run,
              options: {
                ...run.options,
                indentLevel: level > 0 ? level : undefined,
                bullet:
                  list.marker.kind === "number"
                    ? { type: "number", style: "arabicPlain", indent: pt(list.indent) }
                    : { characterCode: "2022", indent: pt(list.indent) },
                paraSpaceBefore: startsPoint && at > 0 ? pt(list.gap) : undefined,
              },
            };
          });
          const name = listName(lists.size + 1);
          lists.set(name, list);
          shapeNames.set(item, name);
        }
        if (item.preformatted?.hangingIndent && !list) {
          const name = `Deckhand hanging ${hanging.size + 1}`;
          hanging.set(name, item.preformatted.hangingIndent);
          shapeNames.set(item, name);
        }
        slide.addText(runs, {
          x: inch(span.x),
          y: box.y,
          w: inch(span.w),
          h: inch(Math.max(item.rect.h, item.lineHeight)),
          margin: 0,
          align: item.align,
          valign: item.valign ?? "top",
          lineSpacing: Math.min(pt(item.lineHeight), MAX_SPACING_PT),
          paraSpaceBefore: 0,
          paraSpaceAfter: 0,
          wrap: !item.singleLine,
          fit: "none",
          rtlMode: item.rtl || undefined,
          objectName: shapeNames.get(item),
        });
      } else if (item.kind === "table") {
        const rows = item.rows.map((row) =>
          row.map((cell) => ({
            text: cell.runs.map((run) => textRun(run, cell.rtl)),
            options: {
              fill: cell.fill ? { color: hex(cell.fill), transparency: transparency(cell.fill) } : undefined,
              align: cell.align,
              rtlMode: cell.rtl || undefined,
              valign: cell.valign,
              margin: cell.padding.map((value) => inch(value)) as [number, number, number, number],
              border: [
                none,
                none,
                cell.borderBottom
                  ? {
                      type: "solid",
                      color: hex(cell.borderBottom.color),
                      pt: Math.min(pt(cell.borderBottom.width), MAX_SPACING_PT),
                    }
                  : none,
                none,
              ] satisfies [PptxGenJS.BorderProps, PptxGenJS.BorderProps, PptxGenJS.BorderProps, PptxGenJS.BorderProps],
            },
          })),
        );
        slide.addTable(rows, {
          ...box,
          colW: item.columnWidths.map(inch),
          rowH: item.rowHeights.map(inch),
          autoPage: false,
        });
      } else if (item.kind === "chart") {
        charts.push(item);
        addChart(pptx, slide, item, `Chart ${charts.length}`);
      } else {
        const raster = input.rasters.get(item.id);
        const file = placed.get(item.id);
        // Checked again here, where it goes into the file: an icon the strict allow-list refuses is its PNG.
        const svg = raster?.svg ? sanitiseIconSvg(raster.svg) : null;
        if (raster?.contentType && item.asset && file) {
          // The stored file, cropped ("cover") or letterboxed ("contain") into the box as the browser drew it:
          // pptxgenjs reads the picture's own proportions from w and h, and the box from sizing.
          slide.addImage({
            data: `${raster.contentType};base64,${file.data.toString("base64")}`,
            x: box.x,
            y: box.y,
            w: box.w,
            h: (box.w * item.asset.height) / item.asset.width,
            sizing: { type: item.asset.fit, w: box.w, h: box.h },
            altText: escapedByPptxgenjs(item.label),
          });
        } else if (raster && svg) {
          const name = iconName(iconFallbacks.size + 1);
          iconFallbacks.set(name, raster.png);
          slide.addImage({
            data: `image/svg+xml;base64,${Buffer.from(svg, "utf8").toString("base64")}`,
            ...box,
            objectName: name,
            altText: escapedByPptxgenjs(item.label),
          });
        } else if (raster)
          slide.addImage({
            data: `image/png;base64,${raster.png.toString("base64")}`,
            ...box,
            altText: escapedByPptxgenjs(item.label),
          });
      }
    }
    const text = escapedByPptxgenjs(notes[index] ?? "");
    if (text) slide.addNotes(text);
  });

  const written = (await pptx.write({ outputType: "nodebuffer", compression: true })) as Buffer;
  return rewritePackage(
    written,
    charts,
    (xml, index) =>
      slideName(
        completeGradients(completeBullets(oneParagraphProperties(xml), lists, hanging), gradients),
        slides[index],
      ),
    iconFallbacks,
  );
}

// Each slide is named by its label (PowerPoint's <p:cSld name>, which pptxgenjs sets to "Slide N"), so the
// label comes back when the file is imported (lib/import/pptx/read-pptx.ts).
function slideName(xml: string, model: SlideModel | undefined): string {
  if (!model?.label) return xml;
  return xml.replace(/<p:cSld(?: name="[^"]*")?>/, () => `<p:cSld name="${writtenAsIsByPptxgenjs(model.label!)}">`);
}

// What pptxgenjs cannot write, added to its package in one pass: the charts finished (pptx-charts.ts), the
// slide parts rewritten, every picture kept once (dedupeMedia) and the shipped fonts the runs name embedded
// (embed-fonts.ts). pptxgenjs stores its parts uncompressed (it ignores `compression` for a nodebuffer); the
// pass writes the package compressed (package-parts.ts).
async function rewritePackage(
  pptx: Buffer,
  charts: ChartItem[],
  rewrite: (xml: string, index: number) => string,
  iconFallbacks: Map<string, Buffer>,
): Promise<EmbeddedFonts> {
  const parts = new PackageParts(pptx);
  if (charts.length > 0) finishCharts(parts, charts);
  for (const name of parts.names().filter((part) => /^ppt\/slides\/slide\d+\.xml$/.test(part))) {
    const xml = parts.text(name);
    // pptxgenjs writes slide N (1-based, in order) as ppt/slides/slideN.xml.
    const rewritten = rewrite(xml, Number(/slide(\d+)\.xml$/.exec(name)![1]) - 1);
    if (rewritten !== xml) parts.set(name, rewritten);
    if (iconFallbacks.size > 0) replaceIconFallbacks(parts, name, xml, iconFallbacks);
  }
  dedupeMedia(parts);
  const embedded = await embedShippedFonts(parts);
  return { data: parts.write(), embedded };
}

// pptxgenjs writes a media part per picture; an image shown on several slides is kept once: every
// relationship to a copy points at the first part with the same bytes, and the copies are removed.
function dedupeMedia(parts: PackageParts): void {
  const media = parts
    .names()
    .filter((name) => name.startsWith("ppt/media/"))
    .sort();
  const first = new Map<string, string>();
  const replaced = new Map<string, string>();
  for (const name of media) {
    const hash = createHash("sha256").update(parts.bytes(name)).digest("hex");
    const kept = first.get(hash);
    if (kept === undefined) first.set(hash, name);
    else replaced.set(name.slice("ppt/".length), kept.slice("ppt/".length));
  }
  if (replaced.size === 0) return;
  for (const name of parts.names().filter((part) => part.endsWith(".rels"))) {
    const xml = parts.text(name);
    const rewritten = xml.replace(/Target="\.\.\/(media\/[^"]+)"/g, (whole, target: string) => {
      const to = replaced.get(target);
      return to ? `Target="../${to}"` : whole;
    });
    if (rewritten !== xml) parts.set(name, rewritten);
  }
  for (const name of replaced.keys()) parts.remove(`ppt/${name}`);
}

// Each icon's PNG fallback (the blip's own r:embed; the SVG is in its extension list) becomes the icon's
// screenshot. pptxgenjs gives every SVG picture fallback a part of its own.
function replaceIconFallbacks(parts: PackageParts, slide: string, xml: string, fallbacks: Map<string, Buffer>) {
  const rels = slide.replace(/slides\/(slide\d+\.xml)$/, "slides/_rels/$1.rels");
  if (!parts.has(rels)) return;
  const relsXml = parts.text(rels);
  for (const picture of xml.match(/<p:pic>(?:(?!<\/p:pic>)[\s\S])*<\/p:pic>/g) ?? []) {
    const name = /<p:cNvPr [^>]*name="([^"]*)"/.exec(picture)?.[1] ?? "";
    const png = fallbacks.get(name);
    const id = /<a:blip r:embed="([^"]+)"/.exec(picture)?.[1];
    if (!png || !id || !picture.includes("asvg:svgBlip")) continue;
    const target = new RegExp(`<Relationship Id="${id}"[^>]* Target="\\.\\./(media/[^"]+\\.png)"`).exec(relsXml)?.[1];
    if (target && parts.has(`ppt/${target}`)) parts.set(`ppt/${target}`, png);
  }
}
