// The player's side of the frame document: the config the server writes into it (a JSON script
// element), the messages the player and the pages around it exchange, and the status the export
// renderer reads. The server, the player, the share page and the presenter window all import it.

import type { DeckFormat } from "./deck";

export type PlayerMode = "present" | "export" | "thumb";

export type PlayerConfig = {
  moduleUrl: string;
  format: DeckFormat;
  mode: PlayerMode;
  /** 0-based slide to start on (thumb mode: the slide to draw). */
  slide: number;
  title: string;
  /** Hide the on-screen controls (presenter's mirror, embeds that want a clean canvas). */
  chrome: boolean;
  /** Post state to the parent window (the viewer or presenter page). */
  embedded: boolean;
  /**
   * The deck's brand logo for `<Logo>`: a URL on the frame document's own origin, the only image URL
   * outside the player's assets that the frame's CSP allows; `alt` is the brand's name. null when the
   * deck has no brand or its brand has no stored logo (`<Logo>` then draws nothing).
   */
  logo: { url: string; alt: string } | null;
  /**
   * The Diagram renderer (mermaid, components/player/diagram/render.ts): a module under /player/ that the
   * player imports only when a deck draws a `<Diagram>`, so other decks never load it.
   */
  diagramUrl: string;
  /**
   * The Formula renderer (KaTeX, components/player/vocabulary/formula/render.ts): a module under /player/
   * imported only when a deck draws a `<Formula>`.
   */
  formulaUrl: string;
  /**
   * The editor's preview only (never the share viewer, embeds or exports): text on the slide can be
   * clicked and edited in place, and the player posts `select` and `edit-text` to the editor, which treats
   * them as untrusted input (components/app/editor/preview-messages.ts). Absent means false.
   */
  edit?: boolean;
};

export type SlideMeta = { label: string; notes: string };

// Frame → page.
export type PlayerMessage =
  | { source: "deckhand-player"; type: "state"; slide: number; count: number; slides: SlideMeta[]; overview: boolean }
  | { source: "deckhand-player"; type: "ready"; count: number; missingFonts: string[]; errors: string[] }
  | { source: "deckhand-player"; type: "request"; action: "presenter" | "fullscreen" }
  // Edit mode (the editor's preview): text or an image clicked, and text edited in place. `slide` is 0-based,
  // `text` the element's text as rendered, `occurrence` its 0-based rank among the slide's editable texts equal to it.
  | EditSelectMessage
  | EditTextMessage
  | EditHistoryMessage
  | EditRemoveMessage
  // The editor's preview (edit mode): an `update` was drawn in place (after its `ready`), or it was refused or
  // failed to load, and the page loads the frame again instead.
  | { source: "deckhand-player"; type: "updated" | "update-failed"; moduleUrl: string };

/** The components whose text the preview lets a person edit in place (shell/edit-mode.ts). */
export const editableComponents = [
  "Title",
  "Heading",
  "Text",
  "Bullets",
  "Stat",
  "Quote",
  "Table",
  "Chart",
  "Timeline",
  "Steps",
] as const;
export type EditableComponent = (typeof editableComponents)[number];

/**
 * The components a click on the preview selects for the inspector: those whose text is edited in place,
 * and an `<Image>`, which has no text and is selected only (its src is picked in the inspector).
 */
export const selectableComponents = [...editableComponents, "Image"] as const;
export type SelectableComponent = (typeof selectableComponents)[number];

/** Bounds the editor holds the edit messages to (and the player cuts its texts to). */
export const EDIT_TEXT_MAX = 5_000;

/**
 * A text the player draws from a prop's data (a chart's labels and values, Timeline and Steps items) rather
 * than from the slide's JSX text: its component, which of its component's elements on the slide it is (0-based, in
 * document order, of `count`), and the path into the prop's value, e.g. ["data", 1, "label"]. `text` is then
 * the value as written (a chart value unformatted, a shortened label whole). Components mark such texts
 * with `data-dh-edit` (the path, dot-separated) and `data-dh-raw` (the value, when it is shown otherwise).
 */
export type EditItem = { component: EditableComponent; index: number; count: number; path: (string | number)[] };

/** How deep an item path goes, and how long a key may be. */
export const EDIT_PATH_MAX = 6;

/**
 * An element selected as a whole (an `<Image>`, which has no text to be found by): which of its
 * component's elements on the slide it is (0-based, in document order, of `count`).
 */
export type EditElement = { index: number; count: number };

export type EditSelectMessage = {
  source: "deckhand-player";
  type: "select";
  slide: number;
  /** The text as rendered; "" for an element selected as a whole (`element`). */
  text: string;
  occurrence: number;
  component: SelectableComponent;
  item?: EditItem;
  element?: EditElement;
};

export type EditTextMessage = {
  source: "deckhand-player";
  type: "edit-text";
  slide: number;
  text: string;
  occurrence: number;
  next: string;
  item?: EditItem;
};

/**
 * Ctrl/Cmd+Z (undo) and Shift+Ctrl/Cmd+Z or Ctrl+Y (redo) pressed on the preview while no text is being
 * edited in place: the editor undoes or redoes in its one history, the code's (only while a person is in
 * the frame; deck code alone cannot give its frame the keyboard).
 */
export type EditHistoryMessage = { source: "deckhand-player"; type: "history"; action: "undo" | "redo" };

/** Delete or Backspace pressed on the preview while no text is being edited: remove the selected element. */
export type EditRemoveMessage = { source: "deckhand-player"; type: "remove" };

// Page → frame.
export type ViewerMessage =
  | { source: "deckhand-viewer"; type: "goto"; slide: number }
  | { source: "deckhand-viewer"; type: "key"; key: string; shiftKey: boolean }
  | ModuleUpdateMessage
  | EditScaleMessage;

/**
 * The editor's preview only (edit mode): draw this newly compiled module in place of the one on screen, on
 * the same slide, without loading a new document. The frame takes it only from its parent and only for a
 * module beside its own (the same folder of the same origin: this preview token's modules), and answers
 * `updated` or `update-failed` (components/player/shell/module-update.ts).
 */
export type ModuleUpdateMessage = { source: "deckhand-viewer"; type: "update"; moduleUrl: string };

/**
 * The editor's preview only (edit mode): how large one of the frame's CSS pixels is on screen, in the page's
 * (the preview draws the 1920x1080 frame scaled to its pane, and a frame cannot see a transform of its
 * element). Edit mode sizes the box it lays over an SVG text by it, so the box stays legible at any scale.
 * The frame takes it only from its parent and only between EDIT_SCALE_MIN and EDIT_SCALE_MAX.
 */
export type EditScaleMessage = { source: "deckhand-viewer"; type: "scale"; scale: number };
export const EDIT_SCALE_MIN = 0.05;
export const EDIT_SCALE_MAX = 4;

/** The longest module URL an update may name (the page and the frame both hold it to this). */
export const MODULE_URL_MAX = 2_048;

// What the export renderer reads once the deck is drawn and its fonts are loaded.
type PlayerStatus = {
  ready: boolean;
  count: number;
  slides: SlideMeta[];
  missingFonts: string[];
  errors: string[];
};

// The global the player sets and the renderer reads (lib/render/browser.ts). Only a type: declaring
// the property needs no DOM library, and both tsconfigs see it because both include this folder.
declare global {
  interface Window {
    __deckhand?: PlayerStatus;
  }
}
