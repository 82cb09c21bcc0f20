// The deck check's measurements, taken inside the export renderer's page once the player has drawn and
// fitted every slide (export mode: each slide a .dh-export-page, 1920x1080, stacked). Like the PPTX
// extractor it is built as a classic script and evaluated in an isolated world of the page, so nothing
// the deck's own scripts redefine changes what it reports. It measures; the server
// (lib/render/check-deck.ts) decides what is a finding and writes the messages.
import type { CheckColor, CheckRect, CheckedElement, SlideMeasurements } from "@/lib/contract/check";
import { TEXT_MINIMUMS } from "@/lib/contract/check";
import { composite, contrastRatio } from "@/lib/contract/color";
import { componentNames } from "@/lib/contract/prop-values";
import { SLIDE_FLOOR, WORD_FLOORS } from "../shell/fit";
import { parseColor } from "./color";

/** Elements that count as pictures, charts or other visual content (a slide with one is not empty). */
const MEDIA =
  ".dh-image, .dh-chart, .dh-table, .dh-code, .dh-icon, .dh-stat, .dh-timeline, .dh-steps, .dh-diagram, .dh-logo, .dh-slide-image, .dh-formula[data-display]";
/** Text that is not body text: the heading ladder, big numbers, data and formulas. */
const NOT_BODY = ".dh-title, .dh-heading, .dh-stat-value, .dh-code, .dh-table, .dh-chart, .dh-diagram, .dh-formula";
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}'’.,-]*/gu;
const MAX_TEXT_BLOCKS = 400;

// The class each vocabulary component puts on its outer element: dh-<name in lower case>.
const componentClasses = new Map(componentNames.map((name) => [`dh-${name.toLowerCase()}`, name]));

function componentOf(element: Element): string {
  for (let node: Element | null = element; node; node = node.parentElement) {
    for (const name of node.classList) {
      const component = componentClasses.get(name);
      if (component) return component;
    }
    if (node.classList.contains("dh-slide")) break;
  }
  return "Slide";
}

// The start of an element's text, its text nodes joined by spaces (a list's items do not run together).
function snippet(element: Element): string {
  const parts: string[] = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node && parts.join(" ").length < 80; node = walker.nextNode()) {
    if (!node.parentElement?.closest("[aria-hidden='true']")) parts.push(node.textContent ?? "");
  }
  const text = parts.join(" ").replace(/\s+/g, " ").trim();
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function named(element: Element): CheckedElement {
  return { component: componentOf(element), text: snippet(element) };
}

function countWords(text: string): number {
  return text.match(WORD)?.length ?? 0;
}

function rgb(value: string): CheckColor | null {
  const parsed = parseColor(value);
  if (!parsed) return null;
  const n = Number.parseInt(parsed.hex, 16);
  return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255, a: parsed.alpha };
}

function visible(element: Element): boolean {
  if (!(element instanceof HTMLElement)) return true;
  if (element.offsetParent === null && getComputedStyle(element).position !== "fixed") return false;
  const style = getComputedStyle(element);
  return style.visibility !== "hidden" && Number.parseFloat(style.opacity) > 0;
}

// Text of the slide (or below `root`) outside the elements matching `skip`.
function textOutside(root: Element, skip?: string): string {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const parts: string[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || (skip && parent.closest(skip)) || parent.closest("[aria-hidden='true']")) continue;
    parts.push(node.textContent ?? "");
  }
  return parts.join(" ");
}

// Elements holding text of their own (not only through children), with their text's line boxes.
type TextBlock = { element: HTMLElement; rects: DOMRect[] };

function textBlocks(slide: HTMLElement): TextBlock[] {
  const byElement = new Map<HTMLElement, DOMRect[]>();
  const walker = document.createTreeWalker(slide, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node && byElement.size < MAX_TEXT_BLOCKS; node = walker.nextNode()) {
    if (!/\S/.test(node.textContent ?? "")) continue;
    const parent = node.parentElement;
    if (!(parent instanceof HTMLElement) || !visible(parent)) continue;
    // A drawn formula's glyphs are set on purpose over and under each other (and its MathML is there
    // for screen readers, unseen): it is measured as the picture it is, not as lines of text.
    if (parent.closest(".dh-formula .katex")) continue;
    range.selectNodeContents(node);
    // A text's boxes are as tall as its font's ascent and descent; with a tight line height they reach
    // into the lines above and below without any ink touching. Its line boxes are what must not cross.
    const lineHeight = Number.parseFloat(getComputedStyle(parent).lineHeight);
    const rects = [...range.getClientRects()]
      .filter((rect) => rect.width > 0.5 && rect.height > 0.5)
      .map((rect) =>
        Number.isFinite(lineHeight) && lineHeight < rect.height
          ? new DOMRect(rect.x, rect.y + (rect.height - lineHeight) / 2, rect.width, lineHeight)
          : rect,
      );
    if (rects.length === 0) continue;
    byElement.set(parent, [...(byElement.get(parent) ?? []), ...rects]);
  }
  return [...byElement].map(([element, rects]) => ({ element, rects }));
}

// Pairs of text from different elements whose line boxes cross: text drawn over text.
function overlaps(blocks: TextBlock[]): SlideMeasurements["overlaps"] {
  const found: SlideMeasurements["overlaps"] = [];
  for (let i = 0; i < blocks.length; i++) {
    for (let j = i + 1; j < blocks.length; j++) {
      const a = blocks[i]!;
      const b = blocks[j]!;
      if (a.element.contains(b.element) || b.element.contains(a.element)) continue;
      let worst = 0;
      for (const ra of a.rects) {
        for (const rb of b.rects) {
          const width = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
          const height = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
          // Line boxes of tight line heights touch; a quarter of the smaller line is real overlap.
          if (width > 2 && height > Math.min(ra.height, rb.height) * 0.25)
            worst = Math.max(worst, Math.min(width, height));
        }
      }
      if (worst > 0) found.push({ a: named(a.element), b: named(b.element), px: Math.round(worst) });
    }
  }
  return found;
}

function hasPaint(style: CSSStyleDeclaration): boolean {
  return style.backgroundImage !== "none" || (rgb(style.backgroundColor)?.a ?? 0) > 0;
}

// The colour behind an element when only plain colours lie under it (its ancestors' backgrounds up to
// the page); null when an image, a gradient or a painted pseudo-element is somewhere behind it.
function plainBackground(element: HTMLElement, page: Element): CheckColor | null {
  const layers: CheckColor[] = [];
  for (let node: Element | null = element; node; node = node.parentElement) {
    const style = getComputedStyle(node);
    if (style.backgroundImage !== "none") return null;
    for (const pseudo of ["::before", "::after"]) {
      const pseudoStyle = getComputedStyle(node, pseudo);
      if (pseudoStyle.content !== "none" && pseudoStyle.position === "absolute" && hasPaint(pseudoStyle)) return null;
    }
    if (node.classList.contains("dh-slide") && node.querySelector(":scope > .dh-slide-image")) return null;
    const color = rgb(style.backgroundColor);
    if (color && color.a > 0) layers.push(color);
    if (color && color.a >= 1) break;
    if (node === page) break;
  }
  let result: CheckColor = { r: 255, g: 255, b: 255, a: 1 };
  for (const layer of layers.reverse()) result = composite(layer, result);
  return result;
}

function union(rects: DOMRect[], origin: DOMRect): CheckRect {
  const left = Math.min(...rects.map((rect) => rect.left));
  const top = Math.min(...rects.map((rect) => rect.top));
  const right = Math.max(...rects.map((rect) => rect.right));
  const bottom = Math.max(...rects.map((rect) => rect.bottom));
  return { x: left - origin.left, y: top - origin.top, w: right - left, h: bottom - top };
}

function contrast(blocks: TextBlock[], page: Element, origin: DOMRect): SlideMeasurements["contrast"] {
  const found: SlideMeasurements["contrast"] = [];
  for (const { element, rects } of blocks) {
    const style = getComputedStyle(element);
    const color = rgb(style.color);
    if (!color || color.a === 0) continue;
    const size = Number.parseFloat(style.fontSize);
    // WCAG's large text: 18 pt (24 px), or 14 pt (18.66 px) bold.
    const large = size >= 24 || (size >= 18.66 && Number.parseInt(style.fontWeight, 10) >= 700);
    const background = plainBackground(element, page);
    const ratio = background ? contrastRatio(composite(color, background), background) : null;
    if (ratio !== null && ratio >= 4.5) continue;
    found.push({
      ...named(element),
      color,
      background,
      ratio: ratio === null ? null : Math.round(ratio * 100) / 100,
      large,
      rect: union(rects, origin),
    });
  }
  return found;
}

// The innermost elements the fitting marked (shell/fit.ts), with how far they cross the padding.
function overflow(slide: HTMLElement): SlideMeasurements["overflow"] {
  const marked = [...slide.querySelectorAll<HTMLElement>("[data-dh-overflow]")];
  const innermost = marked.filter((element) => !element.querySelector("[data-dh-overflow]"));
  const box = slide.getBoundingClientRect();
  const style = getComputedStyle(slide);
  const bottom = box.top + slide.clientHeight - Number.parseFloat(style.paddingBottom);
  const right = box.left + slide.clientWidth - Number.parseFloat(style.paddingRight);
  return innermost.map((element) => {
    const rect = element.getBoundingClientRect();
    const spill = element.scrollHeight - element.clientHeight;
    // A Frame sits where it was put: only what spills out of the frame itself counts.
    const px = element.classList.contains("dh-frame")
      ? Math.max(spill, element.scrollWidth - element.clientWidth, 1)
      : Math.max(rect.bottom - bottom, rect.right - right, spill, 1);
    return {
      ...named(element),
      px: Math.round(px),
      cut: rect.bottom > box.bottom + 1 || rect.right > box.right + 1 || spill > 1,
    };
  });
}

// Text that may be as small as a label (14 pt): kickers, captions, details, table heads, chart and diagram
// labels, dates, badges, and text the author made small (size "sm"). Everything else is body text (18 pt).
const LABELS =
  ".dh-kicker, .dh-image-caption, .dh-image-missing, .dh-stat-detail, .dh-table-head, .dh-timeline-date, .dh-step-detail, .dh-quote-role, .dh-chart, .dh-diagram, .dh-bullet-number, .dh-logo, [data-size='sm']";

function smallText(slide: HTMLElement, blocks: TextBlock[]): SlideMeasurements["smallText"] {
  if (!slide.classList.contains("dh-slide")) return []; // a webpage is read at arm's length
  const found: SlideMeasurements["smallText"] = [];
  for (const { element } of blocks) {
    const px = Number.parseFloat(getComputedStyle(element).fontSize);
    const min = element.closest(LABELS) ? TEXT_MINIMUMS.label : TEXT_MINIMUMS.body;
    if (px < min - 0.01) found.push({ ...named(element), px: Math.round(px * 10) / 10, min });
  }
  return found;
}

// Not in the flow of the slide's column: the background image, a pinned Logo, the export's scrim copy.
const OUT_OF_FLOW = ".dh-slide-image, .dh-logo-pinned, [data-dh-pseudo]";

// The tallest band of a content slide's safe area (inside its padding) that no element of its column
// reaches, as a share of the area's height. Covers and statements (layout "center") are composed around
// the middle on purpose and are not measured; nor is a slide with nothing in it.
function emptyBand(slide: HTMLElement): number {
  if (!slide.classList.contains("dh-slide") || (slide.dataset.layout ?? "content") !== "content") return 0;
  const children = [...slide.children].filter(
    (child): child is HTMLElement => child instanceof HTMLElement && !child.matches(OUT_OF_FLOW) && visible(child),
  );
  if (children.length === 0) return 0;
  const box = slide.getBoundingClientRect();
  const style = getComputedStyle(slide);
  const top = box.top + Number.parseFloat(style.paddingTop);
  const bottom = box.top + slide.clientHeight - Number.parseFloat(style.paddingBottom);
  const spans = children
    .map((child) => child.getBoundingClientRect())
    .map((rect) => [Math.max(top, rect.top), Math.min(bottom, rect.bottom)] as const)
    .filter(([from, to]) => to > from)
    .sort((a, b) => a[0] - b[0]);
  let largest = 0;
  let reached = top;
  for (const [from, to] of spans) {
    largest = Math.max(largest, from - reached);
    reached = Math.max(reached, to);
  }
  largest = Math.max(largest, bottom - reached);
  return bottom > top ? Math.round((largest / (bottom - top)) * 100) / 100 : 0;
}

// Source of another language shown as text: what an import or a model left unconverted.
const SOURCE_PATTERNS: ReadonlyArray<[SlideMeasurements["sourceText"][number]["syntax"], RegExp]> = [
  [
    "Markdown",
    /\*\*[^*\s][^*]*\*\*|(^|\s)__[^_\s][^_]*__(?=\s|$)|!\[[^\]]*\]\([^)\s]+\)|\[[^\]]+\]\((?:https?:|\/|#)[^)\s]*\)|^#{1,6}\s|(^|\s)`[^`\n]+`/m,
  ],
  [
    "LaTeX",
    /\$\$|\\(?:frac|sum|int|sqrt|alpha|beta|gamma|lambda|sigma|begin|end|left|right|cdot|times|mathbb|mathrm|text)\b|\$[^$\s][^$]*\\[a-z]+[^$]*\$/,
  ],
  [
    "HTML",
    /<\/?(?:div|span|br|p|img|a|b|i|u|s|strong|em|ul|ol|li|table|tr|td|th|h[1-6]|section|style|script|sup|sub)\b[^>]*>|&(?:nbsp|amp|lt|gt|quot);/i,
  ],
];
const MERMAID =
  /^\s*(?:(?:graph|flowchart)\s+(?:TD|TB|BT|RL|LR)\b|sequenceDiagram|classDiagram|stateDiagram(?:-v2)?|erDiagram|gantt|pie\b|journey|mindmap|gitGraph)/;
const LATEX_BLOCK = /^\s*(?:\$\$|\\begin\{(?:equation|align|gather|matrix)\*?\})/;

function sourceText(slide: HTMLElement, blocks: TextBlock[]): SlideMeasurements["sourceText"] {
  const found: SlideMeasurements["sourceText"] = [];
  for (const code of slide.querySelectorAll<HTMLElement>(".dh-code")) {
    const text = code.textContent ?? "";
    const syntax = MERMAID.test(text) ? "Mermaid" : LATEX_BLOCK.test(text) ? "LaTeX" : null;
    if (syntax) found.push({ ...named(code), syntax });
  }
  const seen = new Set<Element>();
  for (const { element } of blocks) {
    if (element.closest(".dh-code, .dh-diagram, .dh-chart")) continue;
    const owner = element.closest(".dh-bullet, .dh-text, .dh-table-cell, .dh-quote, .dh-heading, .dh-title") ?? element;
    if (seen.has(owner)) continue;
    seen.add(owner);
    const text = owner.textContent ?? "";
    const match = SOURCE_PATTERNS.find(([, pattern]) => pattern.test(text));
    if (match) found.push({ ...named(owner), syntax: match[0] });
  }
  return found;
}

// Characters no font of the renderer has: drawn on a canvas in the element's font, each is compared with
// what that font draws for an unassigned code point (the missing-glyph box, whichever font draws it).
// Only characters beyond Latin are tried (the shipped faces cover Latin); joiners, variation selectors,
// skin tones, tags and combining marks only modify their neighbour.
const UNASSIGNED = "\u0378";
// Code points that only modify their neighbour: joiners and directional marks, variation selectors, skin
// tones, tag characters; combining marks and spaces are tested by class.
const MODIFIER_RANGES: ReadonlyArray<[number, number]> = [
  [0x200b, 0x200f],
  [0x2060, 0x2060],
  [0xfe00, 0xfe0f],
  [0x1f3fb, 0x1f3ff],
  [0xe0020, 0xe007f],
];
const modifies = (character: string) => {
  const point = character.codePointAt(0)!;
  return /[\p{M}\s]/u.test(character) || MODIFIER_RANGES.some(([from, to]) => point >= from && point <= to);
};
const GLYPH_PROBE = 40;

function missingGlyphs(blocks: TextBlock[]): SlideMeasurements["missingGlyphs"] {
  const found: SlideMeasurements["missingGlyphs"] = [];
  const canvas = document.createElement("canvas");
  canvas.width = GLYPH_PROBE * 2;
  canvas.height = GLYPH_PROBE * 2;
  const context = canvas.getContext("2d", { willReadFrequently: true });
  if (!context) return found;
  const drawn = (font: string, character: string) => {
    context.clearRect(0, 0, canvas.width, canvas.height);
    context.font = font;
    context.fillText(character, GLYPH_PROBE / 2, GLYPH_PROBE * 1.5);
    return context.getImageData(0, 0, canvas.width, canvas.height).data.join(",");
  };
  const boxes = new Map<string, string>();
  const verdicts = new Map<string, boolean>();
  for (const { element } of blocks) {
    const own = [...element.childNodes]
      .filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => node.textContent ?? "")
      .join("");
    const candidates = [...new Set([...own].filter((ch) => ch.codePointAt(0)! > 0x24f && !modifies(ch)))];
    if (candidates.length === 0) continue;
    const style = getComputedStyle(element);
    const font = `${style.fontStyle} ${style.fontWeight} ${GLYPH_PROBE}px ${style.fontFamily}`;
    if (!boxes.has(font)) boxes.set(font, drawn(font, UNASSIGNED));
    const missing = candidates.filter((ch) => {
      const key = `${font}|${ch}`;
      if (!verdicts.has(key)) verdicts.set(key, drawn(font, ch) === boxes.get(font));
      return verdicts.get(key);
    });
    if (missing.length > 0) found.push({ ...named(element), characters: missing.join("").slice(0, 20) });
  }
  return found;
}

function zeroSizeImages(slide: HTMLElement): CheckedElement[] {
  return [...slide.querySelectorAll<HTMLElement>(".dh-image")]
    .filter((figure) => {
      const picture = figure.querySelector(".dh-image-img, .dh-image-missing") ?? figure;
      const rect = picture.getBoundingClientRect();
      return rect.width < 2 || rect.height < 2;
    })
    .map((figure) => ({
      component: "Image",
      text: (figure.querySelector("img")?.getAttribute("alt") ?? "").slice(0, 60),
    }));
}

function fitFactor(element: HTMLElement, property: string): number {
  const value = Number.parseFloat(element.style.getPropertyValue(property));
  return Number.isFinite(value) ? value : 1;
}

function measure(page: HTMLElement, index: number): SlideMeasurements {
  const slide = page.querySelector<HTMLElement>(":scope > .dh-slide") ?? page;
  const origin = slide.getBoundingClientRect();
  const blocks = textBlocks(slide);
  const fit = fitFactor(slide, "--dh-slide-fit");
  const wordsAtFloor: CheckedElement[] = [];
  for (const [name, floor] of Object.entries(WORD_FLOORS)) {
    for (const element of slide.querySelectorAll<HTMLElement>(`.${name}`)) {
      const own = fitFactor(element, "--dh-fit");
      if (own < 1 && own * fit <= floor + 1e-6) wordsAtFloor.push(named(element));
    }
  }
  const lists = [...slide.querySelectorAll<HTMLElement>(".dh-bullets")].map((list) => {
    const items = [...list.querySelectorAll(":scope > .dh-bullet")];
    return {
      ...named(list),
      items: items.length,
      longestItemWords: Math.max(0, ...items.map((item) => countWords(textOutside(item)))),
    };
  });
  const images = [...slide.querySelectorAll(".dh-image")].map((figure) => {
    const img = figure.querySelector("img");
    const missing = figure.querySelector(".dh-image-missing");
    return {
      alt: (img?.getAttribute("alt") ?? missing?.getAttribute("aria-label") ?? "").trim(),
      failed: !img || !img.complete || img.naturalWidth === 0,
      src: (img?.getAttribute("src") ?? missing?.getAttribute("data-src") ?? "").slice(0, 120),
    };
  });
  const fonts = new Set<string>();
  for (const { element } of blocks) {
    const family = getComputedStyle(element)
      .fontFamily.split(",")[0]
      ?.trim()
      .replace(/^["']|["']$/g, "");
    if (family) fonts.add(family);
  }
  return {
    slide: index + 1,
    label: slide.getAttribute("aria-label") ?? `Slide ${index + 1}`,
    layout: slide.dataset.layout ?? "content",
    failed: slide.classList.contains("dh-slide-error"),
    bodyWords: countWords(textOutside(slide, NOT_BODY)),
    words: countWords(textOutside(slide)),
    title: slide.querySelector(".dh-title") !== null,
    media: slide.querySelectorAll(MEDIA).length,
    lists,
    overflow: overflow(slide),
    fit,
    slideAtFloor: fit <= SLIDE_FLOOR + 1e-6,
    wordsAtFloor,
    overlaps: overlaps(blocks),
    contrast: contrast(blocks, page, origin),
    images,
    diagramErrors: [...slide.querySelectorAll('.dh-diagram[data-state="error"]')].map(
      (figure) => figure.querySelector(".dh-diagram-error-message")?.textContent?.trim().slice(0, 200) ?? "",
    ),
    fonts: [...fonts],
    smallText: smallText(slide, blocks),
    emptyBand: emptyBand(slide),
    sourceText: sourceText(slide, blocks),
    missingGlyphs: missingGlyphs(blocks),
    zeroSizeImages: zeroSizeImages(slide),
  };
}

const check = (): SlideMeasurements[] =>
  [...document.querySelectorAll<HTMLElement>(".dh-export-page")].map((page, index) => measure(page, index));

// For the server's pixel sampling: every text drawn transparent (true), or as it was (false).
let hideStyle: HTMLStyleElement | null = null;
const hideText = (hide: boolean): boolean => {
  if (hide && !hideStyle) {
    hideStyle = document.createElement("style");
    hideStyle.textContent =
      "* { color: transparent !important; text-shadow: none !important; -webkit-text-stroke-color: transparent !important; text-decoration-color: transparent !important; caret-color: transparent !important; }";
    document.head.appendChild(hideStyle);
  } else if (!hide && hideStyle) {
    hideStyle.remove();
    hideStyle = null;
  }
  return hide;
};

// This world's own window: nothing of the deck's can define these first or replace them.
Object.defineProperty(window, "__deckhandCheck", { value: check, writable: false, configurable: false });
Object.defineProperty(window, "__deckhandHideText", { value: hideText, writable: false, configurable: false });
