// The shapes of a slide, layout or master for the PowerPoint reader: text shapes (placeholders placed and
// styled from their layout and master, their fill — solid, gradient, picture, or the theme's style the
// shape refers to — and outline), freeforms as an SVG picture of them, pictures with crop and alt text,
// groups flattened into slide coordinates, tables, charts from their caches, SmartArt as a list of its text,
// OLE objects as their picture. What is approximated or left out is a warning naming the slide.
import type { Element } from "@xmldom/xmldom";
import { readChart } from "./charts";
import type { ThemeParts } from "./colors";
import {
  frameOf,
  freeformSvg,
  groupTransform,
  lineSvg,
  placed,
  placeholderOf,
  sameKind,
  type Transform,
} from "./geometry";
import type { Frame, Line, Paragraph, Placeholder, Shape, TableCell } from "./model";
import type { Reader } from "./read-pptx";
import { readParagraph, runsText, type TextContext } from "./text";
import { attr, descendants, kid, kids, nameOf, path as xpath, relAttr } from "./xml";

export type Styled = {
  placeholders: Array<{ ph: Placeholder; frame: Frame | null; lstStyle: Element | null; bodyPr: Element | null }>;
  background: Element | null;
  part: string;
};
export type Master = Styled & { txStyles: Element | null; clrMap: Record<string, string>; theme: ThemeParts };
export type Layout = Styled & { name: string; master: Master };
export type SlideContext = { part: string; layout: Layout; number: number; quiet?: boolean };

type TextShape = Extract<Shape, { kind: "text" }>;

const LINES = new Set(["line", "straightConnector1"]);

export class ShapeReader {
  constructor(private readonly reader: Reader) {}

  frame(element: Element): Frame | null {
    return frameOf(element);
  }

  shapes(tree: Element | null, context: SlideContext, transform: Transform | null): Shape[] {
    const out: Shape[] = [];
    for (const element of kids(tree)) {
      const shape = this.shape(element, context, transform);
      if (shape) out.push(...(Array.isArray(shape) ? shape : [shape]));
    }
    return out;
  }

  shape(element: Element, context: SlideContext, transform: Transform | null): Shape | Shape[] | null {
    // Its own name, from its non-visual properties (nvSpPr, nvPicPr, nvGrpSpPr…): never a search of its
    // subtree, which groups nested deep would make quadratic.
    const own = kids(element).find((child) => nameOf(child).startsWith("nv"));
    const name = attr(kid(own, "cNvPr"), "name") ?? "";
    switch (nameOf(element)) {
      case "sp":
        return this.textShape(element, context, transform, name);
      case "pic":
        return this.picture(element, context, transform, name);
      case "grpSp": {
        const own = placed(frameOf(element), transform);
        const xfrm = xpath(element, "grpSpPr", "xfrm");
        const child = groupTransform(xfrm, transform);
        return { kind: "group", name, frame: own, children: this.shapes(element, context, child) };
      }
      case "graphicFrame":
        return this.graphicFrame(element, context, transform, name);
      case "AlternateContent": {
        // The fallback is what a reader without the extension shows; the choice when there is none.
        const branch = kid(element, "Fallback") ?? kid(element, "Choice");
        return this.shapes(branch, context, transform);
      }
      case "cxnSp":
        // A connector: drawn as the straight line from its start to its end (bends are not followed).
        return this.textShape(element, context, transform, name);
      case "contentPart":
        this.reader.warn(context.number, "ink (a content part); left out");
        return null;
      default:
        return null;
    }
  }

  private textContext(part: string): TextContext {
    const reader = this.reader;
    return {
      color: (holder) => reader.color(holder),
      theme: reader.themeParts.theme,
      link: (id) => {
        const rel = reader.parts.rels(part).get(id);
        return rel?.external ? rel.target : undefined;
      },
    };
  }

  private textShape(element: Element, context: SlideContext, transform: Transform | null, name: string): Shape[] {
    const reader = this.reader;
    const ph = placeholderOf(element);
    const inherited = ph ? this.inherited(ph, context.layout) : [];
    const frame = placed(frameOf(element) ?? inherited.find((found) => found.frame)?.frame ?? null, transform);
    const txBody = kid(element, "txBody");
    const styles = [
      xpath(txBody, "lstStyle"),
      ...inherited.map((found) => found.lstStyle),
      this.textStyle(ph, context.layout.master),
    ];
    const text = this.textContext(context.part);
    // A drawn shape's style names its text colour (fontRef), over the master's defaults for other text;
    // a run's own colour still wins.
    const fontColor = ph ? undefined : reader.color(xpath(element, "style", "fontRef"));
    const paragraphs = kids(txBody, "p").map((p) => {
      const paragraph = readParagraph(p, styles, text);
      return fontColor ? { ...paragraph, inherited: { ...paragraph.inherited, color: fontColor } } : paragraph;
    });
    const bodies = [xpath(txBody, "bodyPr"), ...inherited.map((found) => found.bodyPr)];
    const anchor = ({ t: "top", ctr: "middle", b: "bottom" } as const)[
      (bodies.map((body) => attr(body, "anchor")).find(Boolean) ?? "") as "t"
    ];
    const fontScale = Number(attr(xpath(txBody, "bodyPr", "normAutofit"), "fontScale") ?? 100_000) / 100_000;
    const spPr = kid(element, "spPr");
    // A shape that says nothing of its fill takes its style's (the theme's fill the style refers to).
    const styleRef = xpath(element, "style", "fillRef");
    const fill = reader.fill(spPr, context.part) ?? (styleRef ? reader.styleFill(styleRef) : undefined);
    const line = this.line(element);
    const geometry = attr(kid(spPr, "prstGeom"), "prst") ?? undefined;
    if (descendants(txBody, "prstTxWarp").some((warp) => attr(warp, "prst") !== "textNoShape")) {
      reader.warn(context.number, `WordArt effects on "${name}" are left out; its text is kept`);
    }
    const out: Shape[] = [];
    const custGeom = kid(spPr, "custGeom");
    const shape: TextShape = {
      kind: "text",
      name,
      frame,
      ...(ph ? { placeholder: ph } : {}),
      paragraphs,
      ...(anchor ? { anchor } : {}),
      ...(fontScale > 0 && fontScale < 1 ? { fontScale } : {}),
    };
    if (custGeom) {
      // A freeform: a picture of its outline under its text.
      const paint = {
        fill: fill?.kind === "solid" ? fill.color : fill?.kind === "gradient" ? fill.stops[0]?.color : undefined,
        line,
      };
      const svg = frame ? freeformSvg(custGeom, frame, paint) : null;
      if (svg && frame) {
        out.push({ kind: "picture", name, frame, media: reader.drawnMedia(svg), alt: "", drawn: true });
      } else if (!context.quiet && (fill?.kind !== "none" || line)) {
        reader.warn(context.number, `a freeform shape ("${name}") is left out; its text is kept`);
      }
      shape.geometry = "custom";
      return [...out, shape];
    }
    if ((geometry && LINES.has(geometry)) || nameOf(element) === "cxnSp") {
      if (!line || !frame) return [];
      const xfrm = xpath(element, "spPr", "xfrm");
      const flip = { h: attr(xfrm, "flipH") === "1", v: attr(xfrm, "flipV") === "1" };
      const drawn = lineSvg(frame, line, flip);
      return [{ kind: "picture", name, frame: drawn.frame, media: reader.drawnMedia(drawn.svg), alt: "", drawn: true }];
    }
    if (fill?.kind === "solid") shape.fill = fill.color;
    if (fill?.kind === "gradient") shape.gradient = { angle: fill.angle, stops: fill.stops };
    if (fill?.kind === "picture") {
      shape.pictureFill = fill.media;
      if (fill.tile && frame) shape.pictureTile = { ...fill.tile, width: frame.width, height: frame.height };
    }
    if (line) shape.line = line;
    if (geometry && geometry !== "rect") shape.geometry = geometry;
    return [shape];
  }

  /** The shape's outline: its own a:ln, else the theme's line style its style refers to (lnRef). */
  private line(element: Element): Line | undefined {
    const reader = this.reader;
    const ln = xpath(element, "spPr", "ln");
    const ref = xpath(element, "style", "lnRef");
    const idx = Number(attr(ref, "idx") ?? 0);
    const themed = idx > 0 ? reader.themeParts.lines[idx - 1] : undefined;
    const refColor = ref ? reader.color(ref) : undefined;
    if (kid(ln, "noFill")) return undefined;
    const width = Number(attr(ln, "w") ?? attr(themed, "w") ?? 9525) || 9525;
    const own = kid(ln, "solidFill") ?? kid(ln, "gradFill");
    if (own) {
      const color = reader.color(nameOf(own) === "gradFill" ? (kids(kid(own, "gsLst"), "gs")[0] ?? null) : own);
      return color ? { color, width } : undefined;
    }
    if (!themed || kid(themed, "noFill")) return undefined;
    const color = reader.color(kid(themed, "solidFill"), refColor) ?? refColor;
    return color ? { color, width } : undefined;
  }

  /** The layout's and then the master's placeholder this one takes its place and styles from. */
  private inherited(ph: Placeholder, layout: Layout): Styled["placeholders"] {
    const out: Styled["placeholders"] = [];
    const onLayout =
      (ph.idx !== undefined ? layout.placeholders.find((found) => found.ph.idx === ph.idx) : undefined) ??
      layout.placeholders.find((found) => sameKind(found.ph.type, ph.type));
    if (onLayout) out.push(onLayout);
    const type = onLayout?.ph.type ?? ph.type;
    const onMaster = layout.master.placeholders.find((found) => sameKind(found.ph.type, type));
    if (onMaster) out.push(onMaster);
    return out;
  }

  private textStyle(ph: Placeholder | undefined, master: Master): Element | null {
    const styles = master.txStyles;
    if (!ph) return kid(styles, "otherStyle");
    if (ph.type === "title" || ph.type === "ctrTitle") return kid(styles, "titleStyle");
    if (["body", "obj", "subTitle"].includes(ph.type)) return kid(styles, "bodyStyle");
    return kid(styles, "otherStyle");
  }

  private picture(element: Element, context: SlideContext, transform: Transform | null, name: string): Shape | null {
    const reader = this.reader;
    const cNvPr = descendants(element, "cNvPr")[0];
    const nvPr = xpath(element, "nvPicPr", "nvPr");
    if (kid(nvPr, "videoFile") || kid(nvPr, "audioFile") || kid(nvPr, "quickTimeFile")) {
      reader.warn(
        context.number,
        `${kid(nvPr, "audioFile") ? "audio" : "a video"} ("${name}") left out; its poster picture is kept`,
      );
    }
    const blipFill = kid(element, "blipFill");
    const media = reader.mediaOf(context.part, relAttr(kid(blipFill, "blip"), "embed"));
    if (!media) return null;
    const ph = placeholderOf(element);
    const inherited = ph ? this.inherited(ph, context.layout) : [];
    const frame = placed(frameOf(element) ?? inherited.find((found) => found.frame)?.frame ?? null, transform);
    const rect = kid(blipFill, "srcRect");
    const crop = rect
      ? {
          left: Number(attr(rect, "l") ?? 0) / 1000,
          top: Number(attr(rect, "t") ?? 0) / 1000,
          right: Number(attr(rect, "r") ?? 0) / 1000,
          bottom: Number(attr(rect, "b") ?? 0) / 1000,
        }
      : undefined;
    const alt = (attr(cNvPr, "descr") || attr(cNvPr, "title") || "").trim();
    return {
      kind: "picture",
      name,
      frame,
      ...(ph ? { placeholder: ph } : {}),
      media,
      alt,
      ...(crop && (crop.left || crop.top || crop.right || crop.bottom) ? { crop } : {}),
    };
  }

  private graphicFrame(
    element: Element,
    context: SlideContext,
    transform: Transform | null,
    name: string,
  ): Shape | Shape[] | null {
    const reader = this.reader;
    const frame = placed(frameOf(element), transform);
    const data = xpath(element, "graphic", "graphicData");
    const uri = attr(data, "uri") ?? "";
    if (uri.endsWith("/table")) return this.table(kid(data, "tbl"), context, name, frame);
    if (uri.endsWith("/chart")) {
      const rel = reader.parts.rels(context.part).get(relAttr(kid(data, "chart"), "id") ?? "");
      if (!rel || rel.external || !reader.parts.has(rel.target)) {
        reader.warn(context.number, `the chart "${name}" is missing from the package; left out`);
        return null;
      }
      const read = readChart(reader.parts.xml(rel.target));
      for (const note of read.notes) reader.warn(context.number, `${note} ("${name}")`);
      return read.chart ? { kind: "chart", name, frame, chart: read.chart } : null;
    }
    if (uri.endsWith("/diagram")) return this.smartArt(data, context, name, frame);
    // An OLE object (an embedded workbook, an equation…) shows the picture PowerPoint keeps of it.
    const pictures = descendants(data, "pic");
    const what = uri.endsWith("/ole") ? "an embedded object (OLE)" : "an object of a kind that is not imported";
    if (pictures.length > 0) {
      reader.warn(context.number, `${what} ("${name}") comes in as its picture`);
      return pictures
        .map((pic) => this.picture(pic, context, null, name))
        .filter((s): s is Shape => s !== null)
        .map((shape) => ({ ...shape, frame }));
    }
    reader.warn(context.number, `${what} ("${name}") left out`);
    return null;
  }

  private table(tbl: Element | null, context: SlideContext, name: string, frame: Frame | null): Shape {
    const tblPr = kid(tbl, "tblPr");
    const text = this.textContext(context.part);
    const columnWidths = kids(kid(tbl, "tblGrid"), "gridCol").map((col) => Number(attr(col, "w") ?? 0));
    const rows: TableCell[][] = kids(tbl, "tr").map((tr) =>
      kids(tr, "tc").map((tc) => {
        const fill = this.reader.color(xpath(tc, "tcPr", "solidFill"));
        return {
          // A cell's text has no placeholder or list styles to inherit.
          paragraphs: kids(kid(tc, "txBody"), "p").map((p) => readParagraph(p, [], text)),
          rowSpan: Math.max(1, Number(attr(tc, "rowSpan") ?? 1) || 1),
          colSpan: Math.max(1, Number(attr(tc, "gridSpan") ?? 1) || 1),
          merged: attr(tc, "hMerge") === "1" || attr(tc, "vMerge") === "1",
          ...(fill ? { fill } : {}),
        };
      }),
    );
    return { kind: "table", name, frame, rows, headerRow: attr(tblPr, "firstRow") === "1", columnWidths };
  }

  // SmartArt: the vocabulary has no diagram of its kind, so its text comes in as a list.
  private smartArt(data: Element | null, context: SlideContext, name: string, frame: Frame | null): Shape | null {
    const reader = this.reader;
    const rel = reader.parts.rels(context.part).get(relAttr(kid(data, "relIds"), "dm") ?? "");
    if (!rel || rel.external || !reader.parts.has(rel.target)) {
      reader.warn(context.number, `a SmartArt diagram ("${name}") left out`);
      return null;
    }
    const points = descendants(kid(reader.parts.xml(rel.target), "ptLst"), "pt").filter(
      (pt) => !attr(pt, "type") || attr(pt, "type") === "node",
    );
    const paragraphs: Paragraph[] = points
      .map((pt) =>
        kids(kid(pt, "t"), "p")
          .map((p) => runsText(p))
          .join(" ")
          .trim(),
      )
      .filter((text) => text.length > 0)
      .map((text) => ({ level: 0, bullet: { kind: "char", char: "•" }, runs: [{ text }] }));
    if (paragraphs.length === 0) {
      reader.warn(context.number, `a SmartArt diagram ("${name}") without text; left out`);
      return null;
    }
    const drawing = frame ? this.diagramDrawing(context, frame, name) : [];
    reader.warn(
      context.number,
      drawing.length > 0
        ? `a SmartArt diagram ("${name}") comes in as the shapes PowerPoint drew for it (a list of its text when restyled)`
        : `a SmartArt diagram ("${name}") comes in as a list of its text`,
    );
    return { kind: "text", name, frame, paragraphs, ...(drawing.length > 0 ? { drawing } : {}) };
  }

  // The shapes PowerPoint drew for a diagram (its diagramDrawing part), placed from the diagram's frame. Their
  // text stands upright in its own box (txXfrm), as PowerPoint draws a diagram's text.
  private diagramDrawing(context: SlideContext, frame: Frame, diagram: string): Shape[] {
    const reader = this.reader;
    const rel = [...reader.parts.rels(context.part).values()].find(
      (found) => found.type.endsWith("/diagramDrawing") && !found.external,
    );
    if (!rel || !reader.parts.has(rel.target)) return [];
    const tree = kid(reader.parts.xml(rel.target), "spTree");
    const transform: Transform = { x: frame.x, y: frame.y, cx: 0, cy: 0, sx: 1, sy: 1 };
    const drawn: SlideContext = { ...context, part: rel.target, quiet: true };
    const out: Shape[] = [];
    const walk = (parent: Element | null) => {
      for (const element of kids(parent)) {
        if (nameOf(element) === "grpSp") walk(element);
        if (nameOf(element) !== "sp") continue;
        const own = attr(descendants(element, "cNvPr")[0], "name");
        const shapes = this.textShape(element, drawn, transform, own || `a shape of ${diagram}`);
        const box = placed(this.textBox(element), transform);
        for (const shape of shapes) {
          if (shape.kind !== "text" || !box || shape.paragraphs.length === 0) {
            out.push(shape);
            continue;
          }
          out.push(
            { ...shape, paragraphs: [] },
            {
              kind: "text",
              name: "",
              frame: box,
              paragraphs: shape.paragraphs,
              ...(shape.anchor ? { anchor: shape.anchor } : {}),
            },
          );
        }
      }
    };
    walk(tree);
    return out;
  }

  /** A diagram shape's text box (dsp:txXfrm), upright. */
  private textBox(element: Element): Frame | null {
    const xfrm = kid(element, "txXfrm");
    const off = kid(xfrm, "off");
    const ext = kid(xfrm, "ext");
    if (!off || !ext) return null;
    const n = (from: Element, name: string) => Number(attr(from, name) ?? 0);
    return { x: n(off, "x"), y: n(off, "y"), width: n(ext, "cx"), height: n(ext, "cy") };
  }
}
