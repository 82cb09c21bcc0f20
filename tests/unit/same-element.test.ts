import { createElement as h, type ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { sameElement } from "@/components/player/shell/same-element";

// The player keeps a slide a newer module left as it was (the editor's in-place update): only elements that
// draw the same are the same.

const Heading = (props: { children?: ReactNode }) => props.children;
const Chart = (props: { data: unknown }) => String(props.data);

describe("sameElement", () => {
  it("takes elements of the same types, keys and props, value by value, as the same", () => {
    const slide = () =>
      h(
        "section",
        { label: "Part 1" },
        h(Heading, null, "Heading number 1"),
        h(Chart, { data: [{ label: "Q1", value: 3, extra: { unit: "%" } }] }),
      );
    expect(sameElement(slide(), slide())).toBe(true);
  });

  it("tells a changed text, prop, type, key or order apart", () => {
    const base = h("section", { layout: "content" }, h(Heading, null, "One"), h(Chart, { data: [1, 2] }));
    expect(
      sameElement(base, h("section", { layout: "content" }, h(Heading, null, "Two"), h(Chart, { data: [1, 2] }))),
    ).toBe(false);
    expect(
      sameElement(base, h("section", { layout: "title" }, h(Heading, null, "One"), h(Chart, { data: [1, 2] }))),
    ).toBe(false);
    expect(
      sameElement(base, h("section", { layout: "content" }, h(Heading, null, "One"), h(Chart, { data: [1, 3] }))),
    ).toBe(false);
    expect(
      sameElement(base, h("section", { layout: "content" }, h(Chart, { data: [1, 2] }), h(Heading, null, "One"))),
    ).toBe(false);
    expect(sameElement(h(Heading, { key: "a" }, "One"), h(Heading, { key: "b" }, "One"))).toBe(false);
    // A component of the deck's own is a new function in each module: never the same.
    const Mine = () => null;
    const Theirs = () => null;
    expect(sameElement(h(Mine), h(Theirs))).toBe(false);
  });

  it("compares functions and objects other than plain ones by identity", () => {
    const onClick = () => {};
    expect(sameElement(h("div", { onClick }), h("div", { onClick }))).toBe(true);
    expect(sameElement(h("div", { onClick }), h("div", { onClick: () => {} }))).toBe(false);
    expect(sameElement(h("div", { at: new Date(0) }), h("div", { at: new Date(0) }))).toBe(false);
    expect(sameElement(h("div", { n: Number.NaN }), h("div", { n: Number.NaN }))).toBe(true);
    expect(sameElement(h("div", { a: 1 }), h("div", { a: 1, b: undefined }))).toBe(false);
  });

  it("takes values nested past its depth as different", () => {
    const deep = () => {
      let value: unknown = "end";
      for (let depth = 0; depth < 200; depth++) value = [value];
      return h("div", { value });
    };
    expect(sameElement(deep(), deep())).toBe(false);
  });
});
