import { describe, expect, it } from "vitest";
import { differingSpan } from "@/components/app/editor/code-editor";
import { attributeExpression, readLiteral } from "@/lib/source/transform/props";
import { isFromFrame, readPreviewMessage } from "@/components/app/editor/preview-messages";
import { EDIT_TEXT_MAX } from "@/lib/contract/player";

// The editor's preview frame runs deck code: what it posts is untrusted input, taken only in the exact
// shapes the player's edit mode sends (components/player/shell/edit-mode.ts).

const editText = (fields: Record<string, unknown> = {}) => ({
  source: "deckhand-player",
  type: "edit-text",
  slide: 2,
  text: "Old heading",
  occurrence: 0,
  next: "New heading",
  ...fields,
});

const select = (fields: Record<string, unknown> = {}) => ({
  source: "deckhand-player",
  type: "select",
  slide: 0,
  text: "Q1",
  occurrence: 1,
  component: "Table",
  ...fields,
});

describe("messages from the editor's preview frame", () => {
  it("reads the edit mode's select and edit-text, and the player's state and ready", () => {
    expect(readPreviewMessage(editText())).toEqual(editText());
    expect(readPreviewMessage(select())).toEqual(select());
    // A data item's text (a chart label, a Timeline title) names its place in the prop's value.
    const item = { component: "Chart", index: 0, count: 1, path: ["data", 2, "label"] };
    expect(readPreviewMessage(editText({ item }))).toEqual(editText({ item }));
    expect(readPreviewMessage(select({ component: "Timeline", item }))).toEqual(
      select({ component: "Timeline", item }),
    );
    // An image, which has no text, names its place among the slide's images.
    const image = select({ component: "Image", text: "", occurrence: 0, element: { index: 1, count: 2 } });
    expect(readPreviewMessage(image)).toEqual(image);
    const state = { source: "deckhand-player", type: "state", slide: 1, count: 3, slides: [], overview: false };
    expect(readPreviewMessage(state)).toEqual(state);
    const ready = { source: "deckhand-player", type: "ready", count: 3, missingFonts: [], errors: [] };
    expect(readPreviewMessage(ready)).toEqual(ready);
    for (const type of ["updated", "update-failed"]) {
      const answer = { source: "deckhand-player", type, moduleUrl: "https://deckhand.example/preview/t/module/0" };
      expect(readPreviewMessage(answer)).toEqual(answer);
    }
  });

  it("reads undo and redo pressed on the preview, and nothing else in their shape", () => {
    const history = (action: unknown, extra: Record<string, unknown> = {}) => ({
      source: "deckhand-player",
      type: "history",
      action,
      ...extra,
    });
    expect(readPreviewMessage(history("undo"))).toEqual(history("undo"));
    expect(readPreviewMessage(history("redo"))).toEqual(history("redo"));
    expect(readPreviewMessage(history("save"))).toBeNull();
    expect(readPreviewMessage(history("undo", { times: 3 }))).toBeNull();
  });

  it("drops anything else whole", () => {
    const refused: unknown[] = [
      null,
      "edit-text",
      [],
      editText({ source: "deckhand-viewer" }),
      editText({ type: "edit-source" }),
      // Exactly the known fields: nothing extra rides along.
      editText({ start: 0 }),
      { ...editText(), __proto__: { next: "x" }, next: undefined },
      // Slides and occurrences are bounded integers.
      editText({ slide: -1 }),
      editText({ slide: 1.5 }),
      editText({ slide: 10_001 }),
      editText({ slide: "1" }),
      editText({ occurrence: -1 }),
      editText({ occurrence: Number.NaN }),
      // Strings are bounded, and an edit names both texts.
      editText({ next: "x".repeat(EDIT_TEXT_MAX + 1) }),
      editText({ text: "x".repeat(EDIT_TEXT_MAX + 1) }),
      editText({ text: "" }),
      editText({ next: "" }),
      editText({ next: 42 }),
      // Only the vocabulary's text components.
      select({ component: "Script" }),
      // An image is selected, never edited; its place is two bounded integers and nothing else.
      editText({ item: { component: "Image", index: 0, count: 1, path: ["src"] } }),
      select({ component: "Image", element: { index: -1, count: 1 } }),
      select({ component: "Image", element: { index: 0, count: 0 } }),
      select({ component: "Image", element: { index: 0, count: 1, src: "/x.png" } }),
      // An item's path is a prop name, then keys and indexes: short, no code, nothing extra.
      editText({ item: { component: "Chart", index: 0, count: 1, path: [] } }),
      editText({ item: { component: "Chart", index: 0, count: 1, path: ["data", "x; alert(1)"] } }),
      editText({ item: { component: "Chart", index: 0, count: 1, path: ["data", -1] } }),
      editText({ item: { component: "Chart", index: 0, count: 1, path: ["a", 1, 2, 3, 4, 5, 6] } }),
      editText({ item: { component: "Chart", index: 0, count: 0, path: ["data"] } }),
      editText({ item: { component: "Script", index: 0, count: 1, path: ["data"] } }),
      editText({ item: { component: "Chart", index: 0, count: 1, path: ["data"], start: 3 } }),
      { source: "deckhand-player", type: "request", action: "presenter" },
      // An update's answer names its module URL, bounded, and nothing else.
      { source: "deckhand-player", type: "updated", moduleUrl: "x".repeat(2_049) },
      { source: "deckhand-player", type: "updated", moduleUrl: 1 },
      { source: "deckhand-player", type: "updated", moduleUrl: "x", count: 1 },
      { source: "deckhand-player", type: "update", moduleUrl: "x" },
    ];
    for (const data of refused) expect(readPreviewMessage(data), JSON.stringify(data)).toBeNull();
    const missing: Record<string, unknown> = editText();
    delete missing.occurrence;
    expect(readPreviewMessage(missing)).toBeNull();
  });

  it("takes a message only from its own frame at a sandboxed frame's origin", () => {
    const own = {} as Window;
    const frame = { contentWindow: own } as HTMLIFrameElement;
    const event = (source: unknown, origin: string) => ({ source, origin }) as MessageEvent;
    expect(isFromFrame(event(own, "null"), frame)).toBe(true);
    expect(isFromFrame(event({}, "null"), frame)).toBe(false);
    expect(isFromFrame(event(own, "https://deckhand.example"), frame)).toBe(false);
    expect(isFromFrame(event(null, "null"), { contentWindow: null } as HTMLIFrameElement)).toBe(false);
    expect(isFromFrame(event(own, "null"), null)).toBe(false);
  });
});

describe("a visual edit as one code change", () => {
  it("changes only the span that differs", () => {
    expect(differingSpan("abc", "abc")).toBeNull();
    expect(differingSpan("<Heading>Old</Heading>", "<Heading>New</Heading>")).toEqual({
      from: 9,
      to: 12,
      insert: "New",
    });
    expect(differingSpan("aaa", "aaaa")).toEqual({ from: 3, to: 3, insert: "a" });
    expect(differingSpan("one two", "one")).toEqual({ from: 3, to: 7, insert: "" });
  });
});

describe("literal props for the inspector", () => {
  it("reads literals and leaves code alone", () => {
    expect(readLiteral('[["Q1", 12], ["Q2", -3.5]]')).toEqual([
      ["Q1", 12],
      ["Q2", -3.5],
    ]);
    expect(readLiteral('[{ label: "A", "value": 1 }]')).toEqual([{ label: "A", value: 1 }]);
    expect(readLiteral("[`x`, true, null]")).toEqual(["x", true, null]);
    expect(readLiteral("rows")).toBeUndefined();
    expect(readLiteral("[...rows]")).toBeUndefined();
    expect(readLiteral("[f()]")).toBeUndefined();
    expect(readLiteral("[`${x}`]")).toBeUndefined();
    expect(readLiteral("[")).toBeUndefined();
    expect(attributeExpression('items={["a", "b"]}')).toBe('["a", "b"]');
    expect(attributeExpression('label="x"')).toBeNull();
  });
});
