import { describe, expect, it } from "vitest";
import type { SlideMeasurements } from "@/lib/contract/check";
import { contrastRatio } from "@/lib/contract/color";
import { findingsFor } from "@/lib/render/check-findings";

// The deck check's judgement, from measurements: which findings, of which severity, in which order.

function slide(n: number, overrides: Partial<SlideMeasurements> = {}): SlideMeasurements {
  return {
    slide: n,
    label: `Label ${n}`,
    layout: "content",
    failed: false,
    bodyWords: 12,
    words: 18,
    title: false,
    media: 0,
    lists: [],
    overflow: [],
    fit: 1,
    slideAtFloor: false,
    wordsAtFloor: [],
    overlaps: [],
    contrast: [],
    images: [],
    diagramErrors: [],
    fonts: ["Inter"],
    smallText: [],
    emptyBand: 0,
    sourceText: [],
    missingGlyphs: [],
    zeroSizeImages: [],
    ...overrides,
  };
}

const white = { r: 255, g: 255, b: 255, a: 1 };
const rect = { x: 0, y: 0, w: 100, h: 40 };

describe("the deck check's findings", () => {
  it("computes WCAG contrast ratios", () => {
    expect(contrastRatio({ r: 0, g: 0, b: 0 }, white)).toBeCloseTo(21, 5);
    expect(contrastRatio(white, white)).toBe(1);
    expect(contrastRatio({ r: 0x76, g: 0x76, b: 0x76 }, white)).toBeCloseTo(4.54, 2);
  });

  it("finds nothing on a slide within the rules", () => {
    expect(findingsFor({ slides: [slide(1)], missingFonts: [] })).toEqual([]);
  });

  it("grades contrast: under 3:1 or small text under 4.5:1 is an error, large text between is a warning", () => {
    const text = (ratio: number, large: boolean) => ({
      component: "Text",
      text: "Hello",
      color: white,
      background: white,
      ratio,
      large,
      rect,
    });
    const findings = findingsFor({
      slides: [slide(1, { contrast: [text(2.5, true), text(3.6, true), text(3.6, false), text(4.6, false)] })],
      missingFonts: [],
    });
    expect(findings.map((finding) => [finding.severity, finding.measured])).toEqual([
      ["error", 2.5],
      ["error", 3.6],
      ["warning", 3.6],
    ]);
  });

  it("holds slides to the brief's density rules", () => {
    const findings = findingsFor({
      slides: [
        slide(1, {
          bodyWords: 80,
          lists: [{ component: "Bullets", text: "One…", items: 7, longestItemWords: 16 }],
        }),
      ],
      missingFonts: [],
    });
    expect(findings.map((finding) => [finding.kind, finding.measured])).toEqual([
      ["too-many-words", 80],
      ["too-many-bullets", 7],
      ["long-bullet", 16],
    ]);
    expect(findings.every((finding) => finding.severity === "warning")).toBe(true);
  });

  it("tells an empty slide from a heading alone and from a statement", () => {
    const findings = findingsFor({
      slides: [
        slide(1, { words: 0, bodyWords: 0 }),
        slide(2, { words: 5, bodyWords: 0 }),
        slide(3, { words: 5, bodyWords: 0, layout: "center" }),
        slide(4, { words: 5, bodyWords: 0, media: 1 }),
        slide(5, { words: 5, bodyWords: 0, title: true }),
      ],
      missingFonts: [],
    });
    expect(findings.map((finding) => [finding.slide, finding.kind, finding.severity])).toEqual([
      [1, "empty-slide", "error"],
      [2, "near-empty-slide", "warning"],
    ]);
  });

  it("names labels that are missing or shared, once, and fonts that will be substituted", () => {
    const findings = findingsFor({
      slides: [
        slide(1, { label: "Slide 1" }),
        slide(2, { label: "Same" }),
        slide(3, { label: "Same", fonts: ["Brand Sans", "Inter"] }),
      ],
      missingFonts: ["brand sans"],
    });
    expect(findings.map((finding) => [finding.slide, finding.kind])).toEqual([
      [1, "missing-label"],
      [2, "duplicate-label"],
      [3, "font-substituted"],
    ]);
    expect(findings[0]!.message).toMatch(/^Slide 1 has no label/);
    expect(findings[1]!.message).toContain("Slides 2, 3 share the label “Same”");
    expect(findings[2]!.message).toContain("“Brand Sans”");
  });

  it("puts errors first on each slide, and reports a failed slide alone", () => {
    const findings = findingsFor({
      slides: [
        slide(1, {
          bodyWords: 90,
          overflow: [{ component: "Bullets", text: "A", px: 120, cut: true }],
          overlaps: [{ a: { component: "Stat", text: "$1M" }, b: { component: "Stat", text: "$2M" }, px: 14 }],
        }),
        slide(2, { failed: true, bodyWords: 90 }),
      ],
      missingFonts: [],
    });
    expect(findings.map((finding) => [finding.slide, finding.kind, finding.severity])).toEqual([
      [1, "overflow", "error"],
      [1, "overlap", "error"],
      [1, "too-many-words", "warning"],
      [2, "slide-failed", "error"],
    ]);
    expect(findings[0]!.message).toContain("runs 120 px past the slide's safe area and is cut off");
  });

  it("reports small type by how small: body under 18 pt and labels under 14 pt warn, anything under 12 pt is an error", () => {
    const findings = findingsFor({
      slides: [
        slide(1, {
          smallText: [
            { component: "Bullets", text: "A point", px: 33.6, min: 36 },
            { component: "Stat", text: "up from 21%", px: 26, min: 28 },
            { component: "Text", text: "Fine print", px: 20, min: 36 },
          ],
        }),
      ],
      missingFonts: [],
    });
    expect(findings.map((f) => [f.kind, f.severity, f.measured])).toEqual([
      ["small-text", "error", 20],
      ["small-text", "warning", 33.6],
      ["small-text", "warning", 26],
    ]);
    expect(findings[1]!.message).toContain("16.8 pt (33.6px on the 1920px canvas); body text needs 18 pt");
    expect(findings[2]!.message).toContain("a label needs 14 pt");
  });

  it("reports an empty band over a third of a content slide, and source, missing glyphs and invisible images", () => {
    const findings = findingsFor({
      slides: [
        slide(1, { emptyBand: 0.3 }),
        slide(2, { emptyBand: 0.45 }),
        slide(3, {
          sourceText: [{ component: "Bullets", text: "**12 minutes** to set up", syntax: "Markdown" }],
          missingGlyphs: [{ component: "Text", text: "Ship it 🚀", characters: "🚀" }],
          zeroSizeImages: [{ component: "Image", text: "Logo" }],
        }),
      ],
      missingFonts: [],
    });
    expect(findings.map((f) => [f.slide, f.kind, f.severity])).toEqual([
      [2, "empty-space", "warning"],
      [3, "missing-glyph", "error"],
      [3, "image-zero-size", "error"],
      [3, "source-as-text", "warning"],
    ]);
    expect(findings[0]!.measured).toBe(45);
    expect(findings[1]!.message).toContain("(🚀)");
    expect(findings[3]!.message).toContain("Markdown source");
  });
});
