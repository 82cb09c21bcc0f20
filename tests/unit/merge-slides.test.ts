import { describe, expect, it } from "vitest";
import { mergeSlides, mergeTokens } from "@/lib/source/transform/merge";
import { deckSource } from "../helpers/decks";

// The editor's "Merge" after a save conflict: both edits kept where they touch different slides.
describe("mergeSlides", () => {
  const base = deckSource(["Alpha", "Beta", "Gamma"]);
  const edit = (source: string, from: string, to: string) =>
    source.replace(`<Title>${from}</Title>`, `<Title>${to}</Title>`);

  it("keeps edits of different slides from both sides, every other byte as it was", () => {
    const mine = edit(base, "Alpha", "Alpha mine");
    const theirs = edit(base, "Gamma", "Gamma theirs");
    const merged = mergeSlides(base, mine, theirs, "slides");
    expect(merged).toEqual({ ok: true, source: edit(mine, "Gamma", "Gamma theirs") });
  });

  it("takes a slide one side added and one the other removed", () => {
    const mine = deckSource(["Alpha", "Beta", "Gamma", "Delta"]);
    const theirs = deckSource(["Alpha", "Gamma"]);
    expect(mergeSlides(base, mine, theirs, "slides")).toEqual({
      ok: true,
      source: deckSource(["Alpha", "Gamma", "Delta"]),
    });
  });

  it("refuses edits of the same slide and names it", () => {
    const merged = mergeSlides(base, edit(base, "Beta", "B1"), edit(base, "Beta", "B2"), "slides");
    expect(merged.ok).toBe(false);
    expect(!merged.ok && merged.reason).toContain("“Beta”");
  });

  it("refuses a source that does not parse, and merges imports changed on one side", () => {
    expect(mergeSlides(base, "export default <", edit(base, "Beta", "B2"), "slides").ok).toBe(false);
    const mine = deckSource(["Alpha", "Beta", "Gamma"], "const unused = 1;");
    const theirs = edit(base, "Beta", "B2");
    expect(mergeSlides(base, mine, theirs, "slides")).toEqual({
      ok: true,
      source: edit(mine, "Beta", "B2"),
    });
  });

  it("merges tokens changed on one side only", () => {
    expect(mergeTokens("a", "b", "a")).toBe("b");
    expect(mergeTokens("a", "a", "c")).toBe("c");
    expect(mergeTokens("a", "b", "c")).toBeNull();
  });
});
