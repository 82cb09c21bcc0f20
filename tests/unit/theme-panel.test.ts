import { describe, expect, it } from "vitest";
import { hexContrast, toHexColor } from "@/components/app/editor/theme-panel/colors";
import { tokenControls } from "@/components/app/editor/theme-panel/token-controls";
import { fontStack, parseFontFamilyList } from "@/lib/contract/fonts";
import { setTokenValue } from "@/lib/source/token-edit";
import { parseTokensCss } from "@/lib/source/tokens";
import { defaultTokensCss, themeTokens } from "@/lib/source/theme-tokens";

// The theme panel's pure parts: one declaration rewritten in place, colours read for the picker and their
// contrast, a control for every token of the vocabulary.
describe("setTokenValue", () => {
  it("changes only the value of that declaration, every other byte kept", () => {
    const css =
      '@import url("https://fonts.example/a.css");\n:root {\n  --color-bg: #fafaf9;\n  --color-text:  #111 !important ;\n  --radius: 16px\n}\n';
    const next = setTokenValue(css, "--color-text", "#222222");
    expect(next).toBe(css.replace("#111", "#222222"));
    expect(setTokenValue(css, "--radius", "8px")).toBe(css.replace("16px", "8px"));
    expect(setTokenValue(defaultTokensCss, "--color-bg", "#000000")).toBe(
      defaultTokensCss.replace("--color-bg: #fafaf9;", "--color-bg: #000000;"),
    );
  });

  it("sets the declaration that wins (the last of duplicates)", () => {
    const css = ":root {\n  --a: 1;\n  --a: 2;\n}";
    expect(setTokenValue(css, "--a", "3")).toBe(":root {\n  --a: 1;\n  --a: 3;\n}");
  });

  it("adds a missing token as a line of its own at the end of the block, in its layout", () => {
    expect(setTokenValue(":root {\n  --a: 1;\n}", "--space", "4px")).toBe(":root {\n  --a: 1;\n  --space: 4px;\n}");
    expect(setTokenValue(":root {\n\t--a: 1\n}", "--b", "2")).toBe(":root {\n\t--a: 1;\n\t--b: 2;\n}");
    expect(setTokenValue(":root { --a: 1; }", "--b", "2")).toBe(":root { --a: 1; --b: 2; }");
  });

  it("refuses a value or a text a save would refuse", () => {
    expect(() => setTokenValue(":root { --a: 1; }", "--a", "x; } body { color: red")).toThrow(/tokensCss/);
    expect(() => setTokenValue(":root { --a: 1; }", "--a", "</style>")).toThrow(/</);
    expect(() => setTokenValue("body { color: red }", "--a", "1")).toThrow(/tokensCss/);
  });
});

describe("the theme panel's colours", () => {
  it("reads hex and rgb() colours as #rrggbb", () => {
    expect(toHexColor("#FFF")).toBe("#ffffff");
    expect(toHexColor("#1d4ed8")).toBe("#1d4ed8");
    expect(toHexColor("#1d4ed880")).toBe("#1d4ed8");
    expect(toHexColor("rgb(29, 78, 216)")).toBe("#1d4ed8");
    expect(toHexColor("rgb(29 78 216 / 50%)")).toBe("#1d4ed8");
    expect(toHexColor("var(--x)")).toBeNull();
    expect(toHexColor("rebeccapurple", (v) => (v === "rebeccapurple" ? "#663399" : null))).toBe("#663399");
  });

  it("measures WCAG contrast", () => {
    expect(hexContrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(hexContrast("#1c1917", "#fafaf9")).toBeGreaterThan(4.5);
    expect(hexContrast("#aaaaaa", "#ffffff")).toBeLessThan(4.5);
  });
});

describe("the theme panel's controls", () => {
  it("has one for every token of the vocabulary, colours paired for contrast", () => {
    expect(tokenControls.map((c) => c.name)).toEqual(themeTokens.map((t) => t.name));
    const byName = new Map(tokenControls.map((c) => [c.name, c]));
    expect(byName.get("--color-text")).toMatchObject({
      kind: "color",
      contrastWith: ["--color-bg", "--color-surface"],
    });
    expect(byName.get("--color-bg")).toMatchObject({ kind: "color", contrastWith: ["--color-text", "--color-muted"] });
    expect(byName.get("--font-heading")).toMatchObject({ kind: "font" });
    expect(byName.get("--type-scale")).toMatchObject({ kind: "ratio" });
    expect(byName.get("--radius")).toMatchObject({ kind: "px" });
    expect(tokenControls.filter((c) => c.kind === "text")).toEqual([]);
  });

  it("writes a shipped family first, with a fallback stack the parser accepts", () => {
    const value = fontStack("Space Grotesk");
    expect(parseFontFamilyList(value)[0]).toBe("Space Grotesk");
    expect(parseTokensCss(setTokenValue(defaultTokensCss, "--font-heading", value)).properties["--font-heading"]).toBe(
      value,
    );
  });
});
