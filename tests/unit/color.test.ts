import { wcagContrast, wcagLuminance } from "culori";
import { describe, expect, it } from "vitest";
import { contrastOf, contrastRatio as brandContrastRatio, isDark } from "@/lib/brands/extract/color-math";
import { composite, contrastRatio, parseHex, relativeLuminance } from "@/lib/contract/color";
import { fontStack } from "@/lib/contract/fonts";

// The one colour module (lib/contract/color.ts) and the one font stack (lib/contract/fonts.ts) that the deck
// check, the player's diagrams, the brand palette and the theme panel share; culori is the oracle.

const samples = ["#000000", "#ffffff", "#767676", "#1d4ed8", "#c2410c", "#0f766e", "#f5f5f4", "#fe0", "#123abc"];

describe("the colour module", () => {
  it("reads #rgb and #rrggbb, and nothing else", () => {
    expect(parseHex("#1D4ED8")).toEqual({ r: 0x1d, g: 0x4e, b: 0xd8 });
    expect(parseHex(" #fe0 ")).toEqual({ r: 0xff, g: 0xee, b: 0x00 });
    for (const bad of ["1d4ed8", "#12345", "#1234567", "red", "#ggg", ""]) expect(parseHex(bad), bad).toBeNull();
  });

  it("gives WCAG 2 luminance and contrast as culori does", () => {
    for (const a of samples) {
      expect(relativeLuminance(parseHex(a)!), a).toBeCloseTo(wcagLuminance(a), 4);
      for (const b of samples)
        expect(contrastRatio(parseHex(a)!, parseHex(b)!), `${a} ${b}`).toBeCloseTo(wcagContrast(a, b), 3);
    }
    expect(contrastRatio(parseHex("#000")!, parseHex("#fff")!)).toBeCloseTo(21, 5);
  });

  it("paints a translucent colour over an opaque one", () => {
    expect(composite({ r: 255, g: 0, b: 0, a: 0.5 }, { r: 0, g: 0, b: 255 })).toEqual({
      r: 127.5,
      g: 0,
      b: 127.5,
      a: 1,
    });
    expect(composite({ r: 10, g: 20, b: 30, a: 1 }, { r: 255, g: 255, b: 255 })).toEqual({ r: 10, g: 20, b: 30, a: 1 });
  });

  it("is what the brand palette measures with, for any CSS colour", () => {
    expect(contrastOf("#1d4ed8", "#ffffff")).toBe(contrastRatio(parseHex("#1d4ed8")!, parseHex("#ffffff")!));
    expect(brandContrastRatio("rgb(29 78 216)", "white")).toBe(Math.round(wcagContrast("#1d4ed8", "#fff") * 100) / 100);
    expect([isDark("#111111"), isDark("#1d4ed8"), isDark("#ffffff"), isDark("#fe0")]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});

describe("the font stack", () => {
  it("writes a shipped family under its shipped name, then the system faces of its kind", () => {
    expect(fontStack("space grotesk")).toBe('"Space Grotesk", "Helvetica Neue", Arial, system-ui, sans-serif');
    expect(fontStack("Lora", "sans")).toBe('"Lora", Georgia, "Times New Roman", serif');
    expect(fontStack("Fira Code")).toBe('"Fira Code", "SFMono-Regular", Menlo, Consolas, monospace');
  });

  it("puts the shipped face of the kind after a family Deckhand does not ship", () => {
    expect(fontStack("Acme Serif", "serif")).toBe('"Acme Serif", "Source Serif 4", Georgia, "Times New Roman", serif');
    expect(fontStack(undefined, "mono")).toBe('"JetBrains Mono", "SFMono-Regular", Menlo, Consolas, monospace');
    expect(fontStack("  ")).toBe('"Inter", "Helvetica Neue", Arial, system-ui, sans-serif');
  });

  it("drops what could end the CSS string, the declaration or an inline <style> from a name read from a website", () => {
    expect(fontStack('Evil"; } </style><script>', "display")).toBe(
      '"Evil  /stylescript", "Playfair Display", Georgia, "Times New Roman", serif',
    );
  });
});
