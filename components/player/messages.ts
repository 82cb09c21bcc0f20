// Reading what the deck frame posts to the pages around it (the share page, the presenter window).
//
// The frame runs the deck's own code, so a message from it is untrusted input: deck code can post
// anything the player posts, and anything else. The pages take a message only from their frame's window
// (event.source, checked by the caller: the origin is "null" for every sandboxed frame) and only in the
// exact shape the player sends: known types, exactly the known fields, slide numbers that are integers
// inside the deck, bounded counts and strings. Anything else is dropped whole.
import type { SlideMeta } from "@/lib/contract/player";

/** More slides than any deck has (the frame routes cap ?slide= at the same number). */
export const MAX_SLIDES = 10_000;
const MAX_LABEL = 200;
const MAX_NOTES = 20_000;

type FrameState = {
  type: "state";
  /** 0-based, an integer in 0..count-1. */
  slide: number;
  /** An integer in 1..MAX_SLIDES. */
  count: number;
  /** Labels and notes of the slides drawn so far (holes for the others), strings cut to a bounded length. */
  slides: (SlideMeta | undefined)[];
  overview: boolean;
};

/**
 * `request` only says the player was asked (its P or F key, its presenter or full-screen button). A page
 * never opens a window or takes the screen because of it: see components/player/viewer.ts.
 */
type FrameRequest = { type: "request"; action: "presenter" | "fullscreen" };

export type FrameMessage = FrameState | FrameRequest;

function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function hasExactly(value: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((key) => Object.hasOwn(value, key));
}

function isIndex(value: unknown, below: number): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value < below;
}

function bounded(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function readSlideMeta(value: unknown): SlideMeta | undefined | null {
  if (value === undefined) return undefined;
  if (!isRecord(value) || !hasExactly(value, ["label", "notes"])) return null;
  if (typeof value.label !== "string" || typeof value.notes !== "string") return null;
  return { label: bounded(value.label, MAX_LABEL), notes: bounded(value.notes, MAX_NOTES) };
}

const stateKeys = ["source", "type", "slide", "count", "slides", "overview"] as const;
const requestKeys = ["source", "type", "action"] as const;

/** The message, if it is one the player sends and well-formed; null for anything else. */
export function readFrameMessage(data: unknown): FrameMessage | null {
  if (!isRecord(data) || data.source !== "deckhand-player") return null;
  if (data.type === "state") {
    if (!hasExactly(data, stateKeys)) return null;
    const { slide, count, slides, overview } = data;
    if (!isIndex(count, MAX_SLIDES + 1) || count < 1 || !isIndex(slide, count)) return null;
    if (typeof overview !== "boolean" || !Array.isArray(slides) || slides.length > MAX_SLIDES) return null;
    const metas: (SlideMeta | undefined)[] = [];
    // An index loop, not a callback: the player's list can have holes (slides not drawn yet).
    for (let index = 0; index < Math.min(slides.length, count); index++) {
      const meta = readSlideMeta(slides[index]);
      if (meta === null) return null;
      metas.push(meta);
    }
    return { type: "state", slide, count, slides: metas, overview };
  }
  if (data.type === "request") {
    if (!hasExactly(data, requestKeys)) return null;
    if (data.action !== "presenter" && data.action !== "fullscreen") return null;
    return { type: "request", action: data.action };
  }
  // "ready" (for the export renderer) and anything unknown: nothing the pages act on.
  return null;
}

/** A `goto` on the BroadcastChannel between a share page and its presenter windows. */
/**
 * A window's move, as the share page and presenter windows tell each other: the slide and when the move was
 * made (`Date.now()`, one clock for the windows of one browser). A window takes a move only when it is newer
 * than its own last one, so a message that arrives late on a busy machine never takes it back.
 */
export type ChannelMessage = { type: "goto"; slide: number; at: number };

export function readChannelMessage(data: unknown): ChannelMessage | null {
  if (!isRecord(data) || !hasExactly(data, ["type", "slide", "at"]) || data.type !== "goto") return null;
  if (typeof data.at !== "number" || !Number.isFinite(data.at) || data.at < 0) return null;
  return isIndex(data.slide, MAX_SLIDES) ? { type: "goto", slide: data.slide, at: data.at } : null;
}

/** The 0-based slide a `#N` fragment names, or null when it is not a slide number. */
export function readHashSlide(hash: string): number | null {
  const match = /^#([1-9]\d{0,4})$/.exec(hash);
  const slide = match ? Number(match[1]) : 0;
  return slide >= 1 && slide <= MAX_SLIDES ? slide - 1 : null;
}

/** The only fragment the pages write: `#` and a slide number. */
export function slideHash(slide: number): string {
  return `#${slide + 1}`;
}
