// What a deck is, as the server and the player both know it.

/** The two kinds of deck: 16:9 slides, or one scrolling web page. */
export const deckFormats = ["slides", "webpage"] as const;
export type DeckFormat = (typeof deckFormats)[number];

/** The slide canvas every deck is laid out on (16:9); the viewer scales it, exports print it 1:1. */
export const CANVAS = { width: 1920, height: 1080 } as const;

/**
 * How far the player shrinks type to fit before it marks content as overflowing: a whole slide to
 * `slide` of its sizes, a Title's or Heading's too-long word to `word`, a Stat value to `stat`.
 */
export const FIT_FLOORS = { slide: 0.75, word: 0.7, stat: 0.5 } as const;

/** How much larger the player draws a short body on a content slide, at most (its heading keeps its size). */
export const FIT_GROW_MAX = 1.4;
