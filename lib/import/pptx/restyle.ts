import { type ChildNode, type ElementNode, el, printModule, type SlidePlan } from "@/lib/ai/offline/print";
import { shippedFonts } from "@/lib/contract/fonts";
import { iconNames } from "@/lib/contract/prop-values";
import {
  chartElement,
  dedupe,
  flatten,
  type PictureUrls,
  pictureKey,
  plain,
  shapeText,
  tableElement,
  titleAndCover,
} from "./common";
import type { ImportWarning, Paragraph, PptxDeck, PptxSlide, Run, Shape } from "./model";

// `restyle` mode: a read presentation (model.ts) mapped into the vocabulary's own layouts, the way a
// Markdown import is, and printed by the offline generator's printer: the title placeholder (or, without
// one, the largest text near the top) as the slide's Title or Heading and label, bulleted paragraphs as
// Bullets, the rest as Text (bold and italic kept inline), tables as Table, charts as Chart, pictures as
// Image, a quotation as Quote, a figure with its caption as Stat, a picture background as the slide's image.
// Positions, colours and fonts are the deck's own style from then on; everything else approximated or left
// out is a warning naming its slide.

export type RestyledDeck = { title: string; source: string; slides: number; warnings: ImportWarning[] };

// Slide numbers are the player's business; a footer, header or date is kept as small muted text at the end.
const SKIPPED_PLACEHOLDERS = new Set(["sldNum", "sldImg"]);
const FOOTER_PLACEHOLDERS = new Set(["dt", "ftr", "hdr"]);
const TITLE_PLACEHOLDERS = new Set(["title", "ctrTitle"]);
// The player draws four levels of a list; deeper points join the fourth.
const MAX_DEPTH = 3;
const STAT_VALUE = /^[\s+\-−~≈<>]*[$€£¥]?\s*\d[\d.,\s]*\s*(%|[kKmMbB]n?|x|×|pts?|[A-Za-z]{1,3})?\s*$/;

export function restyle(deck: PptxDeck, pictures: PictureUrls, title: string | undefined): RestyledDeck {
  const warnings: ImportWarning[] = [...deck.warnings];
  const plans: SlidePlan[] = [];
  for (const slide of deck.slides) {
    if (slide.hidden) {
      warnings.push({ slide: slide.number, message: "a hidden slide; skipped" });
      continue;
    }
    plans.push(planSlide(slide, deck, pictures, (message) => warnings.push({ slide: slide.number, message })));
  }
  const deckTitle = titleAndCover(title, deck, plans, warnings);
  return {
    title: deckTitle,
    source: printModule(deckTitle, plans, "slides"),
    slides: plans.length,
    warnings: dedupe(warnings),
  };
}

function largestSize(shape: Shape): number {
  if (shape.kind !== "text") return 0;
  return Math.max(0, ...shape.paragraphs.flatMap((p) => p.runs.map((run) => run.size ?? 0)));
}

function planSlide(
  slide: PptxSlide,
  deck: PptxDeck,
  pictures: PictureUrls,
  warn: (message: string) => void,
): SlidePlan {
  const all = flatten(slide.shapes).filter(
    (shape) => !(shape.kind === "text" && shape.placeholder && SKIPPED_PLACEHOLDERS.has(shape.placeholder.type)),
  );
  // Reading order: top to bottom, then left to right, in bands of a twentieth of the slide.
  const band = deck.height / 20;
  const ordered = all
    .map((shape, index) => ({ shape, index }))
    .sort((a, b) => {
      const ay = Math.round((a.shape.frame?.y ?? 0) / band);
      const by = Math.round((b.shape.frame?.y ?? 0) / band);
      return ay - by || (a.shape.frame?.x ?? 0) - (b.shape.frame?.x ?? 0) || a.index - b.index;
    })
    .map((entry) => entry.shape);

  const found = findTitle(ordered, deck);
  const titleShape = found?.shape;
  const titleText = titleShape ? shapeText(titleShape) : "";
  // A cover: a centre title placeholder or a title slide layout; without placeholders, a title in the
  // middle of the slide rather than at its top, with at most a subtitle under it.
  const middle = titleShape?.frame ? titleShape.frame.y + titleShape.frame.height / 2 : 0;
  const rest = ordered.filter((shape) => shape !== titleShape && shapeText(shape));
  const isCover =
    titleText !== "" &&
    (found?.placeholder
      ? ordered.some((shape) => shape.kind === "text" && shape.placeholder?.type === "ctrTitle") ||
        /^title slide$/i.test(slide.layoutName)
      : middle > deck.height / 3 && rest.length <= 1 && ordered.every((shape) => shape.kind === "text"));
  const subtitleShape = !isCover
    ? undefined
    : found?.placeholder
      ? ordered.find((shape) => shape.kind === "text" && shape.placeholder?.type === "subTitle" && shapeText(shape))
      : rest[0];

  const children: ElementNode[] = [];
  if (titleText) {
    children.push(
      isCover
        ? el("Title", [["subtitle", subtitleShape ? shapeText(subtitleShape) : undefined]], titleText)
        : el("Heading", [], titleText),
    );
  }
  const body: ElementNode[] = [];
  const media: Array<{ node: ElementNode; shape: Shape }> = [];
  const footers: ElementNode[] = [];
  // Figures drawn over a chart (the values it prints on its bars or slices) belong to the chart.
  const charts = ordered.filter((shape) => shape.kind === "chart" && shape.frame).map((shape) => shape.frame!);
  const onChart = (shape: Shape) =>
    shape.kind === "text" &&
    shape.frame !== null &&
    STAT_VALUE.test(shapeText(shape)) &&
    charts.some(
      (chart) =>
        shape.frame!.x >= chart.x &&
        shape.frame!.y >= chart.y &&
        shape.frame!.x + shape.frame!.width <= chart.x + chart.width &&
        shape.frame!.y + shape.frame!.height <= chart.y + chart.height,
    );
  const used = new Set<Shape>();
  let background: string | undefined;
  for (const [index, shape] of ordered.entries()) {
    if (shape === titleShape || shape === subtitleShape || used.has(shape) || onChart(shape)) continue;
    // A figure in a box of its own over its caption in the next (how a Stat is exported) is one Stat.
    // The next shapes that hold text (an exported slide draws its rules and cards as empty shapes between).
    const following = ordered.slice(index + 1).filter((candidate) => candidate.kind !== "text" || shapeText(candidate));
    const next = following[0];
    const short = (candidate: Shape | undefined) =>
      candidate?.kind === "text" &&
      candidate.paragraphs.filter((p) => plain(p)).length === 1 &&
      shapeText(candidate).length <= 80 &&
      !candidate.placeholder;
    // Its caption is words, not another figure (a row of numbered badges is no Stat).
    if (
      shape.kind === "text" &&
      short(shape) &&
      STAT_VALUE.test(shapeText(shape)) &&
      short(next) &&
      !STAT_VALUE.test(shapeText(next!)) &&
      under(shape, next!)
    ) {
      used.add(next!);
      body.push(
        el("Stat", [
          ["value", shapeText(shape)],
          ["label", shapeText(next!)],
        ]),
      );
      continue;
    }
    if (shape.kind === "text" && isCode(shape)) {
      body.push(el("Code", [["code", codeOf(shape)]]));
      continue;
    }
    if (shape.kind === "text" && !shape.placeholder) {
      const elements = textElements(shape.paragraphs);
      // A quotation followed by short lines without a full stop: who said it and their role.
      const quote = elements.length === 1 && elements[0]!.tag === "Quote" ? elements[0]! : undefined;
      if (quote && !quote.props.some(([name, value]) => name === "by" && value)) {
        const who = following
          .slice(0, 2)
          .filter((candidate) => short(candidate) && !/[.!?]$/.test(shapeText(candidate)));
        if (who[0] && who[0] === following[0]) {
          const by = shapeText(who[0]);
          const role = who[1] && who[1] === following[1] ? shapeText(who[1]) : undefined;
          used.add(who[0]);
          if (role) used.add(who[1]!);
          body.push(
            el(
              "Quote",
              [
                ["by", by],
                ["role", role],
              ],
              ...quote.children,
            ),
          );
          continue;
        }
      }
      body.push(...elements);
      continue;
    }
    if (shape.kind === "text" && shape.placeholder && FOOTER_PLACEHOLDERS.has(shape.placeholder.type)) {
      const text = shapeText(shape);
      if (text)
        footers.push(
          el(
            "Text",
            [
              ["size", "sm"],
              ["tone", "muted"],
            ],
            text,
          ),
        );
    } else if (shape.kind === "text") body.push(...textElements(shape.paragraphs));
    else if (shape.kind === "table") media.push({ node: tableElement(shape, warn), shape });
    else if (shape.kind === "chart") media.push({ node: chartElement(shape.chart, warn), shape });
    else if (shape.kind === "picture") {
      const own = ownPicture(shape.alt);
      if (own === "decoration") continue;
      if (own === "background") {
        background ??= pictures.get(pictureKey(shape.media, shape.crop));
        continue;
      }
      if (own) {
        body.push(own);
        continue;
      }
      const url = pictures.get(pictureKey(shape.media, shape.crop));
      if (!url) continue;
      if (!shape.alt) warn(`a picture without alt text ("${shape.name}")`);
      media.push({
        node: el("Image", [
          ["src", url],
          ["alt", shape.alt],
          // The whole picture, as the slide showed it (already cut by its crop), never cropped again.
          ["fit", "contain"],
        ]),
        shape,
      });
    }
  }
  // One picture, chart or table beside text (its middle in the other half of the slide) stays beside it.
  const textShapes = ordered.filter(
    (shape) => shape.kind === "text" && shape !== titleShape && shape !== subtitleShape,
  );
  const mid = (shape: Shape) => (shape.frame ? shape.frame.x + shape.frame.width / 2 : deck.width / 2);
  const single = media.length === 1 ? media[0]! : undefined;
  const beside =
    single &&
    body.length > 0 &&
    textShapes.length > 0 &&
    textShapes.every((shape) => mid(shape) < deck.width / 2 !== mid(single.shape) < deck.width / 2);
  if (beside) {
    const text = body.length === 1 ? body[0]! : el("Stack", [], ...body);
    const mediaFirst = mid(single.shape) < mid(textShapes[0]!);
    children.push(el("Columns", [], ...(mediaFirst ? [single.node, text] : [text, single.node])));
  } else {
    children.push(...body, ...media.map((entry) => entry.node));
  }
  children.push(...footers);

  let image = background;
  if (slide.background?.kind === "picture") {
    image = pictures.get(pictureKey(slide.background.media, undefined, slide.background.tile));
  }
  if (children.length === 0 && !image) warn("a slide with nothing the import could read; kept empty");
  const notes = slide.notes;
  return {
    label: (ownName(slide) || titleText || `Slide ${slide.number}`).slice(0, 80),
    notes,
    ...(isCover && !image ? { layout: "center" as const } : {}),
    ...(image ? { image } : {}),
    children,
  };
}

// A caption under its figure: lower on the slide, and overlapping it across (not the next column's text).
function under(figure: Shape, caption: Shape): boolean {
  const a = figure.frame;
  const b = caption.frame;
  if (!a || !b) return true;
  return b.y >= a.y + a.height / 2 && Math.min(a.x + a.width, b.x + b.width) > Math.max(a.x, b.x);
}

// Code: a text box set wholly in a monospaced face (how a Deckhand export writes a <Code> block, and how
// people paste code into slides), its lines kept as they are, leading spaces and all.
const MONOSPACED = new Set(
  [
    ...shippedFonts.filter((font) => font.category === "mono").map((font) => font.family),
    ...["Consolas", "Courier New", "Courier", "Menlo", "Monaco", "Lucida Console", "Source Code Pro", "Cascadia Code"],
  ].map((family) => family.toLowerCase()),
);

function isCode(shape: Extract<Shape, { kind: "text" }>): boolean {
  const runs = shape.paragraphs.flatMap((p) => p.runs).filter((run) => run.text.trim());
  return (
    runs.length > 0 &&
    shape.paragraphs.every((p) => p.bullet.kind === "none") &&
    runs.every((run) => run.font !== undefined && MONOSPACED.has(run.font.toLowerCase()))
  );
}

function codeOf(shape: Extract<Shape, { kind: "text" }>): string {
  const lines = shape.paragraphs.map((p) =>
    p.runs
      .map((run) => run.text)
      .join("")
      .replace(/\s+$/, ""),
  );
  while (lines.length > 0 && lines.at(-1) === "") lines.pop();
  return lines.join("\n");
}

// What a Deckhand export says in a picture's alt text (components/player/export/extract-raster.ts): a
// display formula ("Formula: <TeX>") and an icon ("Icon: <name>") come back as themselves, the slide's
// background image as its image, and drawn effects ("Decoration", the scrim) are the house style's, left out.
// Each says it per picture, so it holds for the pictures a colleague kept and never for ones they added.
export function ownPicture(alt: string): ElementNode | "decoration" | "background" | null {
  const formula = /^Formula: ([\s\S]+)$/.exec(alt);
  if (formula)
    return el("Formula", [
      ["display", true],
      ["tex", formula[1]!],
    ]);
  const icon = /^Icon: ([a-z-]+)$/.exec(alt)?.[1];
  if (icon && (iconNames as readonly string[]).includes(icon)) return el("Icon", [["name", icon]]);
  if (alt === "Background image" || alt.startsWith("Background image: ")) return "background";
  if (alt === "Decoration" || alt === "Scrim over the background image") return "decoration";
  return null;
}

// The slide's own name (a Deckhand export writes its label there), unless it is only a number: pptxgenjs
// names every slide "Slide N", and PowerPoint writes none.
function ownName(slide: PptxSlide): string {
  const name = slide.name?.trim() ?? "";
  return /^slide \d+$/i.test(name) ? "" : name;
}

// The title placeholder; without one (a deck exported by Deckhand or drawn by hand), the single-line text
// in the largest type of the top third (figures aside), or, on a slide with no text up there, the
// single-line text in type larger than all the rest (a cover's title in the middle).
function findTitle(shapes: Shape[], deck: PptxDeck): { shape: Shape; placeholder: boolean } | undefined {
  const placeholder = shapes.find(
    (shape) =>
      shape.kind === "text" && shape.placeholder && TITLE_PLACEHOLDERS.has(shape.placeholder.type) && shapeText(shape),
  );
  if (placeholder) return { shape: placeholder, placeholder: true };
  const texts = shapes.filter(
    (shape) => shape.kind === "text" && shapeText(shape) && !STAT_VALUE.test(shapeText(shape)),
  );
  // A title is a line, not a paragraph that happens to be set large.
  const oneLine = (shape: Shape) =>
    shape.kind === "text" && shape.paragraphs.filter((p) => plain(p)).length === 1 && shapeText(shape).length <= 100;
  const largest = (pool: Shape[]) => {
    const biggest = [...pool].sort((a, b) => largestSize(b) - largestSize(a))[0];
    if (!biggest || !oneLine(biggest) || largestSize(biggest) === 0) return undefined;
    return pool.every((shape) => shape === biggest || largestSize(shape) < largestSize(biggest)) ? biggest : undefined;
  };
  const top = texts.filter((shape) => (shape.frame?.y ?? deck.height) < deck.height / 3);
  const found = top.length > 0 ? largest(top) : largest(texts);
  return found ? { shape: found, placeholder: false } : undefined;
}

// Paragraphs as the vocabulary's text: runs of bulleted paragraphs become one Bullets each (numbered when
// every point is), a quotation becomes a Quote, a figure over its caption a Stat, anything else a Text.
function textElements(paragraphs: Paragraph[]): ElementNode[] {
  const filled = paragraphs.filter((p) => plain(p));
  if (filled.length === 0) return [];
  const quote = asQuote(filled);
  if (quote) return [quote];
  if (
    filled.length === 2 &&
    filled[0]!.bullet.kind === "none" &&
    STAT_VALUE.test(plain(filled[0]!)) &&
    plain(filled[1]!).length <= 80
  ) {
    return [
      el("Stat", [
        ["value", plain(filled[0]!)],
        ["label", plain(filled[1]!)],
      ]),
    ];
  }
  const out: ElementNode[] = [];
  let list: Paragraph[] = [];
  const flush = () => {
    if (list.length === 0) return;
    const numbered = list.every((p) => p.bullet.kind === "number");
    const chars = new Set(list.map((p) => (p.bullet.kind === "char" ? p.bullet.char : "")));
    const only = chars.size === 1 ? [...chars][0] : undefined;
    const formatted = list.some((p) =>
      p.runs.some((run) => run.bold || run.italic || run.href || run.text.includes("\n")),
    );
    const marker = numbered ? "number" : only === "✓" ? "check" : only === "→" ? "arrow" : undefined;
    if (formatted) {
      // Points with inline markup are <Text> children; a sub-list is a <Bullets> child after its point.
      const sub = (items: Nested<ElementNode>): ElementNode[] =>
        items.map((item) => (Array.isArray(item) ? el("Bullets", [["marker", marker]], ...sub(item)) : item));
      out.push(el("Bullets", [["marker", marker]], ...sub(nest(list, (p) => inlineText(p)))));
    } else {
      out.push(
        el("Bullets", [
          ["items", nest(list, plain)],
          ["marker", marker],
        ]),
      );
    }
    list = [];
  };
  for (const paragraph of filled) {
    if (paragraph.bullet.kind !== "none") {
      // A numbered list after a bulleted one (or the other way round) is a list of its own.
      if (list.length > 0 && list[0]!.bullet.kind !== paragraph.bullet.kind && paragraph.level === 0) flush();
      list.push(paragraph);
      continue;
    }
    flush();
    out.push(inlineText(paragraph));
  }
  flush();
  return out;
}

type Nested<T> = Array<T | Nested<T>>;

// Points at their list levels as the vocabulary's nesting: the points of a deeper level, an array after the
// point they belong to (`items={["Plan", ["Measure", "Cut"], "Ship"]}`). The shallowest level is the top.
function nest<T>(paragraphs: Paragraph[], item: (paragraph: Paragraph) => T): Nested<T> {
  const top = Math.min(...paragraphs.map((p) => p.level));
  const root: Nested<T> = [];
  const stack: Array<Nested<T>> = [root];
  for (const paragraph of paragraphs) {
    const depth = Math.min(paragraph.level - top, MAX_DEPTH);
    while (stack.length - 1 > depth) stack.pop();
    while (stack.length - 1 < depth) {
      const sub: Nested<T> = [];
      stack.at(-1)!.push(sub);
      stack.push(sub);
    }
    stack.at(-1)!.push(item(paragraph));
  }
  return root;
}

// A paragraph as a <Text> whose children keep bold, italic and links as <strong>, <em> and <Link>.
function inlineText(paragraph: Paragraph): ElementNode {
  const children: ChildNode[] = [];
  const runs = mergeRuns(paragraph.runs);
  runs.forEach((run, index) => {
    let text = index === 0 ? run.text.trimStart() : run.text;
    if (index === runs.length - 1) text = text.trimEnd();
    if (!text) return;
    const parts = text.split("\n");
    const nodes: ChildNode[] = [];
    parts.forEach((part, at) => {
      if (at > 0) nodes.push(el("br", []));
      if (part) nodes.push(part);
    });
    let wrapped: ChildNode[] = nodes;
    if (run.italic) wrapped = [{ ...el("em", [], ...wrapped), inline: true }];
    if (run.bold) wrapped = [{ ...el("strong", [], ...wrapped), inline: true }];
    if (run.href) wrapped = [{ ...el("Link", [["href", run.href]], ...wrapped), inline: true }];
    children.push(...wrapped);
  });
  return {
    ...el(
      "Text",
      [["align", paragraph.align === "center" || paragraph.align === "right" ? paragraph.align : undefined]],
      ...children,
    ),
    inline: true,
  };
}

// Neighbouring runs of the same bold and italic read as one (PowerPoint splits words at spell-check marks).
function mergeRuns(runs: Run[]): Run[] {
  const out: Run[] = [];
  for (const run of runs) {
    const last = out.at(-1);
    if (last && !!last.bold === !!run.bold && !!last.italic === !!run.italic && last.href === run.href) {
      out[out.length - 1] = { ...last, text: last.text + run.text };
    } else out.push({ ...run });
  }
  return out;
}

function asQuote(paragraphs: Paragraph[]): ElementNode | null {
  const first = plain(paragraphs[0]!);
  const open = /^["“«„]/.test(first);
  if (!open || paragraphs.length > 3 || paragraphs.some((p) => p.bullet.kind !== "none")) return null;
  const last = paragraphs.length > 1 ? plain(paragraphs.at(-1)!) : "";
  const by = /^[—–-]\s*(.+)$/.exec(last)?.[1];
  const quoted = paragraphs
    .slice(0, by ? -1 : undefined)
    .map(plain)
    .join(" ");
  if (!/["”»“]$/.test(quoted)) return null;
  const words = quoted.replace(/^["“«„]\s*/, "").replace(/\s*["”»“]$/, "");
  const [name, role] = (by ?? "").split(/,\s*/, 2);
  return el(
    "Quote",
    [
      ["by", name || undefined],
      ["role", role || undefined],
    ],
    words,
  );
}
