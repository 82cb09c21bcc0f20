// What the reader (read-pptx.ts) takes out of a PowerPoint package: plain data that crosses a worker
// thread's boundary as is. Positions and sizes are EMU in slide coordinates (groups already flattened into
// them); colours are "#RRGGBB" ("#RRGGBBAA" when translucent) after the theme and the master's colour map are applied.

export type Frame = { x: number; y: number; width: number; height: number; rotation?: number };

export type Run = {
  text: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  color?: string;
  /** Points. */
  size?: number;
  font?: string;
  href?: string;
};

export type Bullet =
  { kind: "none" } | { kind: "char"; char: string } | { kind: "number"; scheme: string; startAt: number };

export type Paragraph = {
  /** 0 for the top level, up to 8. */
  level: number;
  bullet: Bullet;
  align?: "left" | "center" | "right" | "justify";
  runs: Run[];
  /** What runs that say nothing take from the list styles of the shape, its layout and master. */
  inherited?: Pick<Run, "size" | "color" | "font" | "bold" | "italic">;
};

export type Placeholder = { type: string; idx?: string };

export type TableCell = {
  paragraphs: Paragraph[];
  rowSpan: number;
  colSpan: number;
  /** Covered by a merged cell to its left or above: its content belongs to that cell. */
  merged: boolean;
  fill?: string;
};

export type ChartType = "bar" | "column" | "line" | "pie" | "doughnut" | "area" | "scatter";

export type ChartData = {
  type: ChartType;
  title?: string;
  stacked: boolean;
  categories: string[];
  series: Array<{ name: string; values: Array<number | null>; x?: Array<number | null> }>;
};

/** A gradient fill; radial (a DrawingML path gradient) grows from the centre, its angle unused. */
export type Gradient = { angle: number; radial?: boolean; stops: Array<{ position: number; color: string }> };

/**
 * A picture repeated over an area (a:tile) rather than stretched: the scale of each copy (1 is the picture's
 * own size at its resolution) and the area's size in EMU.
 */
export type Tile = { scaleX: number; scaleY: number; width: number; height: number };

export type Background =
  | { kind: "solid"; color: string }
  | ({ kind: "gradient" } & Gradient)
  | { kind: "picture"; media: string; tile?: Tile };

/** A shape's outline (a:ln): its colour and width in EMU. */
export type Line = { color: string; width: number };

type ShapeBase = { name: string; frame: Frame | null };

export type Shape =
  | (ShapeBase & {
      kind: "text";
      placeholder?: Placeholder;
      paragraphs: Paragraph[];
      fill?: string;
      /** A gradient fill instead of `fill`. */
      gradient?: Gradient;
      /** A picture fill (a part name, a key of PptxDeck.media) instead of `fill`, stretched over the shape. */
      pictureFill?: string;
      /** How the picture fill repeats over the shape, when it is tiled. */
      pictureTile?: Tile;
      line?: Line;
      /** A drawn shape (rectangle, ellipse…; "custom" for a freeform) rather than a plain text box. */
      geometry?: string;
      /** Where the text sits in the shape's height (bodyPr anchor, own or inherited); top when absent. */
      anchor?: "top" | "middle" | "bottom";
      /** PowerPoint's shrink-on-overflow factor (normAutofit fontScale), below 1 when it shrank the text. */
      fontScale?: number;
      /** A SmartArt diagram's shapes as PowerPoint last drew them (its drawing part), in slide coordinates. */
      drawing?: Shape[];
    })
  | (ShapeBase & {
      kind: "picture";
      placeholder?: Placeholder;
      /** A part name, a key of PptxDeck.media. */
      media: string;
      alt: string;
      /** Per cent of the picture cut from each side, as PowerPoint shows it. */
      crop?: { left: number; top: number; right: number; bottom: number };
      /** A picture the reader drew of a freeform shape (a decoration, with no alt text to ask for). */
      drawn?: boolean;
    })
  | (ShapeBase & { kind: "table"; rows: TableCell[][]; headerRow: boolean; columnWidths: number[] })
  | (ShapeBase & { kind: "chart"; chart: ChartData })
  | (ShapeBase & { kind: "group"; children: Shape[] });

export type PptxSlide = {
  /** 1-based, in the presentation's order. */
  number: number;
  hidden: boolean;
  /** The slide's own name (<p:cSld name>): a Deckhand export writes the slide's label there. */
  name?: string;
  layoutName: string;
  background?: Background;
  shapes: Shape[];
  /** What the master and the layout draw behind the slide's own shapes (not placeholders), when shown. */
  masterShapes?: Shape[];
  notes: string;
};

export type ImportWarning = { slide: number; message: string };

export type PptxDeck = {
  title: string;
  /** EMU. */
  width: number;
  height: number;
  slides: PptxSlide[];
  media: Record<string, { contentType: string; bytes: Uint8Array }>;
  theme: { colors: Record<string, string>; majorFont?: string; minorFont?: string };
  warnings: ImportWarning[];
};
