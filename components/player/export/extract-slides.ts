// Runs inside the export renderer's page (player in export mode, every slide a .dh-export-page) and
// describes each slide as native PowerPoint material: shapes with fills, borders and radii; text boxes
// with runs; tables; and, only where PowerPoint has no equivalent (SVG, images, gradients, filters),
// an item for a picture the renderer screenshots. Built by scripts/build-player.ts as a classic script.
//
// The renderer evaluates it in an isolated world of the page (lib/exports/render-export.ts): the DOM is
// the deck's, but the globals, prototypes and built-ins used here are not, so nothing the deck's scripts
// redefine (Object.defineProperty, Array.prototype.map, JSON, getComputedStyle…) reaches this code.
import {
  type ChartItem,
  type ChartText,
  type Gradient,
  type Rect,
  type RasterItem,
  type Rgba,
  type SlideItem,
  type SlideModel,
  type TableCell,
  type TextItem,
  type TextRun,
  slideModelLimits as limits,
} from "@/lib/contract/slide-model";
import { assetPathPattern } from "@/lib/contract/slide-model";
import { formulaLabel, formulaText, isDisplayFormula, isFormula } from "@/components/player/vocabulary/formula/extract";
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

// How opaque an element is drawn: its own opacity times its ancestors' (a dimmed code line, a faded
// timeline item). Colours of its text and fills carry it as alpha.
const opacities = new Map<Element, number>();
function opacityOf(element: Element): number {
  const known = opacities.get(element);
  if (known !== undefined) return known;
  const own = Number(getComputedStyle(element).opacity);
  let value = Number.isFinite(own) ? within(own, 0, 1) : 1;
  const parent = element.parentElement;
  if (parent && !element.classList.contains("dh-export-page")) value *= opacityOf(parent);
  opacities.set(element, value);
  return value;
}

function faded(color: Rgba | null, opacity: number): Rgba | null {
  if (!color || opacity >= 1) return color;
  return { hex: color.hex, alpha: Math.round(color.alpha * opacity * 1000) / 1000 };
}

// Emoji are drawn from an emoji font, which the deck's fonts do not have: their runs name one, so
// PowerPoint (Segoe UI Emoji on Windows) and LibreOffice (through fontconfig) draw them instead of
// leaving a blank or a box. A sequence is one emoji: modifiers, variation selectors, joiners, flags, keycaps.
const EMOJI_FONT = "Segoe UI Emoji";
const emoji =
  /(?:\p{RI}\p{RI}|[#*0-9]\uFE0F?\u20E3|(?:\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F)\p{EMod}?(?:\u200D\p{Extended_Pictographic}\uFE0F?\p{EMod}?)*)/gu;

/** The text cut into pieces that are all emoji or have none. */
function emojiPieces(text: string): { text: string; emoji: boolean }[] {
  const pieces: { text: string; emoji: boolean }[] = [];
  let at = 0;
  for (const match of text.matchAll(emoji)) {
    if (match.index > at) pieces.push({ text: text.slice(at, match.index), emoji: false });
    pieces.push({ text: match[0], emoji: true });
    at = match.index + match[0].length;
  }
  if (at < text.length || pieces.length === 0) pieces.push({ text: text.slice(at), emoji: false });
  return pieces;
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
    color: faded(parseColor(style.color), opacityOf(element)) ?? { hex: "000000", alpha: 1 },
    letterSpacing:
      style.letterSpacing === "normal"
        ? 0
        : within(px(style.letterSpacing), -limits.letterSpacing, limits.letterSpacing),
    ...(href ? { href } : {}),
  };
}

// The runs of a block. With `blocks`, each block-level descendant (a line of code) is a line of its own,
// an empty one included. Under white-space: pre/pre-wrap every space is drawn, so only collapsed white
// space is trimmed at the edges of the block and of its lines (code keeps its indentation).
function collectRuns(root: Element, options: { blocks?: boolean } = {}): TextRun[] {
  const runs: TextRun[] = [];
  const kept = new Set<TextRun>();
  const visit = (node: Node, parent: Element) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const style = getComputedStyle(parent);
      const preserve = style.whiteSpace.startsWith("pre") || style.whiteSpace === "break-spaces";
      let text = node.textContent ?? "";
      text = preserve ? text : text.replace(/\s+/g, " ");
      text = transformText(text, style.textTransform);
      if (!text) return;
      const lines = preserve ? text.split("\n") : [text];
      const base = runStyle(parent);
      lines.forEach((line, index) => {
        const pieces = emojiPieces(line);
        pieces.forEach((piece, at) => {
          const run: TextRun = {
            text: piece.text,
            ...base,
            ...(piece.emoji ? { font: EMOJI_FONT } : {}),
            breakAfter: at === pieces.length - 1 && index < lines.length - 1,
          };
          if (preserve) kept.add(run);
          runs.push(run);
        });
      });
      return;
    }
    if (!(node instanceof Element)) return;
    const style = getComputedStyle(node);
    if (style.display === "none" || style.visibility === "hidden") return;
    // A formula in a sentence is text in the sentence (a run cannot hold a picture).
    if (isFormula(node)) {
      const text = formulaText(node);
      if (text) runs.push({ text, ...runStyle(node) });
      return;
    }
    if (node.tagName === "BR") {
      const last = runs.at(-1);
      if (last) last.breakAfter = true;
      else runs.push({ text: "", ...runStyle(node.parentElement ?? root), breakAfter: true });
      return;
    }
    if (options.blocks && !isInline(node)) {
      const before = runs.at(-1);
      if (before) before.breakAfter = true;
      const start = runs.length;
      for (const child of node.childNodes) visit(child, node);
      const last = runs.at(-1);
      if (runs.length === start || !last) runs.push({ text: "", ...runStyle(node), breakAfter: true });
      else last.breakAfter = true;
      return;
    }
    for (const child of node.childNodes) visit(child, node);
  };
  for (const child of root.childNodes) visit(child, root);
  // Collapsed white space at the edges of the block and of each line is not drawn.
  const trim = (run: TextRun, edge: RegExp) => {
    if (!kept.has(run)) run.text = run.text.replace(edge, "");
  };
  const first = runs[0];
  if (first) trim(first, /^ +/);
  const last = runs.at(-1);
  if (last) {
    trim(last, / +$/);
    // Nothing follows the last line.
    if (options.blocks) last.breakAfter = false;
  }
  runs.forEach((run, index) => {
    if (run.breakAfter) trim(run, / +$/);
    if (runs[index - 1]?.breakAfter) trim(run, /^ +/);
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

// A picture's alt text, never empty nor a tag's name: the element's own, or, for a slide's (or beat's)
// background image, which the vocabulary gives no alt text of its own, the name of its section; an
// icon's name; a scrim or another drawn effect (a gradient, a filtered box) is a decoration.
function rasterLabel(element: Element): string {
  const formula = formulaLabel(element);
  if (formula) return formula;
  const section = element.parentElement;
  if (element.classList.contains("dh-slide-image") && section?.matches(".dh-slide, .dh-beat")) {
    const name = section.getAttribute("aria-label")?.trim();
    return name ? `Background image: ${name}` : "Background image";
  }
  const own = (element.getAttribute("aria-label") ?? element.getAttribute("alt") ?? "").trim();
  if (own) return own;
  const icon = element.getAttribute("data-icon")?.trim();
  if (icon && element.classList.contains("dh-icon")) return `Icon: ${icon}`;
  if (element instanceof HTMLElement && element.dataset.dhPseudo && section?.querySelector(":scope > .dh-slide-image"))
    return "Scrim over the background image";
  const title = element.querySelector(":scope > title")?.textContent?.trim();
  return title || "Decoration";
}

function markRaster(
  element: Element,
  rect: Rect,
  alone: boolean,
  items: SlideItem[],
  asset?: RasterItem["asset"],
  svg?: string,
) {
  const id = rasters.size + 1;
  rasters.set(id, { element, alone });
  const label = rasterLabel(element).slice(0, limits.labelCharacters);
  items.push({
    kind: "raster",
    rect,
    id,
    alone,
    label,
    ...(asset ? { asset } : {}),
    ...(svg ? { svg } : {}),
  } satisfies RasterItem);
}

// A vocabulary icon (<svg class="dh-icon" data-icon>) as a file of its own: its drawing with the colour it
// was drawn in instead of currentColor, at the size it was drawn, nothing of the page's (classes, data
// attributes). The builder checks it again against the SVG allow-list before it goes into the file.
function iconSvg(svg: Element, rect: Rect): string | undefined {
  if (!svg.classList.contains("dh-icon") || !svg.hasAttribute("data-icon")) return undefined;
  const color = faded(parseColor(getComputedStyle(svg).color), opacityOf(svg));
  if (!color) return undefined;
  const clone = svg.cloneNode(true) as Element;
  for (const name of [...clone.getAttributeNames()]) {
    if (!["xmlns", "viewBox", "fill", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin"].includes(name))
      clone.removeAttribute(name);
  }
  clone.setAttribute("width", String(Math.round(rect.w * 100) / 100));
  clone.setAttribute("height", String(Math.round(rect.h * 100) / 100));
  clone.setAttribute("stroke", `#${color.hex}`);
  if (color.alpha < 1) clone.setAttribute("stroke-opacity", String(color.alpha));
  const markup = new XMLSerializer().serializeToString(clone);
  return markup.length <= limits.svgCharacters && markup.startsWith("<svg ") ? markup : undefined;
}

// A CSS gradient (the computed background-image) as the slide model's gradient, or null for one that
// PowerPoint's gradient fills cannot hold: several layers, repeating, stops at lengths or hints, a corner
// direction, a radial gradient that is not around the centre.
function splitTopLevel(value: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < value.length; index++) {
    const character = value[index];
    if (character === "(") depth++;
    else if (character === ")") depth--;
    else if (character === "," && depth === 0) {
      parts.push(value.slice(start, index).trim());
      start = index + 1;
    }
  }
  parts.push(value.slice(start).trim());
  return parts;
}

const sideAngles: Record<string, number> = { top: 0, right: 90, bottom: 180, left: 270 };

function parseGradient(value: string, opacity: number): Gradient | null {
  const match = /^(linear|radial)-gradient\((.*)\)$/s.exec(value.trim());
  if (!match || splitTopLevel(value).length !== 1) return null;
  const kind = match[1] as "linear" | "radial";
  const args = splitTopLevel(match[2]!);
  let angle = 180;
  const first = args[0]!;
  const units: Record<string, number> = { deg: 1, grad: 0.9, rad: 180 / Math.PI, turn: 360 };
  const angleMatch = /^(-?[\d.]+)(deg|grad|rad|turn)$/.exec(first);
  const side = /^to (top|right|bottom|left)$/.exec(first);
  if (kind === "linear" && angleMatch) {
    angle = Number(angleMatch[1]) * units[angleMatch[2]!]!;
    args.shift();
  } else if (kind === "linear" && side) {
    angle = sideAngles[side[1]!]!;
    args.shift();
  } else if (kind === "radial" && !CSS.supports("color", first.replace(/\s+-?[\d.]+%$/, ""))) {
    if (!/^(ellipse\s*)?(farthest-corner\s*)?(at (center|center center|50% 50%))?$/.test(first)) return null;
    args.shift();
  } else if (!CSS.supports("color", first.replace(/\s+-?[\d.]+%(\s+-?[\d.]+%)?$/, ""))) {
    return null;
  }
  if (!Number.isFinite(angle) || args.length < 2 || args.length > limits.gradientStops) return null;
  const stops: Array<{ color: Rgba | null; at: number | null }> = [];
  for (const arg of args) {
    const parts = /^(.*?)(?:\s+(-?[\d.]+)%)?(?:\s+(-?[\d.]+)%)?$/s.exec(arg)!;
    const text = parts[1]!.trim();
    if (!CSS.supports("color", text)) return null;
    const color = parseColor(text);
    const positions = [parts[2], parts[3]].filter((p): p is string => p !== undefined).map((p) => Number(p) / 100);
    if (positions.length === 0) stops.push({ color, at: null });
    for (const at of positions) stops.push({ color, at });
  }
  // Positions left out are spread evenly between their neighbours; each is at least the one before.
  stops[0]!.at ??= 0;
  stops.at(-1)!.at ??= 1;
  for (let index = 1; index < stops.length - 1; index++) {
    if (stops[index]!.at !== null) continue;
    let next = index;
    while (stops[next]!.at === null) next++;
    const from = stops[index - 1]!.at!;
    stops[index]!.at = from + (stops[next]!.at! - from) / (next - index + 1);
  }
  let last = 0;
  const resolved: Gradient["stops"] = [];
  for (const [index, stop] of stops.entries()) {
    const at = within(Math.max(stop.at!, last), 0, 1);
    last = at;
    // A fully transparent stop has no colour of its own: its neighbour's, at no alpha (what the browser's
    // premultiplied blending draws).
    const near = stop.color ?? stops[index + 1]?.color ?? stops[index - 1]?.color ?? null;
    const color = stop.color ? faded(stop.color, opacity)! : { hex: near?.hex ?? "000000", alpha: 0 };
    resolved.push({ color, at: Math.round(at * 10_000) / 10_000 });
  }
  return { kind, angle: Math.round((((angle % 360) + 360) % 360) * 100) / 100, stops: resolved };
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

// A Chart (components/player/vocabulary/data.tsx) as a native chart: the data from the JSON the component
// writes on its figure (never read back from the SVG's geometry), the colours and type as the browser
// computed them for the chart's own classes, and where the viewer put the plot, title and legend.
const svgNs = "http://www.w3.org/2000/svg";

// SVG text is painted with `fill`, HTML text with `color`.
function chartTextOf(style: CSSStyleDeclaration, size: number, fallback: Rgba, html = false): ChartText {
  return {
    font: firstFamily(style.fontFamily),
    size: within(size, 0, limits.fontSize),
    bold: Number(style.fontWeight) >= 600,
    color: parseColor(html ? style.color : style.fill) ?? fallback,
  };
}

const finite = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const plainText = (value: unknown, max: number) => (typeof value === "string" ? value.slice(0, max) : "");

function extractChart(figure: Element, origin: DOMRect): ChartItem | null {
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

  // Computed styles of the chart's own classes, probed with elements that live only while they are read.
  const probe = <T>(
    tag: string,
    className: string,
    attributes: Record<string, string>,
    read: (style: CSSStyleDeclaration) => T,
  ) => {
    const element = document.createElementNS(svgNs, tag);
    element.setAttribute("class", className);
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    element.setAttribute("visibility", "hidden");
    svg.appendChild(element);
    try {
      return read(getComputedStyle(element));
    } finally {
      element.remove();
    }
  };
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

// Inset shadows without blur or spread are bars along one side (a highlighted code line's accent).
function insetBars(value: string, rect: Rect, opacity: number): { rect: Rect; color: Rgba }[] {
  if (!value || value === "none") return [];
  const bars: { rect: Rect; color: Rgba }[] = [];
  for (const shadow of value.split(/,(?![^(]*\))/)) {
    if (!shadow.includes("inset")) continue;
    const colorText = /(rgba?\([^)]*\)|color\([^)]*\)|#[0-9a-f]{3,8})/i.exec(shadow)?.[1];
    const color = faded(colorText ? parseColor(colorText) : null, opacity);
    const [x = 0, y = 0, blur = 0, spread = 0] = shadow
      .replace(colorText ?? "", "")
      .replace("inset", "")
      .trim()
      .split(/\s+/)
      .map(px);
    if (!color || blur !== 0 || spread !== 0 || (x === 0) === (y === 0)) continue;
    const w = size(Math.min(Math.abs(x), rect.w));
    const h = size(Math.min(Math.abs(y), rect.h));
    bars.push({
      color,
      rect:
        x > 0
          ? { x: rect.x, y: rect.y, w, h: rect.h }
          : x < 0
            ? { x: position(rect.x + rect.w - w), y: rect.y, w, h: rect.h }
            : y > 0
              ? { x: rect.x, y: rect.y, w: rect.w, h }
              : { x: rect.x, y: position(rect.y + rect.h - h), w: rect.w, h },
    });
  }
  return bars;
}

function lineHeightOf(style: CSSStyleDeclaration): number {
  return size(style.lineHeight === "normal" ? px(style.fontSize) * 1.2 : px(style.lineHeight));
}

// A box drawn around its content in the middle (a number badge): flex or grid, centred both ways, with a
// fill or a border of its own.
function isCentredBadge(element: Element): boolean {
  const style = getComputedStyle(element);
  return (
    (style.display.endsWith("flex") || style.display.endsWith("grid")) &&
    style.alignItems === "center" &&
    (style.justifyContent === "center" || style.justifyItems === "center") &&
    (parseColor(style.backgroundColor) !== null || (style.borderTopStyle !== "none" && px(style.borderTopWidth) > 0))
  );
}

// The badge a single line of text is centred in: the text's own box, or its parent when it is the only
// thing there.
function badgeOf(element: Element): Element | null {
  if (isCentredBadge(element)) return element;
  const parent = element.parentElement;
  if (!parent || parent.children.length !== 1 || hasOwnText(parent)) return null;
  return isCentredBadge(parent) ? parent : null;
}

let measureContext: CanvasRenderingContext2D | null = null;
/** The advance of a string in a run's font, as the page's canvas measures it (the deck's web fonts loaded). */
function textAdvance(text: string, run: Omit<TextRun, "text">, sizePx = run.size): number {
  measureContext ??= document.createElement("canvas").getContext("2d");
  if (!measureContext) return 0;
  const family = run.font.replace(/["\\]/g, "");
  measureContext.font = `${run.italic ? "italic " : ""}${run.bold ? 700 : 400} ${sizePx}px "${family}"`;
  return measureContext.measureText(text).width;
}

/** How far a string's ink rises above the baseline, and the font's descent below it, in a run's font. */
function fontMetrics(text: string, run: Omit<TextRun, "text">, sizePx: number): { ascent: number; descent: number } {
  textAdvance("", run, sizePx);
  if (!measureContext) return { ascent: 0, descent: 0 };
  const measured = measureContext.measureText(text);
  return { ascent: measured.actualBoundingBoxAscent, descent: measured.fontBoundingBoxDescent };
}

function pushTextBox(element: Element, style: CSSStyleDeclaration, origin: DOMRect, items: SlideItem[]) {
  const runs = collectRuns(element);
  if (runs.every((run) => !run.text.trim())) return;
  let box = contentBox(element, style, origin);
  const range = document.createRange();
  range.selectNodeContents(element);
  const lineHeight = lineHeightOf(style);
  const textRect = range.getBoundingClientRect();
  const singleLine = textRect.height < lineHeight * 1.5;
  const direction = textDirection(style);
  const rtl = direction.rtl;
  let align = direction.align;
  let valign: TextItem["valign"];
  const badge = singleLine ? badgeOf(element) : null;
  if (badge) {
    // In the middle of its badge, both ways, whatever the fonts' ascents in another program.
    box = contentBox(badge, getComputedStyle(badge), origin);
    align = "center";
    valign = "middle";
  }
  items.push({
    kind: "text",
    rect: box,
    runs,
    align,
    ...(rtl ? { rtl } : {}),
    lineHeight,
    singleLine,
    ...(singleLine ? { textWidth: size(textRect.width) } : {}),
    ...(valign ? { valign } : {}),
  });
}

// The fills, borders and shadows of an element's own box, as shapes.
function pushBoxShapes(element: Element, style: CSSStyleDeclaration, rect: Rect, items: SlideItem[]) {
  const opacity = opacityOf(element);
  const fill = faded(parseColor(style.backgroundColor), opacity);
  const sides = ["Top", "Right", "Bottom", "Left"] as const;
  const widths = sides.map((side) =>
    style.getPropertyValue(`border-${side.toLowerCase()}-style`) === "none"
      ? 0
      : px(style.getPropertyValue(`border-${side.toLowerCase()}-width`)),
  );
  const colors = sides.map((side) =>
    faded(parseColor(style.getPropertyValue(`border-${side.toLowerCase()}-color`)), opacity),
  );
  const uniform =
    widths.every((w) => w === widths[0]) &&
    colors.every((c) => c?.hex === colors[0]?.hex && c?.alpha === colors[0]?.alpha);
  // A percentage radius (a badge's 50%) is of the box's own size.
  const radius = style.borderTopLeftRadius.endsWith("%")
    ? (Number.parseFloat(style.borderTopLeftRadius) / 100) * Math.min(rect.w, rect.h)
    : px(style.borderTopLeftRadius);
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
    const shadow = parseShadow(style.boxShadow);
    items.push({
      kind: "shape",
      rect,
      fill,
      border,
      radius: size(Math.min(radius, rect.w / 2, rect.h / 2)),
      ellipse,
      shadow: shadow ? { ...shadow, color: faded(shadow.color, opacity)! } : null,
    });
  }
  const bar = (barRect: Rect, color: Rgba) =>
    items.push({ kind: "shape", rect: barRect, fill: color, border: null, radius: 0, ellipse: false, shadow: null });
  for (const inset of insetBars(style.boxShadow, rect, opacity)) bar(inset.rect, inset.color);
  // Borders on some sides only (rules, accent bars) become thin filled rectangles.
  if (!uniform) {
    sides.forEach((side, index) => {
      const width = size(widths[index]!);
      const color = colors[index];
      if (width <= 0 || !color) return;
      bar(
        side === "Top"
          ? { x: rect.x, y: rect.y, w: rect.w, h: width }
          : side === "Bottom"
            ? { x: rect.x, y: rect.y + rect.h - width, w: rect.w, h: width }
            : side === "Left"
              ? { x: rect.x, y: rect.y, w: width, h: rect.h }
              : { x: rect.x + rect.w - width, y: rect.y, w: width, h: rect.h },
        color,
      );
    });
  }
}

// Preformatted text (a Code block): the bands of its highlighted lines, then one text box with every
// line, every leading space and every colour of the browser's.
function pushPreformatted(element: Element, style: CSSStyleDeclaration, origin: DOMRect, items: SlideItem[]) {
  for (const line of element.querySelectorAll("*")) {
    const lineStyle = getComputedStyle(line);
    if (isInline(line) || lineStyle.display === "none" || lineStyle.visibility !== "visible") continue;
    pushBoxShapes(line, lineStyle, relative(line.getBoundingClientRect(), origin), items);
  }
  const runs = collectRuns(element, { blocks: true });
  if (runs.every((run) => !run.text.trim())) return;
  const { align, rtl } = textDirection(style);
  // Lines that wrap hang under the first (a negative text-indent, as the Code lines have).
  const indents = [...element.querySelectorAll("*")]
    .filter((child) => !isInline(child))
    .map((child) => -px(getComputedStyle(child).textIndent));
  const hanging = Math.max(0, ...indents);
  items.push({
    kind: "text",
    rect: contentBox(element, style, origin),
    runs,
    align,
    ...(rtl ? { rtl } : {}),
    lineHeight: lineHeightOf(style),
    singleLine: false,
    preformatted: { hangingIndent: size(hanging) },
  });
}

// The text of a point: its body when that is a text block, or the one text block inside it.
function pointText(body: Element | null): Element | null {
  if (!body) return null;
  if (isTextBlock(body)) return body;
  const only = body.children.length === 1 && !hasOwnText(body) ? body.children[0]! : null;
  return only && isTextBlock(only) ? only : null;
}

const bulletCharacters: Record<string, string> = { dot: "\u2022", check: "\u2713", arrow: "\u2192" };

// A Bullets list as one text box with PowerPoint's own bullets (a character in the marker's colour, or
// numbering), each point a paragraph indented like the viewer's grid; number badges stay circles behind
// the numbers. Lists whose points are more than a line of text are left to the walk.
function pushList(list: HTMLElement, origin: DOMRect, items: SlideItem[]): boolean {
  const kind = list.dataset.marker ?? "";
  const points = [...list.children];
  if (points.length === 0 || !(kind in bulletCharacters || kind === "number")) return false;
  const texts = points.map((point) => pointText(point.querySelector(":scope > .dh-bullet-body")));
  const markers = points.map((point) => point.querySelector(":scope > .dh-bullet-marker"));
  if (points.some((point) => point.tagName !== "LI") || texts.some((text) => !text) || markers.some((m) => !m))
    return false;
  const first = texts[0]!;
  const firstStyle = getComputedStyle(first);
  const { align, rtl } = textDirection(firstStyle);
  if (texts.some((text) => textDirection(getComputedStyle(text!)).rtl !== rtl)) return false;

  const runs: TextRun[] = [];
  for (const text of texts) {
    const own = collectRuns(text!);
    if (own.length === 0) return false;
    // A point is one paragraph: a line break inside it is a space.
    own.forEach((run, index) => {
      if (run.breakAfter && index < own.length - 1) run.text += " ";
      run.breakAfter = index === own.length - 1;
    });
    runs.push(...own);
  }
  runs.at(-1)!.breakAfter = false;

  const point = contentBox(points[0]!, getComputedStyle(points[0]!), origin);
  const marker = relative(markers[0]!.getBoundingClientRect(), origin);
  const body = relative(first.getBoundingClientRect(), origin);
  const markerStyle = getComputedStyle(markers[0]!);
  const color = faded(parseColor(markerStyle.color), opacityOf(markers[0]!)) ?? runs[0]!.color;
  const textStyle = runStyle(first);
  const sizePercent = kind === "number" ? 70 : 100;
  const character = kind === "number" ? "8" : bulletCharacters[kind]!;
  // The bullet sits at the box's edge: the box starts where the glyph is centred in the marker's column
  // (the badge's middle for numbers).
  const glyph = textAdvance(character, textStyle, (textStyle.size * sizePercent) / 100);
  const badge = markers[0]!.querySelector(".dh-bullet-number");
  const column = badge ? relative(badge.getBoundingClientRect(), origin) : marker;
  const inset = Math.max(0, column.x + column.w / 2 - glyph / 2 - point.x);
  const insetEnd = Math.max(0, point.x + point.w - (column.x + column.w / 2 + glyph / 2));
  const rect = rtl
    ? { x: point.x, y: point.y, w: size(point.w - insetEnd), h: point.h }
    : { x: position(point.x + inset), y: point.y, w: size(point.w - inset), h: point.h };
  const indent = rtl ? rect.x + rect.w - (body.x + body.w) : body.x - rect.x;
  const last = contentBox(points.at(-1)!, getComputedStyle(points.at(-1)!), origin);
  rect.h = size(last.y + last.h - rect.y);
  const second = points[1] ? relative(points[1].getBoundingClientRect(), origin) : null;
  const gap = second ? second.y - (point.y + point.h) : 0;

  // The badges behind the numbers, centred on where the number is drawn: PowerPoint and LibreOffice put
  // a paragraph's bullet on its first line's baseline, which with exact line spacing is the line's
  // height less the font's descent below the line's top.
  const lineHeight = lineHeightOf(firstStyle);
  const metrics = fontMetrics("8", textStyle, (textStyle.size * sizePercent) / 100);
  const descent = fontMetrics("8", textStyle, textStyle.size).descent;
  points.forEach((point, index) => {
    const number = point.querySelector(".dh-bullet-number");
    if (!number) return;
    const circle = relative(number.getBoundingClientRect(), origin);
    const lineTop = relative(texts[index]!.getBoundingClientRect(), origin).y;
    const middle = metrics.ascent > 0 ? lineTop + lineHeight - descent - metrics.ascent / 2 : circle.y + circle.h / 2;
    pushBoxShapes(number, getComputedStyle(number), { ...circle, y: position(middle - circle.h / 2) }, items);
  });
  items.push({
    kind: "text",
    rect,
    runs,
    align: align === "justify" ? (rtl ? "right" : "left") : align,
    ...(rtl ? { rtl } : {}),
    lineHeight: lineHeightOf(firstStyle),
    singleLine: false,
    list: {
      marker: kind === "number" ? { kind: "number" } : { kind: "char", char: bulletCharacters[kind]! },
      color,
      font: textStyle.font,
      sizePercent,
      indent: size(indent),
      gap: size(gap),
    },
  });
  return true;
}

function walk(element: Element, origin: DOMRect, items: SlideItem[], model: SlideModel) {
  const style = getComputedStyle(element);
  if (style.display === "none" || Number(style.opacity) === 0) return;
  const visible = style.visibility === "visible";
  const rect = relative(element.getBoundingClientRect(), origin);
  if ((rect.w < 0.5 || rect.h < 0.5) && style.overflow !== "visible") return;
  const tag = element.tagName.toLowerCase();

  if (visible && tag === "figure" && element.classList.contains("dh-chart") && element.hasAttribute("data-chart")) {
    const chart = extractChart(element, origin);
    if (chart) {
      items.push(chart);
      // A doughnut's centre (the highlighted share and its name) and the values beside its legend's names
      // (PowerPoint's legend shows names only) are text over the chart.
      for (const text of element.querySelectorAll(
        "svg.dh-chart-svg > g > g > :is(.dh-chart-centre, .dh-chart-note), svg.dh-chart-svg .dh-chart-legend-row > .dh-chart-value",
      )) {
        const textStyle = getComputedStyle(text);
        const content = text.textContent?.trim();
        if (!content) continue;
        const box = relative(text.getBoundingClientRect(), origin);
        const run = { text: content, ...runStyle(text) };
        run.color = parseColor(textStyle.fill) ?? run.color;
        items.push({
          kind: "text",
          rect: box,
          runs: [run],
          align: text.classList.contains("dh-chart-value") ? "right" : "center",
          lineHeight: size(box.h),
          singleLine: true,
        });
      }
      return;
    }
  }

  if (visible && isDisplayFormula(element)) {
    markRaster(element, rect, false, items);
    return;
  }
  if (visible && (tag === "svg" || tag === "img" || tag === "canvas" || tag === "video" || tag === "picture")) {
    markRaster(
      element,
      rect,
      false,
      items,
      tag === "img" ? storedImage(element as HTMLImageElement, style) : undefined,
      tag === "svg" ? iconSvg(element, rect) : undefined,
    );
    return;
  }
  if (visible && tag === "table") {
    items.push(extractTable(element as HTMLTableElement, origin));
    return;
  }

  if (visible) {
    if (element.classList.contains("dh-slide")) {
      model.background = parseColor(style.backgroundColor);
    } else {
      const otherEffect =
        style.filter !== "none" ||
        style.backdropFilter !== "none" ||
        style.mixBlendMode !== "normal" ||
        style.clipPath !== "none" ||
        style.maskImage !== "none" ||
        (style.transform !== "none" && !/^matrix\(1, 0, 0, 1,/.test(style.transform));
      // A gradient alone on a plain rectangle (the scrim over a background image) is a shape with a
      // gradient fill; any other painted background is a picture.
      const gradient =
        style.backgroundImage !== "none" &&
        !otherEffect &&
        !parseColor(style.backgroundColor) &&
        style.borderRadius === "0px" &&
        style.boxShadow === "none" &&
        ["Top", "Right", "Bottom", "Left"].every(
          (side) => px(style.getPropertyValue(`border-${side.toLowerCase()}-width`)) === 0,
        )
          ? parseGradient(style.backgroundImage, opacityOf(element))
          : null;
      if (gradient && rect.w > 0 && rect.h > 0) {
        items.push({
          kind: "shape",
          rect,
          fill: null,
          gradient,
          border: null,
          radius: 0,
          ellipse: false,
          shadow: null,
        });
      } else if ((otherEffect || style.backgroundImage !== "none") && rect.w > 0 && rect.h > 0) {
        markRaster(element, rect, true, items);
      } else {
        pushBoxShapes(element, style, rect, items);
      }
      if (tag === "pre") {
        pushPreformatted(element, style, origin, items);
        return;
      }
      if (element.classList.contains("dh-bullets") && pushList(element as HTMLElement, origin, items)) return;
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
          const lineHeight = lineHeightOf(style);
          const textRect = relative(range.getBoundingClientRect(), origin);
          // The box is the text's own: aligned to where the text starts.
          const rtl = style.direction === "rtl";
          items.push({
            kind: "text",
            rect: textRect,
            runs: emojiPieces(text).map((piece) => ({
              text: piece.text,
              ...runStyle(element),
              ...(piece.emoji ? { font: EMOJI_FONT } : {}),
            })),
            align: rtl ? "right" : "left",
            ...(rtl ? { rtl } : {}),
            lineHeight,
            singleLine: true,
            textWidth: textRect.w,
          });
        }
      }
    }
  }
  for (const child of inPaintOrder(element)) walk(child, origin, items, model);
}

// Children in the order they are painted, which is the order of the items: by z-index where it applies
// (positioned boxes, flex and grid items), otherwise as in the document (the sort is stable). A slide
// with a background image is the case in point: its scrim (a materialised ::before, so the first child)
// lies over the picture and under the content because of z-index alone.
function inPaintOrder(element: Element): Element[] {
  const children = [...element.children];
  const display = getComputedStyle(element).display;
  const layered = /flex|grid/.test(display);
  const layer = (child: Element) => {
    const style = getComputedStyle(child);
    const z = Number.parseInt(style.zIndex, 10);
    return Number.isFinite(z) && (layered || style.position !== "static") ? z : 0;
  };
  const layers = new Map(children.map((child) => [child, layer(child)]));
  if ([...layers.values()].every((z) => z === 0)) return children;
  return children.sort((a, b) => layers.get(a)! - layers.get(b)!);
}

const extract = () => {
  rasters.clear();
  opacities.clear();
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
