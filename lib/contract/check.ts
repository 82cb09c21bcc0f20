// What the deck check's page script (components/player/export/check-slides.ts) measures on each slide
// drawn by the export renderer, and hands to the server (lib/render/check-deck.ts), which turns the
// measurements into findings with messages. Only plain data: it crosses from the page as JSON.

import type { Rgba } from "./color";

/** What the check reports, with when: the brief lists them, the API documents them, findings use them. */
export const findingKinds = {
  "render-failed": "error: the deck could not be drawn at all (an error at the module's top level, a loop)",
  "slide-failed": "error: the slide's code threw; the slide shows an error panel",
  overflow: "error: content does not fit even with its type shrunk to the floor, and is cut off or crosses the padding",
  overlap: "error: text drawn over other text",
  "text-at-floor":
    "warning: type shrunk to the smallest size the player allows, or a word broken because it is too wide",
  "low-contrast":
    "error under 3:1 (or under 4.5:1 for text below 24px), warning under 4.5:1: text against the colours or picture behind it",
  "empty-slide": "error: no text and no visual",
  "near-empty-slide": "warning: a content slide with a heading and nothing under it",
  "too-many-words": "warning: more than about 40 words of body text",
  "too-many-bullets": "warning: a list of more than 5 bullets",
  "long-bullet": "warning: a bullet of more than about 10 words",
  "missing-label": "warning: a slide without a label",
  "duplicate-label": "warning: two slides with one label",
  "image-missing-alt": "warning: an image without alt text",
  "image-failed": "error: an image that cannot be shown (a remote address)",
  "diagram-failed": "error: a Diagram whose Mermaid source cannot be drawn; the slide shows the parser's message",
  "font-substituted": "warning: a font of the theme that the viewer and exports do not have",
  "small-text":
    "warning: body text drawn under 18 pt (36px on the 1920px canvas), or a label, kicker or caption under 14 pt (28px); error under 12 pt",
  "empty-space": "warning: a content slide with a band of more than a third of its height left empty",
  "source-as-text": "warning: Markdown, LaTeX, Mermaid or HTML source shown as text instead of what it describes",
  "missing-glyph": "error: characters no font of the renderer has, drawn as empty boxes",
  "image-zero-size": "error: an image drawn zero pixels wide or high, so it does not show (nor in exports)",
} as const;
export type FindingKind = keyof typeof findingKinds;

export type CheckRect = { x: number; y: number; w: number; h: number };
/** A measured colour; contrast and compositing are lib/contract/color.ts. */
export type CheckColor = Rgba;

/** An element named the way an author wrote it: the vocabulary component and the start of its text. */
export type CheckedElement = { component: string; text: string };

export type SlideMeasurements = {
  /** 1-based. */
  slide: number;
  label: string;
  layout: string;
  /** The panel the player shows for a slide whose code threw. */
  failed: boolean;
  /** Words of body text: everything but titles, headings, Stat values, code, tables and charts. */
  bodyWords: number;
  /** Words of every text on the slide. */
  words: number;
  /** Whether a Title is on the slide (a title slide needs no body). */
  title: boolean;
  /** Visual elements: images, charts, tables, code, icons, stats, timelines, steps, diagrams, logos. */
  media: number;
  lists: Array<CheckedElement & { items: number; longestItemWords: number }>;
  /** Elements the fitting marked as not fitting even at its floor, by how many px they cross the edge. */
  overflow: Array<CheckedElement & { px: number; cut: boolean }>;
  /** The slide's type factor (1 unfitted) and whether it, or a word fit, reached its floor. */
  fit: number;
  slideAtFloor: boolean;
  wordsAtFloor: CheckedElement[];
  overlaps: Array<{ a: CheckedElement; b: CheckedElement; px: number }>;
  /**
   * Text with its colour and, when the background behind it is plain colours, that background and the
   * contrast ratio; when an image or a gradient is behind it, background and ratio are null and the
   * server samples the pixels inside `rect` (relative to the slide) with the text hidden.
   */
  contrast: Array<
    CheckedElement & {
      color: CheckColor;
      background: CheckColor | null;
      ratio: number | null;
      large: boolean;
      rect: CheckRect;
    }
  >;
  images: Array<{ alt: string; failed: boolean; src: string }>;
  /** Diagrams that could not be drawn: the first line of the message they show. */
  diagramErrors: string[];
  /** The first family of every text's computed font. */
  fonts: string[];
  /** Text under its minimum size (px on the canvas): body 36, labels 28 (slides only). */
  smallText: Array<CheckedElement & { px: number; min: number }>;
  /** The tallest band of a content slide's safe area with nothing in it, as a share of its height (0-1). */
  emptyBand: number;
  /** Text that is another language's source: what it looks like. */
  sourceText: Array<CheckedElement & { syntax: "Markdown" | "LaTeX" | "Mermaid" | "HTML" }>;
  /** Characters drawn with no font that has them (the renderer's empty box), per element. */
  missingGlyphs: Array<CheckedElement & { characters: string }>;
  /** Images drawn with no width or no height. */
  zeroSizeImages: CheckedElement[];
};

/** Smallest sizes on the 1920x1080 canvas (px; 1 pt = 2 px): body text 18 pt, labels 14 pt, anything 12 pt. */
export const TEXT_MINIMUMS = { body: 36, label: 28, any: 24 } as const;
