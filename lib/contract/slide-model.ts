// What the PPTX builder needs from each rendered slide: positioned boxes in canvas pixels (1920x1080),
// in paint order. Produced in the browser by components/player/export/extract-slides.ts (in a JavaScript
// world of its own, apart from the deck's scripts), checked in Node by lib/exports/pptx-model.ts against
// these limits and turned into a file by lib/exports/build-pptx.ts.

export const slideModelLimits = {
  slides: 500,
  itemsPerSlide: 5_000,
  /** Items, table cells and runs in the whole deck. */
  parts: 200_000,
  runsPerBlock: 5_000,
  runCharacters: 100_000,
  /** Characters of run text in the whole deck. */
  characters: 2_000_000,
  tableRows: 1_000,
  tableColumns: 100,
  fontCharacters: 200,
  linkCharacters: 2_048,
  labelCharacters: 1_000,
  /** A chart's categories and series (PowerPoint charts with more are unreadable on a slide anyway). */
  chartCategories: 1_000,
  chartSeries: 50,
  affixCharacters: 40,
  notesCharacters: 100_000,
  /** Canvas pixels: the canvas is 1920x1080; boxes may overhang it, not by kilometres. */
  coordinate: 100_000,
  /** 4,000 pt, PowerPoint's largest font size, at 0.5 pt per px. */
  fontSize: 8_000,
  /** ±4,000 pt, PowerPoint's range for letter spacing. */
  letterSpacing: 8_000,
  /** Stops of one gradient fill. */
  gradientStops: 16,
  /** An icon's SVG as the page drew it. */
  svgCharacters: 20_000,
  /** The extracted model as JSON, before it leaves the page. */
  jsonCharacters: 50_000_000,
} as const;

export type Rgba = { hex: string; alpha: number };
export type Rect = { x: number; y: number; w: number; h: number };

export type TextRun = {
  text: string;
  font: string;
  size: number;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  strike: boolean;
  color: Rgba;
  letterSpacing: number;
  href?: string;
  /** A line break follows this run. */
  breakAfter?: boolean;
};

/**
 * A gradient fill (a scrim over a background image): colours with alpha at positions from 0 to 1 along a
 * line at `angle` degrees as CSS measures it (0 points up, 90 right), or outwards from the box's centre.
 */
export type Gradient = {
  kind: "linear" | "radial";
  angle: number;
  stops: Array<{ color: Rgba; at: number }>;
};

type ShapeItem = {
  kind: "shape";
  rect: Rect;
  fill: Rgba | null;
  /** Painted instead of `fill`. */
  gradient?: Gradient;
  border: { width: number; color: Rgba; dash: "solid" | "dash" | "dot" } | null;
  radius: number;
  ellipse: boolean;
  shadow: { x: number; y: number; blur: number; color: Rgba } | null;
};

export type TextItem = {
  kind: "text";
  rect: Rect;
  runs: TextRun[];
  /** Where the lines sit in the box, as drawn (text-align with "start"/"end" resolved by direction). */
  align: "left" | "center" | "right" | "justify";
  /** The block's direction is right to left (Arabic, Hebrew…): its lines are laid out from the right. */
  rtl?: boolean;
  lineHeight: number;
  /** Laid out on a single line in the browser: keep it on one line in PowerPoint too. */
  singleLine: boolean;
  /**
   * A single line's width as the browser measured it with its own font (letter spacing included): the box
   * is never made narrower than this, whatever the box the element had.
   */
  textWidth?: number;
  /** The lines sit in the middle of the box (a digit centred in its badge), not at its top. */
  valign?: "middle";
  /**
   * Preformatted text (code) in a monospace font, whose advances are the same in every program: it wraps
   * where the browser wraps it, in a box of the browser's width. Its wrapped lines start `hangingIndent`
   * further right than a paragraph's first line.
   */
  preformatted?: { hangingIndent: number };
  /** A list: each paragraph (runs up to one with breakAfter) is a point with a native bullet or number. */
  list?: TextList;
};

export type TextList = {
  /** A bullet character in the marker's colour, or automatic numbering ("1", "2"…). */
  marker: { kind: "char"; char: string } | { kind: "number" };
  color: Rgba;
  /** The marker's font and its size as a percentage of the text's (25-400). */
  font: string;
  sizePercent: number;
  /** From the box's edge to where each point's text starts (the marker sits at the edge). */
  indent: number;
  /** Space between two points. */
  gap: number;
  /** Each point's level (0 the list's own, 1 a sub-list's…), when the list has sub-lists. */
  levels?: number[];
  /** With `levels`: how much further in each level's markers sit than the level above's. */
  levelIndent?: number;
};

export type TableCell = {
  runs: TextRun[];
  fill: Rgba | null;
  align: "left" | "center" | "right";
  /** The cell's text is right to left. */
  rtl?: boolean;
  valign: "top" | "middle" | "bottom";
  padding: [number, number, number, number];
  borderBottom: { width: number; color: Rgba } | null;
};

type TableItem = {
  kind: "table";
  rect: Rect;
  columnWidths: number[];
  rowHeights: number[];
  rows: TableCell[][];
};

/** Drawn by the browser and placed as a picture: effects PowerPoint cannot express (SVG, gradients, images). */
export type RasterItem = {
  kind: "raster";
  rect: Rect;
  id: number;
  alone: boolean;
  label: string;
  /**
   * An <img> of one of the organization's stored images (`/assets/<hash>.<ext>`), drawn centred, whole
   * ("contain") or cropped to fill ("cover"): the exporter places the stored file itself, once per file
   * however often it is shown, instead of a picture of it. `width` and `height` are its natural size.
   */
  asset?: { path: string; fit: "cover" | "contain"; width: number; height: number };
  /**
   * A line icon of the vocabulary: the SVG as drawn (its colour resolved), placed as a vector picture with
   * the screenshot as the fallback for programs that cannot draw SVG.
   */
  svg?: string;
};

/** A font as a chart draws a kind of its text. */
export type ChartText = { font: string; size: number; bold: boolean; color: Rgba };

/**
 * A `Chart` rebuilt as a native PowerPoint chart (its data editable in PowerPoint), from the data the
 * component writes on its figure and the colours and type the browser computed for it. `rect` is the
 * figure; `plot` the value axis's inner rectangle, `titleRect` and `legendRect` where the viewer draws the
 * title and the legend (all in canvas pixels).
 */
export type ChartItem = {
  kind: "chart";
  rect: Rect;
  type: "bar" | "line" | "pie";
  stacked: boolean;
  labels: string[];
  series: Array<{ name: string; values: (number | null)[]; color: Rgba }>;
  /** A pie's slice colours, in order. */
  pointColors?: Rgba[];
  /** Several lines: how far (px, down) the viewer moved each line's end label from its last point. */
  labelShifts?: number[];
  /** The highlighted category (bar or point) and its colour. */
  highlight: { index: number; color: Rgba } | null;
  /** Text before and after the digits of value labels and of axis ticks ("$", " $M", "%"). */
  format: { value: [string, string]; axis: [string, string] };
  /** Value labels: on every bar or point, only on the highlighted one (the others do not fit), or none. */
  values: "all" | "highlight" | "none";
  /** The value scale as the viewer draws it (bar and line). */
  axis: { min: number; max: number; step: number } | null;
  plot: Rect | null;
  title: { text: string; rect: Rect; style: ChartText } | null;
  legend: { rect: Rect; style: ChartText } | null;
  tick: ChartText;
  category: ChartText;
  value: ChartText;
  grid: { width: number; color: Rgba } | null;
  baseline: { width: number; color: Rgba } | null;
  /** The slide's colour around points and between stacked segments. */
  ground: Rgba | null;
  /** Px: bar width and line width as drawn. */
  barWidth: number;
  lineWidth: number;
  label: string;
};

/** The path of a stored image as the asset route serves it. */
export const assetPathPattern = /^\/assets\/[0-9a-f]{64}\.(png|jpg|gif)$/;

export type SlideItem = ShapeItem | TextItem | TableItem | RasterItem | ChartItem;

export type SlideModel = {
  background: Rgba | null;
  items: SlideItem[];
  /** The slide's label (`<Slide label>`, "Slide N" without one): the slide's name in the file. */
  label?: string;
};

// What extract-slides.ts defines on the page for the renderer (lib/exports/render-export.ts) to call.
declare global {
  interface Window {
    __deckhandExtract?: () => SlideModel[];
    /** Shows only this raster item's element (null: everything again); false if there is no such item. */
    __deckhandShowRaster?: (id: number | null) => boolean;
  }
}
