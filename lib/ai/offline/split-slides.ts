// Marp and Slidev decks are Markdown with a slide syntax on top: YAML front matter for the deck, `---`
// lines between slides, Slidev's per-slide front matter (`---` / `layout: two-cols` / `---`) and slot
// markers (`::right::`). That syntax lives on whole lines outside code fences, so it is read here line by
// line; each slide's Markdown then goes through remark (markdown.ts). Briefs come out as one body.

import { parse as parseYaml, YAMLParseError } from "yaml";
import { AppError } from "@/lib/core/errors";

export type SourceKind = "marp" | "slidev" | "slides" | "brief";
export type FrontMatter = Record<string, unknown>;
type Slot = { name: string; text: string; line: number };
export type SourceSlide = { frontMatter: FrontMatter; line: number; slots: Slot[] };
export type SplitSource = {
  kind: SourceKind;
  frontMatter: FrontMatter;
  /** The text after the front matter, and the line it starts on. */
  body: string;
  bodyLine: number;
  slides: SourceSlide[];
};

// Keys that only Slidev's front matter uses (the deck's headmatter or a slide's).
const slidevKeys = new Set([
  "layout",
  "theme",
  "highlighter",
  "transition",
  "drawings",
  "mdc",
  "info",
  "class",
  "colorSchema",
  "lineNumbers",
  "routerMode",
  "aspectRatio",
  "canvasWidth",
  "download",
  "exportFilename",
  "fonts",
  "image",
  "background",
  "clicks",
  "level",
  "hideInToc",
  "routeAlias",
  "src",
  "preload",
  "dragPos",
  "backgroundSize",
]);

/** Normalises line ends and refuses bytes no Markdown file contains, naming their line. */
export function normalizeSource(text: string): string {
  const clean = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  // eslint-disable-next-line no-control-regex
  const binary = /[\u0000\u0001-\u0008\u000E-\u001F]/.exec(clean);
  if (binary) {
    const line = clean.slice(0, binary.index).split("\n").length;
    throw new AppError(
      "invalid_request",
      `Line ${line}: the text contains a control character (U+${(binary[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}); this does not look like Markdown.`,
    );
  }
  // Vertical tabs and form feeds are white space to a reader.
  // eslint-disable-next-line no-control-regex
  return clean.replace(/[\u000B\u000C\u007F]/g, " ");
}

export function splitSource(text: string): SplitSource {
  const lines = text.split("\n");
  const head = readFrontMatter(lines, 0, true);
  const frontMatter = head?.data ?? {};
  const bodyStart = head ? head.end + 1 : 0;
  const body = lines.slice(bodyStart).join("\n");
  const separators = findSeparators(lines, bodyStart);

  const marp = frontMatter.marp === true || /<!--\s*_?(?:class|paginate|theme|header|footer)\s*:/.test(body);
  const slidevHead = !marp && Object.keys(frontMatter).some((key) => slidevKeys.has(key));
  const slides = cutSlides(lines, bodyStart, separators, !marp);
  const slidevSlides = slides.some((slide) => Object.keys(slide.frontMatter).length > 0);
  const headed = slides.filter((slide) => slide.slots.some((slot) => /^\s{0,3}#{1,6}\s/m.test(slot.text))).length;

  let kind: SourceKind = "brief";
  if (marp) kind = "marp";
  else if (slidevHead || slidevSlides) kind = "slidev";
  else if (slides.length >= 3 && headed >= slides.length - 1) kind = "slides";
  if (kind === "brief") return { kind, frontMatter, body, bodyLine: bodyStart + 1, slides: [] };
  return { kind, frontMatter, body, bodyLine: bodyStart + 1, slides: slides.filter(hasContent) };
}

function hasContent(slide: SourceSlide): boolean {
  return slide.slots.some((slot) => slot.text.trim().length > 0);
}

const fenceOpen = /^\s{0,3}(`{3,}|~{3,})/;

/** Indexes of `---` lines outside code fences, from `from` on. */
function findSeparators(lines: string[], from: number): number[] {
  const found: number[] = [];
  let fence: string | null = null;
  for (let index = from; index < lines.length; index++) {
    const line = lines[index] ?? "";
    const marker = fenceOpen.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      continue;
    }
    if (marker) {
      fence = marker;
      continue;
    }
    if (/^---\s*$/.test(line)) found.push(index);
  }
  return found;
}

function cutSlides(
  lines: string[],
  bodyStart: number,
  separators: number[],
  perSlideFrontMatter: boolean,
): SourceSlide[] {
  const slides: SourceSlide[] = [];
  let start = bodyStart;
  let frontMatter: FrontMatter = {};
  for (let index = 0; index <= separators.length; index++) {
    const end = separators[index] ?? lines.length;
    if (end < start) continue;
    slides.push({ frontMatter, line: start + 1, slots: cutSlots(lines, start, end) });
    frontMatter = {};
    start = end + 1;
    // `---` yaml `---`: the next slide's own front matter (Slidev).
    const next = separators[index + 1];
    if (perSlideFrontMatter && next !== undefined) {
      const block = readFrontMatter(lines, end, false, next);
      if (block) {
        frontMatter = block.data;
        start = next + 1;
        index++;
      }
    }
  }
  return slides;
}

/** Splits a slide at `::name::` lines (Slidev slots); text before the first marker is the default slot. */
function cutSlots(lines: string[], start: number, end: number): Slot[] {
  const slots: Slot[] = [];
  let name = "default";
  let from = start;
  let fence: string | null = null;
  const close = (to: number) => {
    const text = lines.slice(from, to).join("\n");
    if (text.trim() || name === "default") slots.push({ name, text, line: from + 1 });
  };
  for (let index = start; index < end; index++) {
    const line = lines[index] ?? "";
    const marker = fenceOpen.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && line.trim() === marker) fence = null;
      continue;
    }
    if (marker) {
      fence = marker;
      continue;
    }
    const slot = /^::([A-Za-z][\w-]*)::\s*$/.exec(line);
    if (slot) {
      close(index);
      name = slot[1] ?? "default";
      from = index + 1;
    }
  }
  close(end);
  return slots;
}

/**
 * A YAML mapping between the `---` at `open` and the next `---` (or `close`). At the top of a file a
 * block that looks like YAML but does not parse is refused, naming its line; elsewhere it is content.
 */
function readFrontMatter(
  lines: string[],
  open: number,
  top: boolean,
  close?: number,
): { data: FrontMatter; end: number } | null {
  if (!/^---\s*$/.test(lines[open] ?? "")) return null;
  let end = close ?? -1;
  if (close === undefined) {
    for (let index = open + 1; index < lines.length; index++) {
      if (/^(?:---|\.\.\.)\s*$/.test(lines[index] ?? "")) {
        end = index;
        break;
      }
    }
  }
  if (end < 0) return null;
  const block = lines.slice(open + 1, end);
  const meaningful = block.filter((line) => line.trim() && !line.trim().startsWith("#"));
  if (meaningful.length === 0) return top && end === open + 1 ? null : top ? { data: {}, end } : null;
  if (!/^[A-Za-z_][\w-]*\s*:(?:\s|$)/.test(meaningful[0] ?? "")) return null;
  let data: unknown;
  try {
    data = parseYaml(block.join("\n"));
  } catch (error) {
    if (!top) return null;
    const at = error instanceof YAMLParseError ? (error.linePos?.[0]?.line ?? 1) : 1;
    const reason = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
    throw new AppError(
      "invalid_request",
      `Line ${open + 1 + at}: the front matter is not valid YAML (${reason.replace(/ at line \d+, column \d+:?$/, "")}).`,
      { cause: error },
    );
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) return null;
  const keys = Object.keys(data);
  if (!top && !keys.some((key) => slidevKeys.has(key))) return null;
  return { data: data as FrontMatter, end };
}
