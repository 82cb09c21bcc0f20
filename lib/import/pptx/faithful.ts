import { type ChildNode, type ElementNode, el, printModule, type SlidePlan } from "@/lib/ai/offline/print";
import type { FrameShape } from "@/lib/contract/prop-values";
import { themeTokens as defaultTokens } from "@/lib/source/theme-tokens";
import { fontStack } from "@/lib/contract/fonts";
import { shippedFamilyFor } from "./font-map";
import { opaque } from "./colors";
import type { Frame as Box, Gradient, ImportWarning, Paragraph, PptxDeck, PptxSlide, Run, Shape } from "./model";
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

// `faithful` mode (the default): a read presentation (model.ts) printed so that every slide looks like the
// original. Each shape becomes a <Frame> at its place and size on the 1920x1080 canvas (a 4:3 slide is
// scaled to the canvas's height and centred), holding ordinary vocabulary: text as <Text> and <Bullets>
// (list levels, numbering that continues as PowerPoint counts it, bold, italic, underline, colours, sizes
// and links inline), pictures as <Image> (already cropped as shown), tables as <Table>, charts as <Chart>,
// a filled shape as a filled Frame. Type sizes are the original's points scaled to the canvas; a solid
// background is the slide's colour, a gradient or a picture a Frame under everything. The theme's colours
// and fonts become the deck's tokens, each font as the closest shipped family (font-map.ts), reported.

export type FaithfulDeck = {
  title: string;
  source: string;
  tokensCss: string;
  slides: number;
  warnings: ImportWarning[];
};

const CANVAS = { width: 1920, height: 1080 };
const EMU_PER_PT = 12_700;
// What PowerPoint draws text in when nothing in the package says: 18 pt, insets of 0.1 in and 0.05 in.
const DEFAULT_PT = 18;
const INSET_X = 91_440;
const INSET_Y = 45_720;
const TITLE_PLACEHOLDERS = new Set(["title", "ctrTitle"]);
const CHECK_BULLETS = /[✓✔☑]/u;
const ARROW_BULLETS = /[→➔➜➙➛➝➞➟➠➡➢➣➤►▶▸]/u;

type Placement = { scale: number; offsetX: number; offsetY: number };

type Context = {
  placement: Placement;
  pictures: PictureUrls;
  /** The family the deck's body token names: a frame in it says nothing about its font. */
  bodyFamily: string;
  /** The theme's text colour (--color-text): a frame in it says nothing about its colour. */
  textColor?: string;
  fonts: Map<string, string>;
  warn: (message: string) => void;
  warnDeck: (message: string) => void;
};

export function faithful(deck: PptxDeck, pictures: PictureUrls, title: string | undefined): FaithfulDeck {
  const warnings: ImportWarning[] = [...deck.warnings];
  const fonts = new Map<string, string>();
  const tokens = themeTokens(deck, fonts);
  const placement = placementOf(deck);
  if (Math.abs(deck.width / deck.height - CANVAS.width / CANVAS.height) > 0.01) {
    warnings.push({
      slide: 0,
      message: `the slides are ${(deck.width / deck.height).toFixed(2)}:1, not 16:9; they are scaled to the canvas's height and centred`,
    });
  }
  const plans: SlidePlan[] = [];
  for (const slide of deck.slides) {
    if (slide.hidden) {
      warnings.push({ slide: slide.number, message: "a hidden slide; skipped" });
      continue;
    }
    const warn = (message: string) => warnings.push({ slide: slide.number, message });
    const context: Context = {
      placement,
      pictures,
      bodyFamily: tokens.bodyFamily,
      textColor: deck.theme.colors.dk1,
      fonts,
      warn,
      warnDeck: (message: string) => warnings.push({ slide: 0, message }),
    };
    plans.push(planSlide(slide, context));
  }
  for (const [original, shipped] of fonts) {
    warnings.push({ slide: 0, message: `the font "${original}" is not shipped; drawn in ${shipped}, the closest` });
  }
  const deckTitle = titleAndCover(title, deck, plans, warnings);
  return {
    title: deckTitle,
    source: printModule(deckTitle, plans, "slides"),
    tokensCss: tokens.css,
    slides: plans.length,
    warnings: dedupe(warnings),
  };
}

function placementOf(deck: PptxDeck): Placement {
  const scale = Math.min(CANVAS.width / deck.width, CANVAS.height / deck.height);
  return {
    scale,
    offsetX: (CANVAS.width - deck.width * scale) / 2,
    offsetY: (CANVAS.height - deck.height * scale) / 2,
  };
}

/** The theme's colours and fonts as the deck's tokens (tokensCss). */
function themeTokens(deck: PptxDeck, fonts: Map<string, string>): { css: string; bodyFamily: string } {
  const colors = deck.theme.colors;
  const declarations: Array<[string, string | undefined]> = [
    ["--color-bg", colors.lt1],
    ["--color-text", colors.dk1],
    ["--color-surface", colors.lt2],
    ["--color-primary", colors.accent1],
    ["--color-secondary", colors.accent2],
    ["--color-accent", colors.accent3],
  ];
  const heading = deck.theme.majorFont ? mapFont(deck.theme.majorFont, fonts) : undefined;
  const body = deck.theme.minorFont ? mapFont(deck.theme.minorFont, fonts) : undefined;
  if (heading) declarations.push(["--font-heading", fontStack(heading)]);
  if (body) declarations.push(["--font-body", fontStack(body)]);
  const own = new Map(
    declarations.filter(
      (entry): entry is [string, string] => entry[1] !== undefined && /^#[0-9A-Fa-f]{6}$|^"/.test(entry[1]),
    ),
  );
  // Every token, the theme's where it has one and the default's elsewhere (tokensCss replaces them all).
  const lines = defaultTokens.map((token) => `  ${token.name}: ${own.get(token.name) ?? token.default};`);
  return { css: [":root {", ...lines, "}"].join("\n"), bodyFamily: body ?? "Inter" };
}

function mapFont(family: string, fonts: Map<string, string>): string {
  const found = shippedFamilyFor(family);
  if (!found.exact) fonts.set(family, found.family);
  return found.family;
}

// ---- slides ----------------------------------------------------------------------------------------------

function planSlide(slide: PptxSlide, context: Context): SlidePlan {
  const shapes = flatten(slide.shapes);
  const children: ElementNode[] = [];
  let backgroundColor: string | undefined;
  const background = slide.background;
  if (background?.kind === "solid") backgroundColor = opaque(background.color);
  if (background?.kind === "gradient") {
    children.push(el("Frame", [...fullCanvas(), ["gradient", gradientProp(background)]]));
  }
  if (background?.kind === "picture") {
    const url = context.pictures.get(pictureKey(background.media, undefined, background.tile));
    if (url) {
      children.push(
        el(
          "Frame",
          fullCanvas(),
          el("Image", [
            ["src", url],
            ["alt", ""],
          ]),
        ),
      );
    }
  }
  // The master's and layout's decorations first, behind the slide's own shapes; what they approximate is
  // said once for the deck, not on every slide.
  const deckWide: Context = { ...context, warn: context.warnDeck };
  for (const shape of flatten(slide.masterShapes ?? [])) children.push(...shapeFrames(shape, deckWide));
  for (const shape of shapes) children.push(...shapeFrames(shape, context));
  if (children.length === 0 && !backgroundColor) context.warn("a slide with nothing the import could read; kept empty");
  const titleShape = shapes.find(
    (shape) => shape.kind === "text" && TITLE_PLACEHOLDERS.has(shape.placeholder?.type ?? "") && shapeText(shape),
  );
  const label = titleShape ? shapeText(titleShape) : `Slide ${slide.number}`;
  return {
    label: label.slice(0, 80),
    notes: slide.notes,
    ...(backgroundColor ? { colors: { background: backgroundColor } } : {}),
    children,
  };
}

/** A DrawingML gradient as the Frame's: DrawingML's angles run clockwise from pointing right, CSS's from up. */
function gradientProp(gradient: Gradient) {
  return {
    ...(gradient.radial ? { radial: true } : { angle: Math.round((gradient.angle + 90) % 360) }),
    stops: [...gradient.stops]
      .sort((a, b) => a.position - b.position)
      .map((stop) => ({ color: stop.color, at: Math.round(stop.position) })),
  };
}

const fullCanvas = (): Array<[string, number]> => [
  ["x", 0],
  ["y", 0],
  ["w", CANVAS.width],
  ["h", CANVAS.height],
];

/** A box in EMU as the Frame's place on the canvas, in whole px. */
function placed(box: Box, placement: Placement, inset = { x: 0, y: 0 }): Array<[string, number | undefined]> {
  const x = box.x + inset.x;
  const y = box.y + inset.y;
  const width = Math.max(0, box.width - 2 * inset.x);
  const height = Math.max(0, box.height - 2 * inset.y);
  return [
    ["x", Math.round(placement.offsetX + x * placement.scale)],
    ["y", Math.round(placement.offsetY + y * placement.scale)],
    ["w", Math.round(width * placement.scale)],
    ["h", Math.round(height * placement.scale)],
    ["rotate", box.rotation ? Math.round(box.rotation * 10) / 10 : undefined],
  ];
}

function shapeFrames(shape: Shape, context: Context): ElementNode[] {
  if (!shape.frame) {
    if (shape.kind === "text" ? shapeText(shape) : shape.kind !== "group") {
      context.warn(`"${shape.name}" has no position of its own; left out`);
    }
    return [];
  }
  const box = shape.frame;
  const at = placed(box, context.placement);
  switch (shape.kind) {
    case "text":
      // A SmartArt diagram: the shapes PowerPoint drew for it.
      if (shape.drawing) return flatten(shape.drawing).flatMap((drawn) => shapeFrames(drawn, context));
      return textFrames(shape, box, context);
    case "picture": {
      const url = context.pictures.get(pictureKey(shape.media, shape.crop));
      if (!url) return [];
      if (!shape.alt && !shape.drawn) context.warn(`a picture without alt text ("${shape.name}")`);
      return [
        el(
          "Frame",
          at,
          el("Image", [
            ["src", url],
            ["alt", shape.alt],
          ]),
        ),
      ];
    }
    case "table": {
      const size = tableSize(shape);
      return [
        el("Frame", [...at, ["size", size ? pxOf(size, context) : undefined]], tableElement(shape, context.warn)),
      ];
    }
    case "chart":
      return [el("Frame", at, chartElement(shape.chart, context.warn))];
    case "group":
      return [];
  }
}

function tableSize(shape: Extract<Shape, { kind: "table" }>): number | undefined {
  for (const row of shape.rows) {
    for (const cell of row) {
      for (const paragraph of cell.paragraphs) {
        const size = paragraph.runs.find((run) => run.size)?.size ?? paragraph.inherited?.size;
        if (size) return size;
      }
    }
  }
  return undefined;
}

const pxOf = (points: number, context: Context) => Math.round(points * EMU_PER_PT * context.placement.scale * 10) / 10;

// ---- text ------------------------------------------------------------------------------------------------

/** A run as drawn: its own formatting, else what its paragraph inherits. */
type Styled = {
  text: string;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  color?: string;
  size: number;
  font?: string;
  href?: string;
};

function styledRuns(paragraph: Paragraph, scale: number): Styled[] {
  const inherited = paragraph.inherited ?? {};
  return paragraph.runs.map((run: Run) => ({
    text: run.text,
    bold: !!(run.bold ?? inherited.bold),
    italic: !!(run.italic ?? inherited.italic),
    underline: !!run.underline,
    color: run.color ?? inherited.color,
    size: (run.size ?? inherited.size ?? DEFAULT_PT) * scale,
    font: run.font ?? inherited.font,
    href: run.href,
  }));
}

/** The value most of the text is in (by characters), for what a frame says once for all its runs. */
function mostly<T>(runs: Styled[], pick: (run: Styled) => T): T | undefined {
  const counts = new Map<T, number>();
  for (const run of runs) counts.set(pick(run), (counts.get(pick(run)) ?? 0) + run.text.trim().length + 0.01);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

function geometryShape(geometry: string | undefined): FrameShape {
  if (geometry === "ellipse" || geometry === "circle") return "ellipse";
  if (geometry === "triangle") return "triangle";
  if (geometry === "rtTriangle") return "right-triangle";
  if (
    geometry &&
    /^(roundRect|round\dSameRect|round\dDiagRect|snipRoundRect|flowChartAlternateProcess)$/.test(geometry)
  )
    return "rounded";
  return "rect";
}

function textFrames(shape: Extract<Shape, { kind: "text" }>, box: Box, context: Context): ElementNode[] {
  const out: ElementNode[] = [];
  const at = placed(box, context.placement);
  const picture = shape.pictureFill
    ? context.pictures.get(pictureKey(shape.pictureFill, undefined, shape.pictureTile))
    : undefined;
  const painted = shape.fill || shape.gradient || picture || shape.line;
  if (painted && shape.geometry !== "custom") {
    const outline = geometryShape(shape.geometry);
    if (shape.geometry && outline === "rect") {
      context.warn(`the shape "${shape.name}" (${shape.geometry}) is drawn as a box`);
    }
    out.push(
      el(
        "Frame",
        [
          ...at,
          ["fill", picture || shape.gradient ? undefined : shape.fill],
          ["gradient", !picture && shape.gradient ? gradientProp(shape.gradient) : undefined],
          [
            "outline",
            shape.line
              ? { color: shape.line.color, width: Math.max(1, pxOf(shape.line.width / EMU_PER_PT, context)) }
              : undefined,
          ],
          ["shape", nonDefault(outline, "rect")],
        ],
        ...(picture
          ? [
              el("Image", [
                ["src", picture],
                ["alt", ""],
              ]),
            ]
          : []),
      ),
    );
  } else if (shape.geometry && !shapeText(shape)) {
    return out;
  }
  if (!shape.paragraphs.some((paragraph) => plain(paragraph))) return out;
  const scale = shape.fontScale ?? 1;
  const all = shape.paragraphs.flatMap((paragraph) => styledRuns(paragraph, scale));
  // The largest type: the PPTX export spaces a paragraph's lines by its own size, so a run larger than its
  // paragraph would overlap the line above; smaller runs are spans in em of it.
  const size = Math.max(0, ...all.filter((run) => run.text.trim()).map((run) => run.size)) || DEFAULT_PT;
  const color = mostly(all, (run) => run.color);
  const family = mostly(all, (run) => run.font);
  const font = family ? mapFont(family, context.fonts) : undefined;
  const frame = { size, color, font: font ?? context.bodyFamily };
  out.push(
    el(
      "Frame",
      [
        ...placed(box, context.placement, { x: INSET_X, y: INSET_Y }),
        ["size", pxOf(size, context)],
        ["color", color && color !== context.textColor ? color : undefined],
        ["font", font && font !== context.bodyFamily ? font : undefined],
        ["valign", shape.anchor && shape.anchor !== "top" ? shape.anchor : undefined],
      ],
      ...paragraphNodes(shape.paragraphs, scale, frame, context),
    ),
  );
  return out;
}

const nonDefault = <T>(value: T, fallback: T): T | undefined => (value === fallback ? undefined : value);

type FrameText = { size: number; color?: string; font: string };

// Paragraphs in order: plain ones as <Text>, bulleted ones as <Bullets> of one kind each, a deeper point's
// list nested after the point it belongs to (a <Bullets> among the children), numbered ones continuing their
// count across deeper points the way PowerPoint numbers them; an empty paragraph keeps its line.
function paragraphNodes(paragraphs: Paragraph[], scale: number, frame: FrameText, context: Context): ElementNode[] {
  type List = {
    level: number;
    kind: "char" | "number";
    marker: string | undefined;
    start: number;
    items: ElementNode[];
  };
  const out: ElementNode[] = [];
  const counters = new Map<number, number>();
  // The open lists, outermost first; a list closed goes into its parent's points, or out at the top.
  const open: List[] = [];
  const close = () => {
    const list = open.pop()!;
    const node = el(
      "Bullets",
      [
        ["marker", list.marker],
        ["start", list.kind === "number" && list.start !== 1 ? list.start : undefined],
      ],
      ...list.items,
    );
    (open.at(-1)?.items ?? out).push(node);
  };
  for (const paragraph of paragraphs) {
    const bullet = paragraph.bullet;
    const text = inlineText(paragraph, scale, frame, context);
    for (const level of [...counters.keys()]) {
      // A point at a shallower level, or anything but a numbered point at this one, starts the count again.
      if (level > paragraph.level || (level === paragraph.level && bullet.kind !== "number")) counters.delete(level);
    }
    if (bullet.kind === "none" || !plain(paragraph)) {
      while (open.length) close();
      out.push(text);
      continue;
    }
    if (paragraph.level > 3) context.warn("list levels below the fourth are drawn at the fourth");
    const level = Math.min(paragraph.level, 3);
    let number = 1;
    if (bullet.kind === "number") {
      number = (counters.get(paragraph.level) ?? bullet.startAt - 1) + 1;
      counters.set(paragraph.level, number);
    }
    const marker =
      bullet.kind === "number"
        ? "number"
        : CHECK_BULLETS.test(bullet.char)
          ? "check"
          : ARROW_BULLETS.test(bullet.char)
            ? "arrow"
            : undefined;
    while (open.length && open.at(-1)!.level > level) close();
    const top = open.at(-1);
    if (top && top.level === level && (top.kind !== bullet.kind || top.marker !== marker)) close();
    if (!open.length || open.at(-1)!.level < level) {
      open.push({ level, kind: bullet.kind, marker, start: number, items: [] });
    }
    open.at(-1)!.items.push(text);
  }
  while (open.length) close();
  return out;
}

// A paragraph as a <Text>: its runs with bold, italic, underline, a colour or size other than the frame's,
// and links kept inline; line breaks as <br />.
function inlineText(paragraph: Paragraph, scale: number, frame: FrameText, context: Context): ElementNode {
  const runs = mergeStyled(styledRuns(paragraph, scale));
  const children: ChildNode[] = [];
  runs.forEach((run, index) => {
    let text = index === 0 ? run.text.trimStart() : run.text;
    if (index === runs.length - 1) text = text.trimEnd();
    if (!text) return;
    let nodes: ChildNode[] = [];
    text.split("\n").forEach((part, at) => {
      if (at > 0) nodes.push(el("br", []));
      if (part) nodes.push(part);
    });
    const wrap = (tag: string, props: Array<[string, unknown]> = []) => {
      nodes = [{ ...el(tag, props as ElementNode["props"], ...nodes), inline: true }];
    };
    const style: Record<string, string> = {};
    if (run.color && run.color !== (frame.color ?? context.textColor)) style.color = run.color;
    const ratio = Math.round((run.size / frame.size) * 100) / 100;
    if (ratio !== 1) style.fontSize = `${ratio}em`;
    const family = run.font ? mapFont(run.font, context.fonts) : context.bodyFamily;
    if (family !== frame.font) style.fontFamily = `"${family}"`;
    if (Object.keys(style).length > 0) wrap("span", [["style", style]]);
    if (run.underline && !run.href) wrap("u");
    if (run.italic) wrap("em");
    if (run.bold) wrap("strong");
    if (run.href) wrap("Link", [["href", run.href]]);
    children.push(...nodes);
  });
  if (children.length === 0) children.push(el("br", []));
  const align = paragraph.align === "center" || paragraph.align === "right" ? paragraph.align : undefined;
  return { ...el("Text", [["align", align]], ...children), inline: true };
}

// Neighbouring runs drawn alike read as one (PowerPoint splits words at spell-check marks).
function mergeStyled(runs: Styled[]): Styled[] {
  const key = (run: Styled) =>
    [run.bold, run.italic, run.underline, run.color, run.size, run.font, run.href]
      .map((value) => String(value))
      .join("|");
  const out: Styled[] = [];
  for (const run of runs) {
    const last = out.at(-1);
    if (last && key(last) === key(run)) out[out.length - 1] = { ...last, text: last.text + run.text };
    else out.push({ ...run });
  }
  return out;
}
