// What the frame document tells the player (a JSON script element), and the messages the player and
// the page around it exchange. Shared by the player, the viewer page and the presenter window.

export type PlayerMode = "present" | "export" | "thumb";

export type PlayerConfig = {
  moduleUrl: string;
  format: "slides" | "webpage";
  mode: PlayerMode;
  /** 0-based slide to start on (thumb mode: the slide to draw). */
  slide: number;
  title: string;
  /** Hide the on-screen controls (presenter's mirror, embeds that want a clean canvas). */
  chrome: boolean;
  /** Post state to the parent window (the viewer or presenter page). */
  embedded: boolean;
};

export type SlideMeta = { label: string; notes: string };

// Frame → page.
export type PlayerMessage =
  | { source: "deckhand-player"; type: "state"; slide: number; count: number; slides: SlideMeta[]; overview: boolean }
  | { source: "deckhand-player"; type: "ready"; count: number; missingFonts: string[]; errors: string[] }
  | { source: "deckhand-player"; type: "request"; action: "presenter" | "fullscreen" };

// Page → frame.
export type ViewerMessage =
  | { source: "deckhand-viewer"; type: "goto"; slide: number }
  | { source: "deckhand-viewer"; type: "key"; key: string; shiftKey: boolean };

// What the export renderer reads once the deck is drawn and its fonts are loaded.
export type PlayerStatus = {
  ready: boolean;
  count: number;
  slides: SlideMeta[];
  missingFonts: string[];
  errors: string[];
};

declare global {
  interface Window {
    __deckhand?: PlayerStatus;
  }
}
