// Runs inside the export renderer's page (player in export mode, every slide a .dh-export-page) and
// describes each slide as native PowerPoint material: shapes with fills, borders and radii; text boxes
// with runs; tables; and, only where PowerPoint has no equivalent (SVG, images, gradients, filters),
// an item for a picture the renderer screenshots. Built by scripts/build-player.ts as a classic script.
//
// The renderer evaluates it in an isolated world of the page (lib/exports/render-export.ts): the DOM is
// the deck's, but the globals, prototypes and built-ins used here are not, so nothing the deck's scripts
// redefine (Object.defineProperty, Array.prototype.map, JSON, getComputedStyle…) reaches this code.
import {
  type Rect,
  type RasterItem,
  type Rgba,
  type SlideItem,
  type SlideModel,
  type TableCell,
  type TextRun,
  slideModelLimits as limits,
} from "@/lib/contract/slide-model";
import { assetPathPattern } from "@/lib/contract/slide-model";
import { parseColor } from "./color";

// Marks this extraction puts on the deck's elements carry a value of its own, so markup of the deck's
// that happens to look the same is not taken for them.
const token = Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) => byte.toString(16).padStart(2, "0")).join(
  "",
);

function px(value: string): number {
  const number = Number.parseFloat(value);
  return Number.isFinite(number) ? number : 0;
}

const within = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
/** A position on (or off) the canvas, within what the model may hold. */
const position = (value: number) => within(value, -limits.coordinate, limits.coordinate);
/** A size, within what the model may hold. */
const size = (value: number) => within(value, 0, limits.coordinate);

// The first family of a computed font-family, as its name: quotes and CSS escapes undone, reduced to a
// plain name (no control or formatting characters), or Arial when nothing usable is left.
function firstFamily(fontFamily: string): string {
  let family = "";
  let quote: string | null = null;
  for (let index = 0; index < fontFamily.length; index++) {
    const character = fontFamily[index]!;
    if (character === "\\") {
      const escape = /^([0-9a-fA-F]{1,6})[ \t\n]?/.exec(fontFamily.slice(index + 1, index + 8));
      if (escape) {
        const code = Number.parseInt(escape[1]!, 16);
        family +=
          code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? "\uFFFD" : String.fromCodePoint(code);
        index += escape[0].length;
      } else if (index + 1 < fontFamily.length) {
        family += fontFamily[++index];
      }
    } else if (quote) {
      if (character === quote) quote = null;
      else family += character;
    } else if (character === '"' || character === "'") {
      quote = character;
    } else if (character === ",") {
      break;
    } else {
      family += character;
    }
  }
  const plain = family
    .replace(/[\p{Cc}\p{Cf}\p{Cs}\uFFFE\uFFFF]/gu, "")
    .replace(/\s+/g, " ")
    .trim();
  return plain && plain.length <= limits.fontCharacters ? plain : "Arial";
}

// Only links that lead somewhere from a PowerPoint file: http(s) and mailto, not back into the renderer's
// own made-up origin (a deck's "#…" links resolve there).
function exportableLink(href: unknown): string | undefined {
  if (typeof href !== "string" || href.length > limits.linkCharacters || !/^[\x21-\x7E]+$/.test(href)) return undefined;
  try {
    const url = new URL(href);
    if (url.protocol === "mailto:") return href;
    return (url.protocol === "http:" || url.protocol === "https:") && url.origin !== location.origin ? href : undefined;
  } catch {
    return undefined;
  }
}

// A block's direction (dir="auto" resolved by the browser) and its alignment on the page: "start" and
// "end" are the right and the left in right-to-left text.
function textDirection(style: CSSStyleDeclaration): { align: "left" | "center" | "right" | "justify"; rtl: boolean } {
  const rtl = style.direction === "rtl";
  const value = style.textAlign;
  const align =
    value === "center" || value === "-webkit-center"
      ? "center"
      : value === "justify"
        ? "justify"
        : value === "right" || value === "-webkit-right"
          ? "right"
          : value === "left" || value === "-webkit-left"
            ? "left"
            : (value === "end") !== rtl
              ? "right"
              : "left";
  return { align, rtl };
}

function relative(rect: DOMRect, origin: DOMRect): Rect {
  return {
    x: position(rect.left - origin.left),
    y: position(rect.top - origin.top),
    w: size(rect.width),
    h: size(rect.height),
  };
}

function contentBox(element: Element, style: CSSStyleDeclaration, origin: DOMRect): Rect {
  const box = relative(element.getBoundingClientRect(), origin);
  const left = px(style.paddingLeft) + px(style.borderLeftWidth);
  const top = px(style.paddingTop) + px(style.borderTopWidth);
  const right = px(style.paddingRight) + px(style.borderRightWidth);
  const bottom = px(style.paddingBottom) + px(style.borderBottomWidth);
  return {
    x: position(box.x + left),
    y: position(box.y + top),
    w: size(box.w - left - right),
    h: size(box.h - top - bottom),
  };
}

function transformText(text: string, transform: string): string {
  if (transform === "uppercase") return text.toUpperCase();
  if (transform === "lowercase") return text.toLowerCase();
  if (transform === "capitalize") return text.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
  return text;
}

function isInline(element: Element): boolean {
  const display = getComputedStyle(element).display;
  return display === "inline" || display === "contents" || element.tagName === "BR";
}

function hasOwnText(element: Element): boolean {
  return [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== "");
}

// A block whose content is text and inline elements only: one PowerPoint text box.
function isTextBlock(element: Element): boolean {
  if (!element.textContent?.trim()) return false;
  const children = [...element.children];
  if (!hasOwnText(element) && children.length !== 1) return false;
  return children.every((child) => isInline(child) && child.tagName !== "svg" && child.tagName !== "IMG");
}

function runStyle(element: Element): Omit<TextRun, "text"> {
  const style = getComputedStyle(element);
  const decoration = style.textDecorationLine;
  const href = exportableLink((element.closest("a[href]") as HTMLAnchorElement | null)?.href);
  return {
    font: firstFamily(style.fontFamily),
    size: within(px(style.fontSize), 0, limits.fontSize),
    bold: Number(style.fontWeight) >= 600,
    italic: style.fontStyle === "italic" || style.fontStyle.startsWith("oblique"),
    underline: decoration.includes("underline"),
    strike: decoration.includes("line-through"),
    color: parseColor(style.color) ?? { hex: "000000", alpha: 1 },
    letterSpacing:
      style.letterSpacing === "normal"
        ? 0
        : within(px(style.letterSpacing), -limits.letterSpacing, limits.letterSpacing),
    ...(href ? { href } : {}),
  };
}

function collectRuns(root: Element): TextRun[] {
  const runs: TextRun[] = [];
  const visit = (node: Node, parent: Element) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const style = getComputedStyle(parent);
      const preserve = style.whiteSpace.startsWith("pre") || style.whiteSpace === "break-spaces";
      let text = node.textContent ?? "";
      text = preserve ? text : text.replace(/\s+/g, " ");
      text = transformText(text, style.textTransform);
      if (!text) return;
      const lines = preserve ? text.split("\n") : [text];
      lines.forEach((line, index) => {
        runs.push({ text: line, ...runStyle(parent), breakAfter: index < lines.length - 1 });
      });
      return;
    }
    if (!(node instanceof Element)) return;
    const style = getComputedStyle(node);
    if (style.display === "none" || style.visibility === "hidden") return;
    if (node.tagName === "BR") {
      const last = runs.at(-1);
      if (last) last.breakAfter = true;
      else runs.push({ text: "", ...runStyle(node.parentElement ?? root), breakAfter: true });
      return;
    }
    for (const child of node.childNodes) visit(child, node);
  };
  for (const child of root.childNodes) visit(child, root);
  // Collapsed white space at the edges of the block and of each line is not drawn.
  const first = runs[0];
  if (first) first.text = first.text.replace(/^ +/, "");
  const last = runs.at(-1);
  if (last) last.text = last.text.replace(/ +$/, "");
  runs.forEach((run, index) => {
    if (run.breakAfter) run.text = run.text.replace(/ +$/, "");
    if (runs[index - 1]?.breakAfter) run.text = run.text.replace(/^ +/, "");
  });
  return runs.filter((run) => run.text !== "" || run.breakAfter);
}

// Pseudo-elements with a box (bullet dots, rules, scrims) become real elements so the walker sees them.
// Every pseudo-element's style is read first and the spans inserted after: reading a computed style after
// an insertion would recompute the document's styles once per pseudo-element.
function materializePseudoElements(roots: Element[]) {
  const found: { element: Element; which: "::before" | "::after"; properties: [string, string][]; content: string }[] =
    [];
  for (const root of roots) {
    for (const element of [root, ...root.querySelectorAll("*")]) {
      for (const which of ["::before", "::after"] as const) {
        const style = getComputedStyle(element, which);
        if (!style.content || style.content === "none" || style.content === "normal" || style.display === "none")
          continue;
        const properties: [string, string][] = [];
        for (const name of style) properties.push([name, style.getPropertyValue(name)]);
        found.push({ element, which, properties, content: style.content });
      }
    }
  }
  const created: HTMLSpanElement[] = [];
  for (const { element, which, properties, content } of found) {
    const span = document.createElement("span");
    for (const [name, value] of properties) span.style.setProperty(name, value);
    span.style.setProperty("content", "normal");
    const text = /^["'](.*)["']$/.exec(content)?.[1] ?? "";
    if (text)
      span.textContent = text.replace(/\\([0-9a-f]{1,6}) ?/gi, (_, hex: string) => {
        const code = Number.parseInt(hex, 16);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "\uFFFD";
      });
    span.dataset.dhPseudo = which;
    if (which === "::before") element.insertBefore(span, element.firstChild);
    else element.appendChild(span);
    created.push(span);
  }
  const sheet = document.createElement("style");
  sheet.textContent = `[data-dh-materialized="${token}"]::before, [data-dh-materialized="${token}"]::after { content: none !important; }`;
  document.head.appendChild(sheet);
  for (const span of created) span.parentElement?.setAttribute("data-dh-materialized", token);
}

function parseShadow(value: string): { x: number; y: number; blur: number; color: Rgba } | null {
  if (!value || value === "none") return null;
  const first = value.split(/,(?![^(]*\))/)[0] ?? "";
  if (first.includes("inset")) return null;
  const color = /(rgba?\([^)]*\)|color\([^)]*\)|#[0-9a-f]{3,8})/i.exec(first)?.[1];
  const lengths = first
    .replace(color ?? "", "")
    .trim()
    .split(/\s+/)
    .map(px);
  const parsed = color ? parseColor(color) : null;
  if (!parsed || lengths.length < 2) return null;
  return { x: position(lengths[0] ?? 0), y: position(lengths[1] ?? 0), blur: size(lengths[2] ?? 0), color: parsed };
}

// The elements drawn as pictures, by raster id: kept here rather than marked in the DOM, so the deck
// can neither see nor imitate the marks.
const rasters = new Map<number, { element: Element; alone: boolean }>();

function markRaster(element: Element, rect: Rect, alone: boolean, items: SlideItem[], asset?: RasterItem["asset"]) {
  const id = rasters.size + 1;
  rasters.set(id, { element, alone });
  const label = (
    element.getAttribute("aria-label") ??
    element.getAttribute("alt") ??
    element.tagName.toLowerCase()
  ).slice(0, limits.labelCharacters);
  items.push({ kind: "raster", rect, id, alone, label, ...(asset ? { asset } : {}) } satisfies RasterItem);
}

// An image of the asset path drawn whole or filling its box around its centre, with nothing over it that
// changes how it looks: the exporter can place the stored file itself. Anything else is a picture of it.
function storedImage(image: HTMLImageElement, style: CSSStyleDeclaration): RasterItem["asset"] {
  let path: string;
  try {
    const url = new URL(image.currentSrc || image.src);
    // The frame is sandboxed (its origin is opaque): the origin of its address is what serves it.
    if (url.origin !== new URL(location.href).origin) return undefined;
    path = url.pathname;
  } catch {
    return undefined;
  }
  const fit = style.objectFit;
  if (!assetPathPattern.test(path) || (fit !== "cover" && fit !== "contain")) return undefined;
  if (style.objectPosition !== "50% 50%" || style.filter !== "none" || style.borderRadius !== "0px") return undefined;
  if (!image.complete || image.naturalWidth < 1 || image.naturalHeight < 1) return undefined;
  return { path, fit, width: image.naturalWidth, height: image.naturalHeight };
}

function extractTable(table: HTMLTableElement, origin: DOMRect): SlideItem {
  const rows = [...table.rows];
  // PowerPoint's columns run from the left; a right-to-left table's first cell is its rightmost.
  const inOrder = <T>(cells: T[]) => (getComputedStyle(table).direction === "rtl" ? cells.reverse() : cells);
  const firstRow = rows[0];
  const columnWidths = firstRow
    ? inOrder([...firstRow.cells]).map((cell) => size(cell.getBoundingClientRect().width))
    : [];
  const rowHeights = rows.map((row) => size(row.getBoundingClientRect().height));
  const cells: TableCell[][] = rows.map((row) =>
    inOrder([...row.cells]).map((cell) => {
      const style = getComputedStyle(cell);
      const rowStyle = getComputedStyle(row);
      const direction = textDirection(style);
      const align = direction.align === "justify" ? (direction.rtl ? "right" : "left") : direction.align;
      const valign = style.verticalAlign === "middle" ? "middle" : style.verticalAlign === "bottom" ? "bottom" : "top";
      const borderWidth = px(style.borderBottomWidth);
      const borderColor = parseColor(style.borderBottomColor);
      return {
        runs: collectRuns(cell),
        fill: parseColor(style.backgroundColor) ?? parseColor(rowStyle.backgroundColor),
        align,
        ...(direction.rtl ? { rtl: true } : {}),
        valign,
        padding: [
          size(px(style.paddingTop)),
          size(px(style.paddingRight)),
          size(px(style.paddingBottom)),
          size(px(style.paddingLeft)),
        ],
        borderBottom:
          borderWidth > 0 && borderColor && style.borderBottomStyle !== "none"
            ? { width: size(borderWidth), color: borderColor }
            : null,
      } satisfies TableCell;
    }),
  );
  return {
    kind: "table",
    rect: relative(table.getBoundingClientRect(), origin),
    columnWidths,
    rowHeights,
    rows: cells,
  };
}

function pushTextBox(element: Element, style: CSSStyleDeclaration, origin: DOMRect, items: SlideItem[]) {
  const runs = collectRuns(element);
  if (runs.every((run) => !run.text.trim())) return;
  const box = contentBox(element, style, origin);
  const range = document.createRange();
  range.selectNodeContents(element);
  const lineHeight = size(style.lineHeight === "normal" ? px(style.fontSize) * 1.2 : px(style.lineHeight));
  const textHeight = range.getBoundingClientRect().height;
  const { align, rtl } = textDirection(style);
  items.push({
    kind: "text",
    rect: box,
    runs,
    align,
    ...(rtl ? { rtl } : {}),
    lineHeight,
    singleLine: textHeight < lineHeight * 1.5,
  });
}

function walk(element: Element, origin: DOMRect, items: SlideItem[], model: SlideModel) {
  const style = getComputedStyle(element);
  if (style.display === "none" || Number(style.opacity) === 0) return;
  const visible = style.visibility === "visible";
  const rect = relative(element.getBoundingClientRect(), origin);
  if ((rect.w < 0.5 || rect.h < 0.5) && style.overflow !== "visible") return;
  const tag = element.tagName.toLowerCase();

  if (visible && (tag === "svg" || tag === "img" || tag === "canvas" || tag === "video" || tag === "picture")) {
    markRaster(
      element,
      rect,
      false,
      items,
      tag === "img" ? storedImage(element as HTMLImageElement, style) : undefined,
    );
    return;
  }
  if (visible && tag === "table") {
    items.push(extractTable(element as HTMLTableElement, origin));
    return;
  }

  if (visible) {
    const fill = parseColor(style.backgroundColor);
    if (element.classList.contains("dh-slide")) {
      model.background = fill;
    } else {
      const effect =
        style.backgroundImage !== "none" ||
        style.filter !== "none" ||
        style.backdropFilter !== "none" ||
        style.mixBlendMode !== "normal" ||
        style.clipPath !== "none" ||
        style.maskImage !== "none" ||
        (style.transform !== "none" && !/^matrix\(1, 0, 0, 1,/.test(style.transform));
      if (effect && rect.w > 0 && rect.h > 0) {
        markRaster(element, rect, true, items);
      } else {
        const sides = ["Top", "Right", "Bottom", "Left"] as const;
        const widths = sides.map((side) =>
          style.getPropertyValue(`border-${side.toLowerCase()}-style`) === "none"
            ? 0
            : px(style.getPropertyValue(`border-${side.toLowerCase()}-width`)),
        );
        const colors = sides.map((side) => parseColor(style.getPropertyValue(`border-${side.toLowerCase()}-color`)));
        const uniform =
          widths.every((w) => w === widths[0]) &&
          colors.every((c) => c?.hex === colors[0]?.hex && c?.alpha === colors[0]?.alpha);
        const radius = px(style.borderTopLeftRadius);
        const ellipse = radius > 0 && radius >= Math.min(rect.w, rect.h) / 2 - 0.5 && Math.abs(rect.w - rect.h) < 1;
        const border =
          uniform && widths[0]! > 0 && colors[0]
            ? {
                width: size(widths[0]!),
                color: colors[0],
                dash:
                  style.borderTopStyle === "dashed"
                    ? ("dash" as const)
                    : style.borderTopStyle === "dotted"
                      ? ("dot" as const)
                      : ("solid" as const),
              }
            : null;
        if (fill || border) {
          items.push({
            kind: "shape",
            rect,
            fill,
            border,
            radius: size(Math.min(radius, rect.w / 2, rect.h / 2)),
            ellipse,
            shadow: parseShadow(style.boxShadow),
          });
        }
        // Borders on some sides only (rules, accent bars) become thin filled rectangles.
        if (!uniform) {
          sides.forEach((side, index) => {
            const width = size(widths[index]!);
            const color = colors[index];
            if (width <= 0 || !color) return;
            const bar =
              side === "Top"
                ? { x: rect.x, y: rect.y, w: rect.w, h: width }
                : side === "Bottom"
                  ? { x: rect.x, y: rect.y + rect.h - width, w: rect.w, h: width }
                  : side === "Left"
                    ? { x: rect.x, y: rect.y, w: width, h: rect.h }
                    : { x: rect.x + rect.w - width, y: rect.y, w: width, h: rect.h };
            items.push({
              kind: "shape",
              rect: bar,
              fill: color,
              border: null,
              radius: 0,
              ellipse: false,
              shadow: null,
            });
          });
        }
      }
      if (isTextBlock(element)) {
        pushTextBox(element, style, origin, items);
        return;
      }
      // Text directly inside a block that also has block children: each run of text is its own box.
      if (hasOwnText(element)) {
        for (const node of element.childNodes) {
          if (node.nodeType !== Node.TEXT_NODE || !node.textContent?.trim()) continue;
          const range = document.createRange();
          range.selectNode(node);
          const text = transformText(node.textContent.replace(/\s+/g, " ").trim(), style.textTransform);
          const lineHeight = size(style.lineHeight === "normal" ? px(style.fontSize) * 1.2 : px(style.lineHeight));
          // The box is the text's own: aligned to where the text starts.
          const rtl = style.direction === "rtl";
          items.push({
            kind: "text",
            rect: relative(range.getBoundingClientRect(), origin),
            runs: [{ text, ...runStyle(element) }],
            align: rtl ? "right" : "left",
            ...(rtl ? { rtl } : {}),
            lineHeight,
            singleLine: true,
          });
        }
      }
    }
  }
  for (const child of element.children) walk(child, origin, items, model);
}

const extract = () => {
  rasters.clear();
  const pages = [...document.querySelectorAll(".dh-export-page")];
  materializePseudoElements(pages);
  return pages.map((page) => {
    const model: SlideModel = { background: null, items: [] };
    const origin = page.getBoundingClientRect();
    for (const child of page.children) walk(child, origin, model.items, model);
    model.background ??= parseColor(getComputedStyle(page).backgroundColor);
    return model;
  });
};

// For the renderer's pictures: only this raster item's element is drawn, on a transparent page (an
// element drawn alone shows without its children; the others with theirs). null shows everything again.
let rasterStyle: HTMLStyleElement | null = null;
let shown: Element | null = null;
const rasterize = `dh-rasterize-${token}`;
const target = `dh-raster-target-${token}`;
const alone = `dh-raster-alone-${token}`;

const showRaster = (id: number | null): boolean => {
  if (!rasterStyle) {
    rasterStyle = document.createElement("style");
    rasterStyle.textContent = `html.${rasterize}, html.${rasterize} body { background: transparent !important; }
html.${rasterize} * { visibility: hidden !important; }
html.${rasterize} .${target}, html.${rasterize} .${target} * { visibility: visible !important; }
html.${rasterize} .${alone} { visibility: visible !important; }`;
    document.head.appendChild(rasterStyle);
  }
  shown?.classList.remove(target, alone);
  shown = null;
  const raster = id === null ? undefined : rasters.get(id);
  document.documentElement.classList.toggle(rasterize, raster !== undefined);
  if (!raster) return false;
  shown = raster.element;
  shown.classList.add(raster.alone ? alone : target);
  return true;
};

// This world's own window: nothing of the deck's can define these first or replace them.
Object.defineProperty(window, "__deckhandExtract", { value: extract, writable: false, configurable: false });
Object.defineProperty(window, "__deckhandShowRaster", { value: showRaster, writable: false, configurable: false });
