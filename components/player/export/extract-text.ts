// The PPTX extractor's text: runs with their font, size, weight, colour, links and emoji font, text boxes
// placed where the browser drew them, a line's metrics measured on the page's canvas.

import { type SlideItem, type TextItem, type TextRun, slideModelLimits as limits } from "@/lib/contract/slide-model";
import { formulaText, isFormula } from "@/components/player/vocabulary/formula/extract";
import { parseColor } from "./color";
import { contentBox, faded, opacityOf, px, size, within } from "@/components/player/export/extract-box";

// The first family of a computed font-family, as its name: quotes and CSS escapes undone, reduced to a
// plain name (no control or formatting characters), or Arial when nothing usable is left.
export function firstFamily(fontFamily: string): string {
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
export function textDirection(style: CSSStyleDeclaration): {
  align: "left" | "center" | "right" | "justify";
  rtl: boolean;
} {
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

export function transformText(text: string, transform: string): string {
  if (transform === "uppercase") return text.toUpperCase();
  if (transform === "lowercase") return text.toLowerCase();
  if (transform === "capitalize") return text.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
  return text;
}

export function isInline(element: Element): boolean {
  const display = getComputedStyle(element).display;
  return display === "inline" || display === "contents" || element.tagName === "BR";
}

export function hasOwnText(element: Element): boolean {
  return [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== "");
}

// A block whose content is text and inline elements only: one PowerPoint text box.
export function isTextBlock(element: Element): boolean {
  if (!element.textContent?.trim()) return false;
  const children = [...element.children];
  if (!hasOwnText(element) && children.length !== 1) return false;
  return children.every((child) => isInline(child) && child.tagName !== "svg" && child.tagName !== "IMG");
}

// Emoji are drawn from an emoji font, which the deck's fonts do not have: their runs name one, so
// PowerPoint (Segoe UI Emoji on Windows) and LibreOffice (through fontconfig) draw them instead of
// leaving a blank or a box. A sequence is one emoji: modifiers, variation selectors, joiners, flags, keycaps.
export const EMOJI_FONT = "Segoe UI Emoji";

const emoji =
  /(?:\p{RI}\p{RI}|[#*0-9]\uFE0F?\u20E3|(?:\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F)\p{EMod}?(?:\u200D\p{Extended_Pictographic}\uFE0F?\p{EMod}?)*)/gu;

/** The text cut into pieces that are all emoji or have none. */
export function emojiPieces(text: string): { text: string; emoji: boolean }[] {
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

export function runStyle(element: Element): Omit<TextRun, "text"> {
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
export function collectRuns(root: Element, options: { blocks?: boolean } = {}): TextRun[] {
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

export function lineHeightOf(style: CSSStyleDeclaration): number {
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
export function textAdvance(text: string, run: Omit<TextRun, "text">, sizePx = run.size): number {
  measureContext ??= document.createElement("canvas").getContext("2d");
  if (!measureContext) return 0;
  const family = run.font.replace(/["\\]/g, "");
  measureContext.font = `${run.italic ? "italic " : ""}${run.bold ? 700 : 400} ${sizePx}px "${family}"`;
  return measureContext.measureText(text).width;
}

/** How far a string's ink rises above the baseline, and the font's descent below it, in a run's font. */
export function fontMetrics(
  text: string,
  run: Omit<TextRun, "text">,
  sizePx: number,
): { ascent: number; descent: number } {
  textAdvance("", run, sizePx);
  if (!measureContext) return { ascent: 0, descent: 0 };
  const measured = measureContext.measureText(text);
  return { ascent: measured.actualBoundingBoxAscent, descent: measured.fontBoundingBoxDescent };
}

export function pushTextBox(element: Element, style: CSSStyleDeclaration, origin: DOMRect, items: SlideItem[]) {
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
