// A PowerPoint package (.pptx) read into plain data (model.ts): the slides in the presentation's order
// (p:sldIdLst through its relationships), each drawn with its own master's theme and colour map, its
// background (its own, its layout's or its master's; solid, gradient, picture, or a reference into the
// theme's background fill styles), its shapes (shapes.ts) with placeholders placed and styled from their
// layout and master, the master's and layout's decorations behind them, speaker notes and hidden slides.
// Everything it approximates or leaves out is a warning naming the slide. Input it cannot read is an
// AppError (422) naming the problem; caps are those of zip.ts and package.ts.
import type { Element } from "@xmldom/xmldom";
import { AppError } from "@/lib/core/errors";
import { logger } from "@/lib/core/log";
import { type ColorScheme, colorOf, readTheme, type ThemeParts } from "./colors";
import { placeholderOf } from "./geometry";
import type { Background, Gradient, ImportWarning, PptxDeck, PptxSlide, Shape } from "./model";
import { checkSignature, imageType, PptxParts, pptxLimits, unreadable } from "./package";
import { type Layout, type Master, ShapeReader, type SlideContext, type Styled } from "./shapes";
import { runsText } from "./text";
import { attr, kid, kids, nameOf, path as xpath, relAttr } from "./xml";
import { openZip, type ZipLimits, zipLimits } from "./zip";

export { PPTX_TYPE, pptxLimits } from "./package";

const log = logger("pptx-import");

export function readPptx(input: Uint8Array, limits: ZipLimits = zipLimits): PptxDeck {
  const data = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  checkSignature(data);
  try {
    return new Reader(new PptxParts(openZip(data, limits))).read();
  } catch (error) {
    // A package this reader cannot follow (a part shaped as no PowerPoint writes it, nesting past the stack)
    // is the file's problem, answered 422 like the rest; the server keeps the cause in its log.
    if (error instanceof AppError) throw error;
    log.warn("a PowerPoint package could not be read", { error });
    throw new AppError(
      "invalid_request",
      "The PowerPoint file could not be read: it is damaged or was written in a way this importer does not follow. Open it in PowerPoint and save it again, then import the copy.",
    );
  }
}

/** A fill as read: none said, explicitly none, or what Background holds. */
type Fill = Background | { kind: "none" };

const EMPTY_THEME: ThemeParts = { part: "", theme: { colors: {} }, fills: [], lines: [], backgrounds: [] };
const FILLS = new Set(["noFill", "solidFill", "gradFill", "blipFill", "pattFill"]);

export class Reader {
  private readonly warnings: ImportWarning[] = [];
  private readonly media: PptxDeck["media"] = {};
  private readonly masters = new Map<string, Master>();
  private readonly layouts = new Map<string, Layout>();
  private readonly shapeReader = new ShapeReader(this);
  /** The deck's theme: its first master's. */
  private deckTheme: PptxDeck["theme"] = { colors: {} };
  /** The theme of the master the slide being read is drawn with. */
  themeParts: ThemeParts = EMPTY_THEME;
  private scheme: ColorScheme = { colors: {}, clrMap: {} };
  slideNumber = 0;
  private slideSize = { width: 12_192_000, height: 6_858_000 };
  private readonly drawn = new Map<string, string>();

  constructor(readonly parts: PptxParts) {}

  read(): PptxDeck {
    const parts = this.parts;
    const main = [...parts.rels("").values()].find((rel) => rel.type.endsWith("/officeDocument"));
    if (!main || !parts.has(main.target)) {
      throw unreadable("it has no presentation part (is it a PowerPoint file at all?).");
    }
    const presentation = parts.xml(main.target);
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
    this.slideSize = { width, height };
    const presentationRels = parts.rels(main.target);
    const slides: PptxSlide[] = [];
    for (const id of ids) {
      const rel = presentationRels.get(relAttr(id, "id") ?? "");
      if (!rel || rel.external || !parts.has(rel.target)) {
        this.warn(slides.length + 1, "a slide listed by the presentation is missing from the package; left out");
        continue;
      }
      this.slideNumber = slides.length + 1;
      slides.push(this.slide(rel.target, this.slideNumber));
    }
    return {
      title: parts.coreTitle(),
      width,
      height,
      slides,
      media: this.media,
      theme: this.deckTheme,
      warnings: this.warnings,
    };
  }

  warn(slide: number, message: string) {
    if (!this.warnings.some((w) => w.slide === slide && w.message === message)) this.warnings.push({ slide, message });
  }

  /** A colour as the slide being read draws it; `placeholder` is what phClr stands for. */
  color(holder: Element | null, placeholder?: string): string | undefined {
    return colorOf(holder, this.scheme, placeholder);
  }

  // ---- masters, layouts --------------------------------------------------------------------------------

  private styled(part: string): Styled {
    const cSld = kid(this.parts.xml(part), "cSld");
    const placeholders: Styled["placeholders"] = [];
    const walk = (tree: Element | null) => {
      for (const shape of kids(tree)) {
        if (shape.localName === "grpSp") walk(shape);
        const ph = placeholderOf(shape);
        if (!ph) continue;
        placeholders.push({
          ph,
          frame: this.shapeReader.frame(shape),
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
    const root = this.parts.xml(part);
    const clrMap: Record<string, string> = {};
    const map = kid(root, "clrMap");
    for (const key of ["bg1", "tx1", "bg2", "tx2"]) clrMap[key] = attr(map, key) ?? "";
    const themeRel = this.parts.relOfType(part, "theme");
    const theme =
      themeRel && this.parts.has(themeRel.target)
        ? readTheme(this.parts.xml(themeRel.target), themeRel.target)
        : EMPTY_THEME;
    master = { ...this.styled(part), txStyles: kid(root, "txStyles"), clrMap, theme };
    this.masters.set(part, master);
    if (this.masters.size === 1) this.deckTheme = theme.theme;
    return master;
  }

  private layout(part: string): Layout {
    let layout = this.layouts.get(part);
    if (layout) return layout;
    const masterRel = this.parts.relOfType(part, "slideMaster");
    if (!masterRel || !this.parts.has(masterRel.target)) throw unreadable(`the layout ${part} has no slide master.`);
    const name = attr(kid(this.parts.xml(part), "cSld"), "name") ?? "";
    layout = { ...this.styled(part), name, master: this.master(masterRel.target) };
    this.layouts.set(part, layout);
    return layout;
  }

  // ---- slides ------------------------------------------------------------------------------------------

  private slide(part: string, number: number): PptxSlide {
    const root = this.parts.xml(part);
    const layoutRel = this.parts.relOfType(part, "slideLayout");
    if (!layoutRel || !this.parts.has(layoutRel.target)) throw unreadable(`slide ${number} has no layout.`);
    const layout = this.layout(layoutRel.target);
    const cSld = kid(root, "cSld");
    const context: SlideContext = { part, layout, number };
    // The colours this slide is drawn with: its master's theme, and its own colour mapping override, else
    // its layout's, else its master's (a layout of a light master may map the background to a dark colour).
    const override = (owner: Element) => xpath(owner, "clrMapOvr", "overrideClrMapping");
    const mapping = override(root) ?? override(this.parts.xml(layout.part));
    const clrMap = { ...layout.master.clrMap };
    if (mapping) for (const key of ["bg1", "tx1", "bg2", "tx2"]) clrMap[key] = attr(mapping, key) ?? clrMap[key] ?? "";
    this.themeParts = layout.master.theme;
    this.scheme = { colors: layout.master.theme.theme.colors, clrMap };
    const shapes = this.shapeReader.shapes(kid(cSld, "spTree"), context, null);
    const name = attr(cSld, "name")?.trim();
    // What the master and the layout draw on every slide (their shapes that are not placeholders), unless the
    // slide or the layout hides them (showMasterSp="0"). Read without warnings: a decoration approximated
    // is not news on every slide.
    const behind: Shape[] = [];
    if (attr(root, "showMasterSp") !== "0") {
      const quiet: SlideContext = { ...context, number: 0, quiet: true };
      const decorations = (owner: string) =>
        kids(xpath(this.parts.xml(owner), "cSld", "spTree")).filter((element) => !placeholderOf(element));
      const owners = attr(this.parts.xml(layout.part), "showMasterSp") !== "0" ? [layout.master.part] : [];
      for (const owner of [...owners, layout.part]) {
        for (const element of decorations(owner)) {
          const shape = this.shapeReader.shape(element, { ...quiet, part: owner }, null);
          if (shape) behind.push(...(Array.isArray(shape) ? shape : [shape]));
        }
      }
    }
    const background =
      this.background(kid(cSld, "bg"), part) ??
      this.background(layout.background, layout.part) ??
      this.background(layout.master.background, layout.master.part);
    return {
      number,
      hidden: attr(root, "show") === "0",
      ...(name ? { name } : {}),
      layoutName: layout.name,
      ...(background ? { background } : {}),
      shapes,
      ...(behind.length > 0 ? { masterShapes: behind } : {}),
      notes: this.notes(part),
    };
  }

  private background(bg: Element | null, part: string): Background | undefined {
    if (!bg) return undefined;
    const props = kid(bg, "bgPr");
    const ref = kid(bg, "bgRef");
    const fill = props ? this.fill(props, part) : ref ? this.styleFill(ref) : undefined;
    return fill && fill.kind !== "none" ? fill : undefined;
  }

  /**
   * The fill an element holds (spPr, bgPr): solid, gradient, picture, a pattern as its foreground colour,
   * or none; undefined when it says nothing. phClr stands for `placeholder`.
   */
  fill(holder: Element | null, part: string, placeholder?: string): Fill | undefined {
    const element = kids(holder).find((child) => FILLS.has(nameOf(child)));
    return element ? this.fillElement(element, part, placeholder) : undefined;
  }

  private fillElement(element: Element, part: string, placeholder?: string): Fill | undefined {
    switch (nameOf(element)) {
      case "noFill":
        return { kind: "none" };
      case "solidFill": {
        const color = this.color(element, placeholder);
        return color ? { kind: "solid", color } : undefined;
      }
      case "gradFill": {
        const read = this.gradient(element, placeholder);
        return read ? { kind: "gradient", ...read } : undefined;
      }
      case "blipFill": {
        // A picture recoloured in two tones of a colour (a theme's texture): those tones, top to bottom.
        const duotone = kids(xpath(element, "blip", "duotone")).map((tone) => this.color(tone, placeholder));
        if (duotone.length === 2 && duotone[0] && duotone[1]) {
          this.warn(this.slideNumber, "a recoloured (duotone) picture fill, drawn as a gradient of its two tones");
          const [dark, light] = duotone as [string, string];
          return {
            kind: "gradient",
            angle: 90,
            stops: [
              { position: 0, color: light },
              { position: 100, color: dark },
            ],
          };
        }
        const media = this.mediaOf(part, relAttr(kid(element, "blip"), "embed"));
        if (!media) return undefined;
        // Tiled: each copy at its scale, over an area the caller sizes (the slide here).
        const tile = kid(element, "tile");
        if (!tile) return { kind: "picture", media };
        const scale = (name: string) => Number(attr(tile, name) ?? 100_000) / 100_000 || 1;
        return { kind: "picture", media, tile: { scaleX: scale("sx"), scaleY: scale("sy"), ...this.slideSize } };
      }
      case "pattFill": {
        this.warn(this.slideNumber, "a patterned fill, drawn as its foreground colour");
        const color = this.color(kid(element, "fgClr"), placeholder);
        return color ? { kind: "solid", color } : undefined;
      }
      default:
        return undefined;
    }
  }

  /** The theme's fill a style reference (fillRef, bgRef) points at: idx 1-999 fills, 1001 and up backgrounds. */
  styleFill(ref: Element): Fill | undefined {
    const idx = Number(attr(ref, "idx") ?? 0);
    if (!idx) return undefined;
    const color = this.color(ref);
    const theme = this.themeParts;
    const style = idx >= 1001 ? theme.backgrounds[idx - 1001] : theme.fills[idx - 1];
    // A theme without its style matrix: the reference's own colour.
    if (!style) return color ? { kind: "solid", color } : undefined;
    return this.fillElement(style, theme.part, color);
  }

  gradient(gradient: Element, placeholder?: string): Gradient | undefined {
    const stops = kids(kid(gradient, "gsLst"), "gs")
      .map((gs) => ({ position: Number(attr(gs, "pos") ?? 0) / 1000, color: this.color(gs, placeholder) }))
      .filter((stop): stop is { position: number; color: string } => stop.color !== undefined);
    if (stops.length === 0) return undefined;
    // A path gradient (circle, rectangle, shape) as a radial one from the centre; its focus is not kept.
    if (kid(gradient, "path")) return { angle: 0, radial: true, stops };
    const angle = Number(attr(kid(gradient, "lin"), "ang") ?? 0) / 60000;
    return { angle, stops };
  }

  private notes(part: string): string {
    const rel = this.parts.relOfType(part, "notesSlide");
    if (!rel || !this.parts.has(rel.target)) return "";
    const tree = xpath(this.parts.xml(rel.target), "cSld", "spTree");
    const body = kids(tree, "sp").filter((sp) => placeholderOf(sp)?.type === "body");
    return body
      .flatMap((sp) => kids(kid(sp, "txBody"), "p").map((p) => runsText(p)))
      .join("\n")
      .trim();
  }

  /** A picture part of the package by relationship id, kept once in `media`; its part name. */
  mediaOf(part: string, id: string | null): string | undefined {
    if (!id) return undefined;
    const rel = this.parts.rels(part).get(id);
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
        `a picture in a format that is not imported (${rel.target.split(".").pop()}); left out`,
      );
      return undefined;
    }
    const bytes = this.parts.zip.read(rel.target);
    if (!bytes) return undefined;
    this.media[rel.target] = { contentType, bytes: new Uint8Array(bytes) };
    return rel.target;
  }

  /** A picture the reader drew (a freeform as SVG), kept in `media` under a name of its own; that name. */
  drawnMedia(svg: string): string {
    // The master's decorations are drawn behind every slide: each picture is kept once.
    let name = this.drawn.get(svg);
    if (!name) {
      name = `deckhand/drawn-${this.drawn.size + 1}.svg`;
      this.drawn.set(svg, name);
      this.media[name] = { contentType: "image/svg+xml", bytes: new TextEncoder().encode(svg) };
    }
    return name;
  }
}
