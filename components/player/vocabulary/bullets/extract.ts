// What the PPTX export makes of a <Bullets> list: one text box with PowerPoint's own bullets or numbering,
// each point a paragraph of runs.

import { type SlideItem, type TextRun } from "@/lib/contract/slide-model";
import { parseColor } from "@/components/player/export/color";
import {
  contentBox,
  faded,
  opacityOf,
  position,
  pushBoxShapes,
  relative,
  size,
} from "@/components/player/export/extract-box";
import {
  collectRuns,
  fontMetrics,
  hasOwnText,
  isTextBlock,
  lineHeightOf,
  runStyle,
  textAdvance,
  textDirection,
} from "@/components/player/export/extract-text";

// The text of a point: its body when that is a text block, or the one text block inside it.
function pointText(body: Element | null): Element | null {
  if (!body) return null;
  if (isTextBlock(body)) return body;
  const only = body.children.length === 1 && !hasOwnText(body) ? body.children[0]! : null;
  return only && isTextBlock(only) ? only : null;
}

const bulletCharacters: Record<string, string> = { dot: "\u2022", check: "\u2713", arrow: "\u2192" };

// A Bullets list as one text box with PowerPoint's own bullets (a character in the marker's colour, or
// numbering), each point a paragraph indented like the viewer's grid, a sub-list's points at their level
// (PowerPoint's lvl, indented once more per level); number badges stay circles behind the numbers. Lists whose points are more than a line of text are left to the walk.
export function pushList(list: HTMLElement, origin: DOMRect, items: SlideItem[]): boolean {
  const kind = list.dataset.marker ?? "";
  if (!(kind in bulletCharacters || kind === "number")) return false;
  // Every point in reading order, a sub-list's after the point it belongs to, each with its level.
  const points: Element[] = [];
  const levels: number[] = [];
  const collect = (from: Element, level: number): boolean => {
    for (const point of from.children) {
      if (point.tagName !== "LI") return false;
      points.push(point);
      levels.push(level);
      for (const sub of point.querySelectorAll<HTMLElement>(":scope > .dh-bullets")) {
        // One box has one kind of marker: a sub-list of another kind is left to the walk.
        if (sub.dataset.marker !== kind || !collect(sub, level + 1)) return false;
      }
    }
    return true;
  };
  if (!collect(list, 0) || points.length === 0) return false;
  const texts = points.map((point) => pointText(point.querySelector(":scope > .dh-bullet-body")));
  const markers = points.map((point) => point.querySelector(":scope > .dh-bullet-marker"));
  if (texts.some((text) => !text) || markers.some((m) => !m)) return false;
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
  // Where a point's marker is centred: its number badge, or its marker's column.
  const centre = (at: number) => {
    const own = markers[at]!.querySelector(".dh-bullet-number") ?? markers[at]!;
    const box = relative(own.getBoundingClientRect(), origin);
    return box.x + box.w / 2;
  };
  const badge = markers[0]!.querySelector(".dh-bullet-number");
  const column = badge ? relative(badge.getBoundingClientRect(), origin) : marker;
  // How much further in each level's markers sit than the level above's.
  const nested = levels.indexOf(1);
  const levelIndent = nested > 0 ? Math.abs(centre(nested) - centre(0)) : 0;
  const inset = Math.max(0, column.x + column.w / 2 - glyph / 2 - point.x);
  const insetEnd = Math.max(0, point.x + point.w - (column.x + column.w / 2 + glyph / 2));
  const rect = rtl
    ? { x: point.x, y: point.y, w: size(point.w - insetEnd), h: point.h }
    : { x: position(point.x + inset), y: point.y, w: size(point.w - inset), h: point.h };
  const indent = rtl ? rect.x + rect.w - (body.x + body.w) : body.x - rect.x;
  const lastPoint = list.children[list.children.length - 1]!;
  const last = contentBox(lastPoint, getComputedStyle(lastPoint), origin);
  rect.h = size(last.y + last.h - rect.y);
  // The space between the first point's text and the next point's, whatever its level (a sub-list's
  // points are a little closer than the list's own: one gap stands for both).
  const firstText = relative(first.getBoundingClientRect(), origin);
  const second = texts[1] ? relative(texts[1].getBoundingClientRect(), origin) : null;
  const gap = second ? second.y - (firstText.y + firstText.h) : 0;

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
      gap: size(Math.max(0, gap)),
      ...(nested > 0 ? { levels, levelIndent: size(levelIndent) } : {}),
    },
  });
  return true;
}
