import path from "node:path";
import type { Element } from "@xmldom/xmldom";
import { AppError } from "@/lib/core/errors";
import { readChart } from "./charts";
import type {
  Background,
  Bullet,
  Frame,
  ImportWarning,
  Paragraph,
  Placeholder,
  PptxDeck,
  PptxSlide,
  Run,
  Shape,
  TableCell,
} from "./model";
import { openZip, type ZipLimits, type ZipPackage, zipLimits } from "./zip";
import { attr, countTags, descendants, kid, kids, nameOf, parseXml, path as xpath, relAttr, xmlLimits } from "./xml";

// A PowerPoint package (.pptx) read into plain data (model.ts): the slides in the presentation's order
// (p:sldIdLst through its relationships), each slide's shapes with placeholders placed and styled from their
// layout and master, text with list levels, numbering and run formatting, tables, charts from their caches,
// pictures with crop and alt text, backgrounds, groups flattened into slide coordinates, speaker notes and
// hidden slides. Everything it approximates or leaves out is a warning naming the slide. Input it cannot read
// is an AppError (422) naming the problem; caps are those of zip.ts plus the limits below.

export const PPTX_TYPE = "application/vnd.openxmlformats-officedocument.presentationml.presentation";

export const pptxLimits = { maxBytes: 50 * 1024 * 1024, maxSlides: 500 };

const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/";
const OLE_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

type Rel = { type: string; target: string; external: boolean };

type Styled = {
  placeholders: Array<{ ph: Placeholder; frame: Frame | null; lstStyle: Element | null; bodyPr: Element | null }>;
  background: Element | null;
  part: string;
};
type Master = Styled & { txStyles: Element | null; clrMap: Record<string, string> };
type Layout = Styled & { name: string; master: Master };

function unreadable(message: string): AppError {
  return new AppError("invalid_request", `The file is not a PowerPoint package we can read: ${message}`);
}

/** Refuses what is not a .pptx before anything is inflated: legacy .ppt, encrypted packages, not a ZIP. */
function checkSignature(data: Buffer): void {
  if (data.length > pptxLimits.maxBytes) {
    throw new AppError(
      "payload_too_large",
      `The file is ${(data.length / 1024 / 1024).toFixed(1)} MB; at most ${pptxLimits.maxBytes / 1024 / 1024} MB is imported.`,
    );
  }
  if (data.subarray(0, 8).equals(OLE_SIGNATURE)) {
    // Both are OLE compound files; an encrypted package keeps its EncryptionInfo stream there.
    if (data.includes(Buffer.from("EncryptionInfo", "utf16le"))) {
      throw new AppError(
        "invalid_request",
        "The file is a password-protected (encrypted) PowerPoint package; remove the password in PowerPoint and import it again.",
      );
    }
    throw new AppError(
      "invalid_request",
      "The file is a legacy PowerPoint 97–2003 (.ppt) file; save it as .pptx in PowerPoint or LibreOffice and import that.",
    );
  }
  if (data.length < 4 || data.readUInt32LE(0) !== 0x04034b50) {
    throw unreadable("it is not a ZIP archive (a .pptx file is one).");
  }
}

export function readPptx(input: Uint8Array, limits: ZipLimits = zipLimits): PptxDeck {
  const data = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  checkSignature(data);
  const zip = openZip(data, limits);
  return new Reader(zip).read();
}

class Reader {
  private readonly warnings: ImportWarning[] = [];
  private readonly media: PptxDeck["media"] = {};
  private readonly xmlCache = new Map<string, Element>();
  private readonly relsCache = new Map<string, Map<string, Rel>>();
  private readonly masters = new Map<string, Master>();
  private readonly layouts = new Map<string, Layout>();
  private theme: PptxDeck["theme"] = { colors: {} };
  private clrMap: Record<string, string> = {};
  private slideNumber = 0;
  private elements = 0;

  constructor(private readonly zip: ZipPackage) {}

  read(): PptxDeck {
    const rootRels = this.rels("");
    const main = [...rootRels.values()].find((rel) => rel.type.endsWith("/officeDocument"));
    if (!main || !this.zip.has(main.target)) {
      throw unreadable("it has no presentation part (is it a PowerPoint file at all?).");
    }
    const presentation = this.xml(main.target);
    if (nameOf(presentation) !== "presentation") {
      throw unreadable(`its main part is a ${nameOf(presentation)}, not a presentation (a Word or Excel file?).`);
    }
    const ids = kids(kid(presentation, "sldIdLst"), "sldId");
    if (ids.length > pptxLimits.maxSlides) {
      throw new AppError(
        "payload_too_large",
        `The presentation has ${ids.length} slides; at most ${pptxLimits.maxSlides} are imported.`,
      );
    }
    const size = kid(presentation, "sldSz");
    const width = Number(attr(size, "cx") ?? 12_192_000) || 12_192_000;
    const height = Number(attr(size, "cy") ?? 6_858_000) || 6_858_000;
    const presentationRels = this.rels(main.target);
    const slides: PptxSlide[] = [];
    for (const id of ids) {
      const rel = presentationRels.get(relAttr(id, "id") ?? "");
      if (!rel || rel.external || !this.zip.has(rel.target)) {
        this.warn(slides.length + 1, "a slide listed by the presentation is missing from the package; left out");
        continue;
      }
      this.slideNumber = slides.length + 1;
      slides.push(this.slide(rel.target, this.slideNumber));
    }
    return {
      title: this.coreTitle(),
      width,
      height,
      slides,
      media: this.media,
      theme: this.theme,
      warnings: this.warnings,
    };
  }

  private warn(slide: number, message: string) {
    if (!this.warnings.some((w) => w.slide === slide && w.message === message)) this.warnings.push({ slide, message });
  }

  private xml(part: string): Element {
    let root = this.xmlCache.get(part);
    if (!root) {
      const bytes = this.zip.read(part);
      if (!bytes) throw unreadable(`its part ${part} is missing.`);
      const tags = countTags(bytes);
      this.elements += tags;
      if (tags > xmlLimits.maxElementsPerPart || this.elements > xmlLimits.maxElements) {
        throw new AppError(
          "payload_too_large",
          tags > xmlLimits.maxElementsPerPart
            ? `The package's part ${part} holds more than ${xmlLimits.maxElementsPerPart.toLocaleString("en")} XML elements; it is not read.`
            : `The package holds more than ${xmlLimits.maxElements.toLocaleString("en")} XML elements in all; it is not read.`,
        );
      }
      root = parseXml(bytes, part);
      this.xmlCache.set(part, root);
    }
    return root;
  }

  /** The relationships of a part ("" for the package's own), targets resolved to part names. */
  private rels(part: string): Map<string, Rel> {
    const cached = this.relsCache.get(part);
    if (cached) return cached;
    const dir = path.posix.dirname(part);
    const relsPart =
      part === "" ? "_rels/.rels" : `${dir === "." ? "" : `${dir}/`}_rels/${path.posix.basename(part)}.rels`;
    const out = new Map<string, Rel>();
    if (this.zip.has(relsPart)) {
      for (const rel of kids(this.xml(relsPart), "Relationship")) {
        const id = attr(rel, "Id");
        const target = attr(rel, "Target") ?? "";
        const type = attr(rel, "Type") ?? "";
        if (!id) continue;
        if (attr(rel, "TargetMode") === "External") {
          out.set(id, { type, target, external: true });
          continue;
        }
        const base = part === "" || dir === "." ? "" : dir;
        const joined = target.startsWith("/") ? target.slice(1) : path.posix.join(base, decodeURIComponentSafe(target));
        const normal = path.posix.normalize(joined);
        if (normal.startsWith("../") || normal === ".." || path.posix.isAbsolute(normal)) {
          throw unreadable(
            `a relationship of ${part || "the package"} points outside the package (${target.slice(0, 100)}).`,
          );
        }
        out.set(id, { type, target: normal, external: false });
      }
    }
    this.relsCache.set(part, out);
    return out;
  }

  private relOfType(part: string, type: string): Rel | undefined {
    return [...this.rels(part).values()].find((rel) => rel.type === REL + type && !rel.external);
  }

  private coreTitle(): string {
    const core = [...this.rels("").values()].find((rel) => rel.type.endsWith("/core-properties"));
    if (!core || !this.zip.has(core.target)) return "";
    return (descendants(this.xml(core.target), "title")[0]?.textContent ?? "").trim();
  }

  // ---- masters, layouts, theme -------------------------------------------------------------------------

  private styled(part: string): Styled {
    const root = this.xml(part);
    const cSld = kid(root, "cSld");
    const placeholders: Styled["placeholders"] = [];
    const walk = (tree: Element | null) => {
      for (const shape of kids(tree)) {
        if (shape.localName === "grpSp") walk(shape);
        const ph = placeholderOf(shape);
        if (!ph) continue;
        placeholders.push({
          ph,
          frame: frameOf(shape),
          lstStyle: xpath(shape, "txBody", "lstStyle"),
          bodyPr: xpath(shape, "txBody", "bodyPr"),
        });
      }
    };
    walk(kid(cSld, "spTree"));
    return { placeholders, background: kid(cSld, "bg"), part };
  }

  private master(part: string): Master {
    let master = this.masters.get(part);
    if (master) return master;
    const root = this.xml(part);
    const clrMap: Record<string, string> = {};
    const map = kid(root, "clrMap");
    for (const key of ["bg1", "tx1", "bg2", "tx2"]) clrMap[key] = attr(map, key) ?? "";
    master = { ...this.styled(part), txStyles: kid(root, "txStyles"), clrMap };
    this.masters.set(part, master);
    if (this.masters.size === 1) {
      this.clrMap = clrMap;
      const theme = this.relOfType(part, "theme");
      if (theme && this.zip.has(theme.target)) this.theme = readTheme(this.xml(theme.target));
    }
    return master;
  }

  private layout(part: string): Layout {
    let layout = this.layouts.get(part);
    if (layout) return layout;
    const masterRel = this.relOfType(part, "slideMaster");
    if (!masterRel || !this.zip.has(masterRel.target)) throw unreadable(`the layout ${part} has no slide master.`);
    const name = attr(kid(this.xml(part), "cSld"), "name") ?? "";
    layout = { ...this.styled(part), name, master: this.master(masterRel.target) };
    this.layouts.set(part, layout);
    return layout;
  }

  private color(holder: Element | null): string | undefined {
    if (!holder) return undefined;
    const srgb = kid(holder, "srgbClr");
    if (srgb) return hex(attr(srgb, "val"));
    const sys = kid(holder, "sysClr");
    if (sys) return hex(attr(sys, "lastClr")) ?? (attr(sys, "val") === "window" ? "#FFFFFF" : "#000000");
    const scheme = kid(holder, "schemeClr");
    if (scheme) {
      const name = attr(scheme, "val") ?? "";
      const mapped = this.clrMap[name] || { bg1: "lt1", tx1: "dk1", bg2: "lt2", tx2: "dk2" }[name] || name;
      return this.theme.colors[mapped];
    }
    const preset = kid(holder, "prstClr");
    if (preset) return presetColors[attr(preset, "val") ?? ""];
    return undefined;
  }

  // ---- slides ------------------------------------------------------------------------------------------

  private slide(part: string, number: number): PptxSlide {
    const root = this.xml(part);
    const layoutRel = this.relOfType(part, "slideLayout");
    if (!layoutRel || !this.zip.has(layoutRel.target)) throw unreadable(`slide ${number} has no layout.`);
    const layout = this.layout(layoutRel.target);
    const cSld = kid(root, "cSld");
    const context: SlideContext = { part, layout, number };
    // The colour mapping this slide is drawn with: its own override, else its layout's, else its master's
    // (a layout of a light master may map the background to a dark colour and the text to a light one).
    const override = (owner: Element) => xpath(owner, "clrMapOvr", "overrideClrMapping");
    const mapping = override(root) ?? override(this.xml(layout.part));
    const clrMap = { ...layout.master.clrMap };
    if (mapping) for (const key of ["bg1", "tx1", "bg2", "tx2"]) clrMap[key] = attr(mapping, key) ?? clrMap[key] ?? "";
    this.clrMap = clrMap;
    const shapes = this.shapes(kid(cSld, "spTree"), context, null);
    const name = attr(cSld, "name")?.trim();
    // What the master and the layout draw on every slide (their shapes that are not placeholders), unless the
    // slide or the layout hides them (showMasterSp="0"). Read without warnings: a decoration approximated
    // is not news on every slide.
    const behind: Shape[] = [];
    if (attr(root, "showMasterSp") !== "0") {
      const quiet: SlideContext = { ...context, number: 0, quiet: true };
      const decorations = (owner: string) =>
        kids(xpath(this.xml(owner), "cSld", "spTree")).filter((element) => !placeholderOf(element));
      if (attr(this.xml(layout.part), "showMasterSp") !== "0") {
        for (const element of decorations(layout.master.part)) {
          const shape = this.shape(element, { ...quiet, part: layout.master.part }, null);
          if (shape) behind.push(...(Array.isArray(shape) ? shape : [shape]));
        }
      }
      for (const element of decorations(layout.part)) {
        const shape = this.shape(element, { ...quiet, part: layout.part }, null);
        if (shape) behind.push(...(Array.isArray(shape) ? shape : [shape]));
      }
    }
    return {
      number,
      hidden: attr(root, "show") === "0",
      ...(name ? { name } : {}),
      layoutName: layout.name,
      ...withBackground(
        this.background(kid(cSld, "bg"), part) ??
          this.background(layout.background, layout.part) ??
          this.background(layout.master.background, layout.master.part),
      ),
      shapes,
      ...(behind.length > 0 ? { masterShapes: behind } : {}),
      notes: this.notes(part),
    };
  }

  private background(bg: Element | null, part: string): Background | undefined {
    if (!bg) return undefined;
    const props = kid(bg, "bgPr");
    if (props) {
      const solid = kid(props, "solidFill");
      if (solid) {
        const color = this.color(solid);
        return color ? { kind: "solid", color } : undefined;
      }
      const gradient = kid(props, "gradFill");
      if (gradient) return this.gradient(gradient);
      const blip = xpath(props, "blipFill", "blip");
      if (blip) {
        const media = this.mediaOf(part, relAttr(blip, "embed"));
        return media ? { kind: "picture", media } : undefined;
      }
      if (kid(props, "pattFill")) {
        this.warn(this.slideNumber, "a patterned background, drawn as its foreground colour");
        const color = this.color(xpath(props, "pattFill", "fgClr"));
        return color ? { kind: "solid", color } : undefined;
      }
      return undefined;
    }
    const ref = kid(bg, "bgRef");
    if (ref) {
      const color = this.color(ref);
      return color ? { kind: "solid", color } : undefined;
    }
    return undefined;
  }

  private gradient(gradient: Element): Background | undefined {
    const stops = kids(kid(gradient, "gsLst"), "gs")
      .map((gs) => ({ position: Number(attr(gs, "pos") ?? 0) / 1000, color: this.color(gs) }))
      .filter((stop): stop is { position: number; color: string } => stop.color !== undefined);
    if (stops.length === 0) return undefined;
    const angle = Number(attr(kid(gradient, "lin"), "ang") ?? 0) / 60000;
    return { kind: "gradient", angle, stops };
  }

  private notes(part: string): string {
    const rel = this.relOfType(part, "notesSlide");
    if (!rel || !this.zip.has(rel.target)) return "";
    const tree = xpath(this.xml(rel.target), "cSld", "spTree");
    const body = kids(tree, "sp").filter((sp) => placeholderOf(sp)?.type === "body");
    return body
      .flatMap((sp) => kids(kid(sp, "txBody"), "p").map((p) => runsText(p)))
      .join("\n")
      .trim();
  }

  /** A picture part of the package by relationship id, kept once in `media`; its part name. */
  private mediaOf(part: string, id: string | null): string | undefined {
    if (!id) return undefined;
    const rel = this.rels(part).get(id);
    if (!rel) return undefined;
    if (rel.external) {
      this.warn(this.slideNumber, "a linked picture outside the package (not fetched); left out");
      return undefined;
    }
    if (this.media[rel.target]) return rel.target;
    const contentType = imageType(rel.target);
    if (!contentType) {
      this.warn(
        this.slideNumber,
        `a picture in a format that is not imported (${path.posix.extname(rel.target) || "unknown"}); left out`,
      );
      return undefined;
    }
    const bytes = this.zip.read(rel.target);
    if (!bytes) return undefined;
    this.media[rel.target] = { contentType, bytes: new Uint8Array(bytes) };
    return rel.target;
  }

  private shapes(tree: Element | null, context: SlideContext, transform: Transform | null): Shape[] {
    const out: Shape[] = [];
    for (const element of kids(tree)) {
      const shape = this.shape(element, context, transform);
      if (shape) out.push(...(Array.isArray(shape) ? shape : [shape]));
    }
    return out;
  }

  private shape(element: Element, context: SlideContext, transform: Transform | null): Shape | Shape[] | null {
    const name = attr(descendants(element, "cNvPr")[0], "name") ?? "";
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
        return null;
      case "contentPart":
        this.warn(context.number, "ink (a content part); left out");
        return null;
      default:
        return null;
    }
  }

  private textShape(element: Element, context: SlideContext, transform: Transform | null, name: string): Shape | null {
    const ph = placeholderOf(element);
    const inherited = ph ? this.inherited(ph, context.layout) : [];
    const frame = placed(frameOf(element) ?? inherited.find((found) => found.frame)?.frame ?? null, transform);
    const txBody = kid(element, "txBody");
    const styles = [
      xpath(txBody, "lstStyle"),
      ...inherited.map((found) => found.lstStyle),
      this.textStyle(ph, context.layout.master),
    ];
    const paragraphs = kids(txBody, "p").map((p) => this.paragraph(p, styles, context.part));
    const bodies = [xpath(txBody, "bodyPr"), ...inherited.map((found) => found.bodyPr)];
    const anchor = ({ t: "top", ctr: "middle", b: "bottom" } as const)[
      (bodies.map((body) => attr(body, "anchor")).find(Boolean) ?? "") as "t"
    ];
    const fontScale = Number(attr(xpath(txBody, "bodyPr", "normAutofit"), "fontScale") ?? 100_000) / 100_000;
    const spPr = kid(element, "spPr");
    // A shape that says nothing of its fill takes its style's (a drawn shape's theme colour), unless it has none.
    const styleFill = kid(spPr, "noFill") ? null : xpath(element, "style", "fillRef");
    const fill =
      this.color(kid(spPr, "solidFill")) ??
      (styleFill && Number(attr(styleFill, "idx") ?? 0) > 0 ? this.color(styleFill) : undefined);
    const geometry = attr(kid(spPr, "prstGeom"), "prst") ?? undefined;
    const freeform = kid(spPr, "custGeom") !== null;
    if (freeform && !context.quiet)
      this.warn(context.number, `a freeform shape ("${name}") is left out; its text is kept`);
    if (descendants(txBody, "prstTxWarp").some((warp) => attr(warp, "prst") !== "textNoShape")) {
      this.warn(context.number, `WordArt effects on "${name}" are left out; its text is kept`);
    }
    return {
      kind: "text",
      name,
      frame,
      ...(ph ? { placeholder: ph } : {}),
      paragraphs,
      ...(fill ? { fill } : {}),
      ...(freeform ? { geometry: "custom" } : geometry && geometry !== "rect" ? { geometry } : {}),
      ...(anchor ? { anchor } : {}),
      ...(fontScale > 0 && fontScale < 1 ? { fontScale } : {}),
    };
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

  private paragraph(p: Element, styles: Array<Element | null>, part: string): Paragraph {
    const pPr = kid(p, "pPr");
    const level = Math.min(8, Math.max(0, Number(attr(pPr, "lvl") ?? 0) || 0));
    const levelStyles = styles.map((style) => kid(style, `lvl${level + 1}pPr`));
    const bullet = bulletOf([pPr, ...levelStyles]);
    const align = ({ l: "left", ctr: "center", r: "right", just: "justify" } as const)[
      (attr(pPr, "algn") ?? levelStyles.map((style) => attr(style, "algn")).find(Boolean) ?? "") as "l"
    ];
    const runs: Run[] = [];
    for (const child of kids(p)) {
      if (nameOf(child) === "br") runs.push({ text: "\n" });
      if (nameOf(child) !== "r" && nameOf(child) !== "fld") continue;
      const text = kid(child, "t")?.textContent ?? "";
      if (!text) continue;
      runs.push(this.run(text, kid(child, "rPr"), part));
    }
    const inherited = this.runDefaults(levelStyles, part);
    return { level, bullet, ...(align ? { align } : {}), runs, ...(inherited ? { inherited } : {}) };
  }

  /** What a paragraph's runs take from its list styles (the shape's, the layout's, the master's) when they say nothing. */
  private runDefaults(levelStyles: Array<Element | null>, part: string): Paragraph["inherited"] {
    const out: NonNullable<Paragraph["inherited"]> = {};
    for (const style of levelStyles) {
      const defaults = this.run("", kid(style, "defRPr"), part);
      const typeface = attr(xpath(style, "defRPr", "latin"), "typeface");
      if (typeface === "+mj-lt" && this.theme.majorFont) defaults.font = this.theme.majorFont;
      if (typeface === "+mn-lt" && this.theme.minorFont) defaults.font = this.theme.minorFont;
      const flag = (name: "b" | "i") => attr(kid(style, "defRPr"), name);
      if (out.size === undefined && defaults.size) out.size = defaults.size;
      if (out.color === undefined && defaults.color) out.color = defaults.color;
      if (out.font === undefined && defaults.font) out.font = defaults.font;
      if (out.bold === undefined && flag("b")) out.bold = defaults.bold === true;
      if (out.italic === undefined && flag("i")) out.italic = defaults.italic === true;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }

  private run(text: string, rPr: Element | null, part: string): Run {
    const run: Run = { text };
    const flag = (name: string) => {
      const value = attr(rPr, name);
      return value === "1" || value === "true";
    };
    if (flag("b")) run.bold = true;
    if (flag("i")) run.italic = true;
    const underline = attr(rPr, "u");
    if (underline && underline !== "none") run.underline = true;
    const size = Number(attr(rPr, "sz"));
    if (size > 0) run.size = size / 100;
    const color = this.color(kid(rPr, "solidFill"));
    if (color) run.color = color;
    const font = attr(kid(rPr, "latin"), "typeface");
    if (font && !font.startsWith("+")) run.font = font;
    const link = this.rels(part).get(relAttr(kid(rPr, "hlinkClick"), "id") ?? "");
    if (link?.external && /^(https?:|mailto:)/i.test(link.target)) run.href = link.target;
    return run;
  }

  private picture(element: Element, context: SlideContext, transform: Transform | null, name: string): Shape | null {
    const cNvPr = descendants(element, "cNvPr")[0];
    const nvPr = xpath(element, "nvPicPr", "nvPr");
    if (kid(nvPr, "videoFile") || kid(nvPr, "audioFile") || kid(nvPr, "quickTimeFile")) {
      this.warn(
        context.number,
        `${kid(nvPr, "audioFile") ? "audio" : "a video"} ("${name}") left out; its poster picture is kept`,
      );
    }
    const blipFill = kid(element, "blipFill");
    const media = this.mediaOf(context.part, relAttr(kid(blipFill, "blip"), "embed"));
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
    const frame = placed(frameOf(element), transform);
    const data = xpath(element, "graphic", "graphicData");
    const uri = attr(data, "uri") ?? "";
    if (uri.endsWith("/table")) return this.table(kid(data, "tbl"), context, name, frame);
    if (uri.endsWith("/chart")) {
      const rel = this.rels(context.part).get(relAttr(kid(data, "chart"), "id") ?? "");
      if (!rel || rel.external || !this.zip.has(rel.target)) {
        this.warn(context.number, `the chart "${name}" is missing from the package; left out`);
        return null;
      }
      const read = readChart(this.xml(rel.target));
      for (const note of read.notes) this.warn(context.number, `${note} ("${name}")`);
      return read.chart ? { kind: "chart", name, frame, chart: read.chart } : null;
    }
    if (uri.endsWith("/diagram")) return this.smartArt(data, context, name, frame);
    // An OLE object (an embedded workbook, an equation…) shows the picture PowerPoint keeps of it.
    const pictures = descendants(data, "pic");
    const what = uri.endsWith("/ole") ? "an embedded object (OLE)" : "an object of a kind that is not imported";
    if (pictures.length > 0) {
      this.warn(context.number, `${what} ("${name}") comes in as its picture`);
      return pictures
        .map((pic) => this.picture(pic, context, null, name))
        .filter((s): s is Shape => s !== null)
        .map((shape) => ({ ...shape, frame }));
    }
    this.warn(context.number, `${what} ("${name}") left out`);
    return null;
  }

  private table(tbl: Element | null, context: SlideContext, name: string, frame: Frame | null): Shape {
    const tblPr = kid(tbl, "tblPr");
    const columnWidths = kids(kid(tbl, "tblGrid"), "gridCol").map((col) => Number(attr(col, "w") ?? 0));
    const rows: TableCell[][] = kids(tbl, "tr").map((tr) =>
      kids(tr, "tc").map((tc) => {
        const fill = this.color(xpath(tc, "tcPr", "solidFill"));
        return {
          // A cell's text has no placeholder or list styles to inherit.
          paragraphs: kids(kid(tc, "txBody"), "p").map((p) => this.paragraph(p, [], context.part)),
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
    const relIds = kid(data, "relIds");
    const rel = this.rels(context.part).get(relAttr(relIds, "dm") ?? "");
    if (!rel || rel.external || !this.zip.has(rel.target)) {
      this.warn(context.number, `a SmartArt diagram ("${name}") left out`);
      return null;
    }
    const points = descendants(kid(this.xml(rel.target), "ptLst"), "pt").filter(
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
      this.warn(context.number, `a SmartArt diagram ("${name}") without text; left out`);
      return null;
    }
    this.warn(context.number, `a SmartArt diagram ("${name}") comes in as a list of its text`);
    return { kind: "text", name, frame, paragraphs };
  }
}

type SlideContext = { part: string; layout: Layout; number: number; quiet?: boolean };
type Transform = { x: number; y: number; sx: number; sy: number; cx: number; cy: number };

function withBackground(background: Background | undefined): { background?: Background } {
  return background ? { background } : {};
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function placeholderOf(shape: Element): Placeholder | undefined {
  const nv = kids(shape).find((child) => nameOf(child).startsWith("nv"));
  const ph = xpath(nv, "nvPr", "ph");
  if (!ph) return undefined;
  const idx = attr(ph, "idx");
  return { type: attr(ph, "type") ?? "obj", ...(idx !== null ? { idx } : {}) };
}

function sameKind(a: string, b: string): boolean {
  const kind = (type: string) =>
    type === "ctrTitle" ? "title" : type === "obj" || type === "subTitle" ? "body" : type;
  return kind(a) === kind(b);
}

function frameOf(shape: Element): Frame | null {
  const xfrm = xpath(shape, "spPr", "xfrm") ?? xpath(shape, "grpSpPr", "xfrm") ?? kid(shape, "xfrm") ?? null;
  const off = kid(xfrm, "off");
  const ext = kid(xfrm, "ext");
  if (!off || !ext) return null;
  const rotation = Number(attr(xfrm, "rot") ?? 0) / 60000;
  return {
    x: Number(attr(off, "x") ?? 0),
    y: Number(attr(off, "y") ?? 0),
    width: Number(attr(ext, "cx") ?? 0),
    height: Number(attr(ext, "cy") ?? 0),
    ...(rotation ? { rotation } : {}),
  };
}

// A group's children are placed in its own coordinate space (chOff/chExt), scaled onto its frame.
function groupTransform(xfrm: Element | null, outer: Transform | null): Transform | null {
  const off = kid(xfrm, "off");
  const ext = kid(xfrm, "ext");
  const chOff = kid(xfrm, "chOff");
  const chExt = kid(xfrm, "chExt");
  if (!off || !ext || !chOff || !chExt) return outer;
  const n = (element: Element, name: string) => Number(attr(element, name) ?? 0);
  const own: Transform = {
    x: n(off, "x"),
    y: n(off, "y"),
    cx: n(chOff, "x"),
    cy: n(chOff, "y"),
    sx: n(chExt, "cx") ? n(ext, "cx") / n(chExt, "cx") : 1,
    sy: n(chExt, "cy") ? n(ext, "cy") / n(chExt, "cy") : 1,
  };
  if (!outer) return own;
  // Compose: the group's own frame is itself in the outer group's space.
  return {
    x: outer.x + (own.x - outer.cx) * outer.sx,
    y: outer.y + (own.y - outer.cy) * outer.sy,
    cx: own.cx,
    cy: own.cy,
    sx: own.sx * outer.sx,
    sy: own.sy * outer.sy,
  };
}

function placed(frame: Frame | null, transform: Transform | null): Frame | null {
  if (!frame || !transform) return frame;
  return {
    ...frame,
    x: Math.round(transform.x + (frame.x - transform.cx) * transform.sx),
    y: Math.round(transform.y + (frame.y - transform.cy) * transform.sy),
    width: Math.round(frame.width * transform.sx),
    height: Math.round(frame.height * transform.sy),
  };
}

function bulletOf(chain: Array<Element | null>): Bullet {
  for (const pPr of chain) {
    if (!pPr) continue;
    if (kid(pPr, "buNone")) return { kind: "none" };
    const auto = kid(pPr, "buAutoNum");
    if (auto) {
      return {
        kind: "number",
        scheme: attr(auto, "type") ?? "arabicPeriod",
        startAt: Math.max(1, Number(attr(auto, "startAt") ?? 1) || 1),
      };
    }
    const char = kid(pPr, "buChar");
    if (char) return { kind: "char", char: attr(char, "char") ?? "•" };
    if (kid(pPr, "buBlip")) return { kind: "char", char: "•" };
  }
  return { kind: "none" };
}

function runsText(p: Element): string {
  return kids(p)
    .map((child) =>
      nameOf(child) === "br"
        ? "\n"
        : nameOf(child) === "r" || nameOf(child) === "fld"
          ? (kid(child, "t")?.textContent ?? "")
          : "",
    )
    .join("");
}

function readTheme(theme: Element): PptxDeck["theme"] {
  const elements = kid(theme, "themeElements");
  const colors: Record<string, string> = {};
  for (const entry of kids(kid(elements, "clrScheme"))) {
    const srgb = kid(entry, "srgbClr");
    const sys = kid(entry, "sysClr");
    const value = srgb ? hex(attr(srgb, "val")) : hex(attr(sys, "lastClr"));
    if (value) colors[nameOf(entry)] = value;
  }
  const fonts = kid(elements, "fontScheme");
  const majorFont = attr(xpath(fonts, "majorFont", "latin"), "typeface") || undefined;
  const minorFont = attr(xpath(fonts, "minorFont", "latin"), "typeface") || undefined;
  return { colors, ...(majorFont ? { majorFont } : {}), ...(minorFont ? { minorFont } : {}) };
}

function hex(value: string | null): string | undefined {
  return value && /^[0-9A-Fa-f]{6}$/.test(value) ? `#${value.toUpperCase()}` : undefined;
}

const presetColors: Record<string, string> = {
  black: "#000000",
  white: "#FFFFFF",
  red: "#FF0000",
  green: "#008000",
  blue: "#0000FF",
  yellow: "#FFFF00",
  gray: "#808080",
};

const imageTypes: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".svg": "image/svg+xml",
  ".bmp": "image/bmp",
  ".tif": "image/tiff",
  ".tiff": "image/tiff",
};

function imageType(part: string): string | undefined {
  return imageTypes[path.posix.extname(part).toLowerCase()];
}
