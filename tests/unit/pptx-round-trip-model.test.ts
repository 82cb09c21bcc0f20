import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import type { SlideModel, TextList, TextRun } from "@/lib/contract/slide-model";
import { buildPptx } from "@/lib/exports/build-pptx";
import { readPptx } from "@/lib/import/pptx/read-pptx";
import { restyle } from "@/lib/import/pptx/restyle";

// The round trip's file half, without a browser: what the PPTX builder writes for a slide's label and a
// list's levels is what the reader takes back, and restyle prints them as the vocabulary writes them (the
// browser half, from a deck to the model, is tests/e2e/pptx-round-trip.test.ts).

const white = { hex: "FFFFFF", alpha: 1 };
const ink = { hex: "111111", alpha: 1 };

const run = (text: string, breakAfter = false): TextRun => ({
  text,
  font: "Inter",
  size: 40,
  bold: false,
  italic: false,
  underline: false,
  strike: false,
  color: ink,
  letterSpacing: 0,
  ...(breakAfter ? { breakAfter } : {}),
});

const list: TextList = {
  marker: { kind: "char", char: "•" },
  color: ink,
  font: "Inter",
  sizePercent: 100,
  indent: 40,
  gap: 20,
};

function slide(label: string | undefined, points: string[], levels?: number[]): SlideModel {
  return {
    background: white,
    ...(label ? { label } : {}),
    items: [
      {
        kind: "text",
        rect: { x: 100, y: 40, w: 1600, h: 100 },
        runs: [{ ...run("Heading"), size: 96 }],
        align: "left",
        lineHeight: 110,
        singleLine: true,
      },
      {
        kind: "text",
        rect: { x: 100, y: 300, w: 1200, h: 400 },
        runs: points.map((point, index) => run(point, index < points.length - 1)),
        align: "left",
        lineHeight: 56,
        singleLine: false,
        list: { ...list, ...(levels ? { levels, levelIndent: 30 } : {}) },
      },
    ],
  };
}

describe("a slide's label and a list's levels through the file", () => {
  it("writes the label as the slide's name and each point at its level, and reads both back", async () => {
    const bytes = await buildPptx({
      title: "Round trip",
      slides: [
        slide('Plan & "next" <steps>\u0001', ["Plan", "Measure", "Weekly", "Cut", "Ship"], [0, 1, 2, 1, 0]),
        slide(undefined, ["One", "Two"]),
      ],
      notes: ["", ""],
      rasters: new Map(),
    });
    // Each level's points step in by the player's levelIndent (30 px = 15 pt), after the hanging indent (20 pt).
    const xml = await (await JSZip.loadAsync(bytes)).file("ppt/slides/slide1.xml")!.async("string");
    const margins = [...xml.matchAll(/<a:pPr\b[^>]*?\blvl="(\d)"[^>]*?\bmarL="(\d+)"/g)].map((m) => [m[1], m[2]]);
    expect(margins).toEqual([
      ["1", String(20 * 12_700 + 15 * 12_700)],
      ["2", String(20 * 12_700 + 2 * 15 * 12_700)],
      ["1", String(20 * 12_700 + 15 * 12_700)],
    ]);
    const deck = readPptx(new Uint8Array(bytes));
    expect(deck.slides.map((s) => s.name)).toEqual(['Plan & "next" <steps>', "Slide 2"]);
    const points = deck.slides[0]!.shapes.find((shape) => shape.kind === "text" && shape.paragraphs.length > 1);
    expect(
      points?.kind === "text" && points.paragraphs.map((p) => [p.runs.map((r) => r.text).join(""), p.level]),
    ).toEqual([
      ["Plan", 0],
      ["Measure", 1],
      ["Weekly", 2],
      ["Cut", 1],
      ["Ship", 0],
    ]);
    expect(points?.kind === "text" && points.paragraphs.every((p) => p.bullet.kind === "char")).toBe(true);

    const made = restyle(deck, new Map(), undefined);
    expect(made.source).toContain('<Slide label={"Plan & \\"next\\" <steps>"}>');
    expect(made.source).toContain('<Bullets items={["Plan", ["Measure", ["Weekly"], "Cut"], "Ship"]} />');
    // pptxgenjs's own "Slide N" is no label: the heading is.
    expect(made.source).toContain('<Slide label="Heading">');
    expect(made.source).toContain('<Bullets items={["One", "Two"]} />');
  });
});
