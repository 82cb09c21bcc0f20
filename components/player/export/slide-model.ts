// What the PPTX builder needs from each rendered slide: positioned boxes in canvas pixels (1920x1080),
// in paint order. Produced in the browser by extract-slides.ts, consumed in Node by lib/exports/pptx.

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

export type ShapeItem = {
  kind: "shape";
  rect: Rect;
  fill: Rgba | null;
  border: { width: number; color: Rgba; dash: "solid" | "dash" | "dot" } | null;
  radius: number;
  ellipse: boolean;
  shadow: { x: number; y: number; blur: number; color: Rgba } | null;
};

export type TextItem = {
  kind: "text";
  rect: Rect;
  runs: TextRun[];
  align: "left" | "center" | "right" | "justify";
  lineHeight: number;
  /** Laid out on a single line in the browser: keep it on one line in PowerPoint too. */
  singleLine: boolean;
};

export type TableCell = {
  runs: TextRun[];
  fill: Rgba | null;
  align: "left" | "center" | "right";
  valign: "top" | "middle" | "bottom";
  padding: [number, number, number, number];
  borderBottom: { width: number; color: Rgba } | null;
};

export type TableItem = {
  kind: "table";
  rect: Rect;
  columnWidths: number[];
  rowHeights: number[];
  rows: TableCell[][];
};

/** Drawn by the browser and placed as a picture: effects PowerPoint cannot express (SVG, gradients, images). */
export type RasterItem = { kind: "raster"; rect: Rect; id: number; alone: boolean; label: string };

export type SlideItem = ShapeItem | TextItem | TableItem | RasterItem;

export type SlideModel = { background: Rgba | null; items: SlideItem[] };

declare global {
  interface Window {
    __deckhandExtract?: () => SlideModel[];
  }
}
