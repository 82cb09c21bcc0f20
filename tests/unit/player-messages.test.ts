import { describe, expect, it } from "vitest";
import {
  MAX_SLIDES,
  readChannelMessage,
  readFrameMessage,
  readHashSlide,
  slideHash,
} from "@/components/player/messages";
import { readScaleMessage } from "@/components/player/shell/edit-mode";
import { isSiblingModule, readUpdateMessage } from "@/components/player/shell/module-update";

const state = (fields: Record<string, unknown> = {}) => ({
  source: "deckhand-player",
  type: "state",
  slide: 1,
  count: 3,
  slides: [{ label: "A", notes: "" }, undefined, { label: "C", notes: "Say C" }],
  overview: false,
  ...fields,
});

describe("messages from the deck frame", () => {
  it("reads the player's state and requests", () => {
    expect(readFrameMessage(state())).toEqual({
      type: "state",
      slide: 1,
      count: 3,
      slides: [{ label: "A", notes: "" }, undefined, { label: "C", notes: "Say C" }],
      overview: false,
    });
    // A list with holes (slides not drawn yet), as the player builds it.
    const sparse: unknown[] = [];
    sparse[2] = { label: "C", notes: "" };
    expect(readFrameMessage(state({ slides: sparse }))).toMatchObject({
      slides: [undefined, undefined, { label: "C" }],
    });
    expect(readFrameMessage({ source: "deckhand-player", type: "request", action: "presenter" })).toEqual({
      type: "request",
      action: "presenter",
    });
    expect(readFrameMessage(state({ slide: MAX_SLIDES - 1, count: MAX_SLIDES }))).not.toBeNull();
  });

  it.each([
    ["a string", "#javascript:alert(1)"],
    ["null", null],
    ["an array", ["deckhand-player", "state", 1, 3]],
    ["another source", state({ source: "deckhand-viewer" })],
    ["an unknown type", { source: "deckhand-player", type: "navigate", url: "javascript:alert(1)" }],
    ["ready (nothing to act on)", { source: "deckhand-player", type: "ready", count: 3, missingFonts: [], errors: [] }],
    ["a string slide", state({ slide: "javascript:alert(1)" })],
    ["a numeric string slide", state({ slide: "1" })],
    ["a negative slide", state({ slide: -1 })],
    ["NaN", state({ slide: Number.NaN })],
    ["Infinity", state({ slide: Number.POSITIVE_INFINITY })],
    ["a fraction", state({ slide: 1.5 })],
    ["a slide past the count", state({ slide: 3 })],
    ["a huge count", state({ count: 1e9 })],
    ["a zero count", state({ slide: 0, count: 0 })],
    ["a string count", state({ count: "3" })],
    ["a string for slides", state({ slides: "x" })],
    ["too many slides", state({ slides: Array.from({ length: MAX_SLIDES + 1 }, () => undefined) })],
    ["a label that is not a string", state({ slides: [{ label: 7, notes: "" }] })],
    ["a slide with extra fields", state({ slides: [{ label: "A", notes: "", html: "<img>" }] })],
    ["a slide without notes", state({ slides: [{ label: "A" }] })],
    ["a non-boolean overview", state({ overview: "yes" })],
    ["an extra field", state({ hash: "#javascript:alert(1)" })],
    ["a missing field", { source: "deckhand-player", type: "state", slide: 1, count: 3, slides: [] }],
    ["an unknown request", { source: "deckhand-player", type: "request", action: "open" }],
    ["a request with extra fields", { source: "deckhand-player", type: "request", action: "presenter", url: "x" }],
    ["an object with a prototype", Object.assign(Object.create({ polluted: true }), state())],
  ])("drops %s", (_name, data) => {
    expect(readFrameMessage(data)).toBeNull();
  });

  it("cuts labels and notes to a bounded length", () => {
    const message = readFrameMessage(
      state({ slides: [{ label: "x".repeat(2_000_000), notes: "y".repeat(2_000_000) }] }),
    );
    expect(message?.type).toBe("state");
    const [meta] = message?.type === "state" ? message.slides : [];
    expect(meta!.label.length).toBeLessThanOrEqual(200);
    expect(meta!.notes.length).toBeLessThanOrEqual(20_000);
    expect(meta!.label.endsWith("…")).toBe(true);
  });
});

describe("the channel and the hash", () => {
  it("reads only a goto with a slide index and the time of the move", () => {
    const at = 1_800_000_000_000;
    expect(readChannelMessage({ type: "goto", slide: 2, at })).toEqual({ type: "goto", slide: 2, at });
    for (const data of [
      { type: "goto", slide: -1, at },
      { type: "goto", slide: "2", at },
      { type: "goto", slide: 2.5, at },
      { type: "goto", slide: MAX_SLIDES, at },
      { type: "goto", slide: 2, at, extra: 1 },
      { type: "goto", slide: 2 },
      { type: "goto", slide: 2, at: "now" },
      { type: "goto", slide: 2, at: -1 },
      { type: "goto", slide: 2, at: Number.POSITIVE_INFINITY },
      { type: "open", slide: 2, at },
      null,
    ]) {
      expect(readChannelMessage(data)).toBeNull();
    }
  });

  it("takes #N for slide numbers only, and writes #N", () => {
    expect(readHashSlide("#1")).toBe(0);
    expect(readHashSlide("#12")).toBe(11);
    expect(readHashSlide(`#${MAX_SLIDES}`)).toBe(MAX_SLIDES - 1);
    for (const hash of [
      "",
      "#",
      "#0",
      "#01",
      "#-1",
      "#1.5",
      "#1e3",
      `#${MAX_SLIDES + 1}`,
      "#javascript:alert(1)",
      "#2x",
    ]) {
      expect(readHashSlide(hash)).toBeNull();
    }
    expect(slideHash(0)).toBe("#1");
  });
});

describe("a module drawn in place (the editor's preview)", () => {
  const token = "eyJkIjoiYSJ9.c2lnbmF0dXJl";
  const own = `https://deckhand.example/preview/${token}/module/0`;
  const hash = "0123456789abcdef0123456789abcdef";
  const update = (fields: Record<string, unknown> = {}) => ({
    source: "deckhand-viewer",
    type: "update",
    moduleUrl: `https://deckhand.example/preview/${token}/module/${hash}`,
    ...fields,
  });

  it("reads only the exact update message", () => {
    expect(readUpdateMessage(update())).toBe(update().moduleUrl);
    for (const data of [
      null,
      "update",
      [],
      update({ source: "deckhand-player" }),
      update({ type: "goto" }),
      update({ moduleUrl: 1 }),
      update({ moduleUrl: `https://deckhand.example/${"a".repeat(2_048)}` }),
      update({ extra: true }),
      Object.assign(Object.create({ moduleUrl: "x" }), { source: "deckhand-viewer", type: "update" }),
    ]) {
      expect(readUpdateMessage(data), JSON.stringify(data)).toBeNull();
    }
  });

  it("reads only the exact scale message, with a bounded scale", () => {
    const scale = (fields: Record<string, unknown> = {}) => ({
      source: "deckhand-viewer",
      type: "scale",
      scale: 0.4,
      ...fields,
    });
    expect(readScaleMessage(scale())).toBe(0.4);
    for (const data of [
      null,
      "scale",
      [],
      scale({ source: "deckhand-player" }),
      scale({ type: "update" }),
      scale({ scale: "0.4" }),
      scale({ scale: 0 }),
      scale({ scale: -1 }),
      scale({ scale: 5 }),
      scale({ scale: Number.NaN }),
      scale({ scale: Number.POSITIVE_INFINITY }),
      scale({ extra: true }),
      Object.assign(Object.create({ scale: 0.4 }), { source: "deckhand-viewer", type: "scale" }),
    ]) {
      expect(readScaleMessage(data), JSON.stringify(data)).toBeNull();
    }
  });

  it("takes a module beside its own only: the same origin, this preview token's folder, a plain name", () => {
    expect(isSiblingModule(`https://deckhand.example/preview/${token}/module/${hash}`, own)).toBe(true);
    expect(isSiblingModule(`https://deckhand.example/preview/${token}/module/0`, own)).toBe(true);
    for (const url of [
      // another preview token, another deck's share link, another path of this preview
      `https://deckhand.example/preview/${token}x/module/${hash}`,
      `https://deckhand.example/preview/other.token/module/${hash}`,
      `https://deckhand.example/d/abcdefgh/module/3`,
      `https://deckhand.example/preview/${token}/logo`,
      `https://deckhand.example/preview/${token}/module/`,
      `https://deckhand.example/preview/${token}/module/a/b`,
      // another origin, scheme, port, or credentials
      `https://evil.example/preview/${token}/module/${hash}`,
      `http://deckhand.example/preview/${token}/module/${hash}`,
      `https://deckhand.example:8443/preview/${token}/module/${hash}`,
      `https://user:pw@deckhand.example/preview/${token}/module/${hash}`,
      `data:text/javascript,export default 1`,
      `javascript:alert(1)`,
      `blob:https://deckhand.example/${hash}`,
      // written otherwise than the browser writes it, or relative
      `https://deckhand.example/preview/${token}/module/../module/${hash}`,
      `https://deckhand.example/preview/${token}/module/./${hash}`,
      `https://DECKHAND.example/preview/${token}/module/${hash}`,
      `https://deckhand.example/preview/${token}/module/%2e%2e%2flogo`,
      `https://deckhand.example/preview/${token}/module/${hash}.js`,
      `/preview/${token}/module/${hash}`,
      `module/${hash}`,
      // a query or fragment of its own
      `https://deckhand.example/preview/${token}/module/${hash}?v=1`,
      `https://deckhand.example/preview/${token}/module/${hash}#x`,
      "",
    ]) {
      expect(isSiblingModule(url, own), url).toBe(false);
    }
    // The share viewer's frames never draw in place (they are not preview frames).
    expect(
      isSiblingModule("https://deckhand.example/d/abcdefgh/module/4", "https://deckhand.example/d/abcdefgh/module/3"),
    ).toBe(false);
  });
});
