import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findShippedFont } from "@/lib/contract/fonts";
import { compileDeck } from "@/lib/source/compile";
import { parseTokensCss } from "@/lib/source/tokens";
import { faithful } from "@/lib/import/pptx/faithful";
import { mappedFamilies, shippedFamilyFor } from "@/lib/import/pptx/font-map";
import type { Paragraph, PptxDeck, PptxSlide, Run, Shape } from "@/lib/import/pptx/model";
import { readPptx } from "@/lib/import/pptx/read-pptx";
import { pictureKey } from "@/lib/import/pptx/restyle";

// faithful mode (issue 36, items 2 and 3): a read presentation printed as Frames at the original's places
// and sizes, holding editable Text and Bullets with their formatting, Image, Table and Chart; backgrounds,
// notes, hidden slides and the theme's colours and fonts as tokens. On crafted models and on the samples.

const W = 12_192_000; // 16:9, 13.333 in: 1 px of the canvas is 6,350 EMU
const H = 6_858_000;
const SAMPLES = path.join(import.meta.dirname, "../fixtures/pptx");

const para = (runs: Run[] | string, extra: Partial<Paragraph> = {}): Paragraph => ({
  level: 0,
  bullet: { kind: "none" },
  runs: typeof runs === "string" ? [{ text: runs }] : runs,
  ...extra,
});
const box = { x: 635_000, y: 1_270_000, width: 6_350_000, height: 3_175_000 }; // 100, 200, 1000 x 500 px
const text = (paragraphs: Paragraph[], extra: Partial<Shape> = {}): Shape =>
  ({ kind: "text", name: "Text", frame: box, paragraphs, ...extra }) as Shape;

function deckOf(...slides: Array<Partial<PptxSlide> & { shapes: Shape[] }>): PptxDeck {
  return {
    title: "",
    width: W,
    height: H,
    slides: slides.map((slide, index) => ({ number: index + 1, hidden: false, layoutName: "", notes: "", ...slide })),
    media: {},
    theme: { colors: {} },
    warnings: [],
  };
}

async function compiles(source: string) {
  const compiled = await compileDeck({ source, format: "slides" });
  expect(compiled.outline.length).toBeGreaterThan(0);
  return compiled;
}

const sample = (name: string) => readPptx(fs.readFileSync(path.join(SAMPLES, name)));

describe("faithful: frames", () => {
  it("places a text frame at its position and size, inset as PowerPoint insets text, its type in canvas px", async () => {
    const made = faithful(deckOf({ shapes: [text([para([{ text: "Hello", size: 24 }])])] }), new Map(), "T");
    // 0.1 in (14.4 px) left and right, 0.05 in (7.2 px) top and bottom; 24 pt on a 13.333 in canvas is 48 px.
    expect(made.source).toContain("<Frame x={114} y={207} w={971} h={486} size={48}>");
    expect(made.source).toContain("<Text>Hello</Text>");
    await compiles(made.source);
  });

  it("scales a 4:3 presentation to the canvas's height and centres it, with a warning", () => {
    const deck = {
      ...deckOf({
        shapes: [
          text([para([{ text: "Hi", size: 18 }])], { frame: { x: 0, y: 0, width: 9_144_000, height: 6_858_000 } }),
        ],
      }),
      width: 9_144_000,
    };
    const made = faithful(deck, new Map(), undefined);
    // 1440 px wide, centred: 240 px on each side.
    expect(made.source).toMatch(/<Frame x=\{254\} y=\{7\} w=\{1411\} h=\{1066\} size=\{36\}>/);
    expect(made.warnings).toContainEqual({ slide: 0, message: expect.stringMatching(/1\.33:1, not 16:9/) });
  });

  it("keeps a filled shape as a filled Frame (rounded or an ellipse) under its text, vertical anchor kept", async () => {
    const made = faithful(
      deckOf({
        shapes: [
          text([para("Badge")], { fill: "#C0504D", geometry: "ellipse", anchor: "middle" } as Partial<Shape>),
          text([para("")], { fill: "#4F81BD", geometry: "roundRect" } as Partial<Shape>),
          text([para("")], { fill: "#9BBB59", geometry: "rtTriangle" } as Partial<Shape>),
          text([para("")], { fill: "#F79646", geometry: "star5" } as Partial<Shape>),
          text([para("")], { fill: "#8064A2", geometry: "custom" } as Partial<Shape>),
        ],
      }),
      new Map(),
      "T",
    );
    expect(made.source).toContain('<Frame x={100} y={200} w={1000} h={500} fill="#C0504D" shape="ellipse" />');
    expect(made.source).toMatch(/<Frame x=\{114\} [^>]*valign="middle">\s*<Text>Badge<\/Text>/);
    expect(made.source).toContain('fill="#4F81BD" shape="rounded" />');
    expect(made.source).toContain('fill="#9BBB59" shape="right-triangle" />');
    expect(made.source).toContain('fill="#F79646" />');
    expect(made.warnings).toContainEqual({ slide: 1, message: 'the shape "Text" (star5) is drawn as a box' });
    // A freeform is left out (the reader says so).
    expect(made.source).not.toContain("#8064A2");
    await compiles(made.source);
  });

  it("draws a picture as shown (its cropped copy), a table and a chart in their frames", async () => {
    const crop = { left: 10, top: 0, right: 10, bottom: 0 };
    const made = faithful(
      deckOf({
        shapes: [
          { kind: "picture", name: "Photo", frame: box, media: "ppt/media/a.png", alt: "A photo", crop },
          {
            kind: "table",
            name: "Table",
            frame: box,
            headerRow: true,
            columnWidths: [1, 1],
            rows: [
              [
                { paragraphs: [para([{ text: "Region", size: 12 }])], rowSpan: 1, colSpan: 2, merged: false },
                { paragraphs: [], rowSpan: 1, colSpan: 1, merged: true },
              ],
              [
                { paragraphs: [para("North")], rowSpan: 1, colSpan: 1, merged: false },
                { paragraphs: [para("120")], rowSpan: 1, colSpan: 1, merged: false },
              ],
            ],
          },
          {
            kind: "chart",
            name: "Chart",
            frame: box,
            chart: {
              type: "column",
              stacked: false,
              categories: ["Q1", "Q2"],
              series: [{ name: "Sales", values: [3, 5] }],
            },
          },
        ],
      }),
      new Map([[pictureKey("ppt/media/a.png", crop), "/assets/abc.png"]]),
      "T",
    );
    expect(made.source).toMatch(
      /<Frame x=\{100\} y=\{200\} w=\{1000\} h=\{500\}>\s*<Image src="\/assets\/abc.png" alt="A photo" \/>/,
    );
    expect(made.source).toMatch(
      /<Frame [^>]*size=\{24\}>\s*<Table columns=\{\["Region", ""\]\} rows=\{\[\["North", "120"\]\]\} \/>/,
    );
    expect(made.warnings).toContainEqual({
      slide: 1,
      message: 'the merged cells of "Table" are split (the text stays in the first cell)',
    });
    expect(made.source).toMatch(/<Frame [^>]*>\s*<Chart\s+type="bar"\s+data=\{\[\s*\{ label: "Q1", value: 3 \}/);
    await compiles(made.source);
  });

  it("flattens groups: their shapes come in at their places in the slide", () => {
    const made = faithful(
      deckOf({
        shapes: [
          {
            kind: "group",
            name: "Group",
            frame: box,
            children: [text([para("Inside")], { name: "Inner" } as Partial<Shape>)],
          },
        ],
      }),
      new Map(),
      "T",
    );
    expect(made.source).toMatch(/<Frame x=\{114\} y=\{207\} w=\{971\} h=\{486\}[^>]*>\s*<Text>Inside<\/Text>/);
  });
});

describe("faithful: text", () => {
  it("keeps list levels as nested Bullets, and numbering that continues across deeper points", async () => {
    const number = { kind: "number", scheme: "arabicPeriod", startAt: 1 } as const;
    const dot = { kind: "char", char: "•" } as const;
    const made = faithful(
      deckOf({
        shapes: [
          text([
            para("Plan", { bullet: number }),
            para("Detail one", { bullet: dot, level: 1 }),
            para("Detail two", { bullet: dot, level: 1 }),
            para("Build", { bullet: number }),
            para("Ship", { bullet: number }),
            para("After a break"),
            para("Again", { bullet: { kind: "number", scheme: "arabicPeriod", startAt: 5 } }),
            para("Done", { bullet: { kind: "char", char: "✓" } }),
          ]),
        ],
      }),
      new Map(),
      "T",
    );
    const body = made.source.replace(/\s+/g, " ");
    expect(body).toContain(
      '<Bullets marker="number"> <Text>Plan</Text> <Bullets> <Text>Detail one</Text> <Text>Detail two</Text> </Bullets> <Text>Build</Text> <Text>Ship</Text> </Bullets>',
    );
    expect(body).toContain("<Text>After a break</Text>");
    expect(body).toContain('<Bullets marker="number" start={5}> <Text>Again</Text> </Bullets>');
    expect(body).toContain('<Bullets marker="check"> <Text>Done</Text> </Bullets>');
    await compiles(made.source);
  });

  it("keeps bold, italic, underline, colours, sizes, fonts and links inline; breaks as <br />", async () => {
    const made = faithful(
      deckOf({
        shapes: [
          text([
            para([
              { text: "Plain ", size: 20, color: "#111111" },
              { text: "bold", size: 20, bold: true, color: "#111111" },
              { text: " and ", size: 20, color: "#111111" },
              { text: "red", size: 20, color: "#C00000", italic: true },
              { text: " ", size: 20, color: "#111111" },
              { text: "under", size: 20, underline: true, color: "#111111" },
              { text: " small", size: 10, color: "#111111" },
              { text: "\n", size: 20 },
              { text: "site", size: 20, href: "https://example.com/", color: "#111111" },
              { text: " mono", size: 20, color: "#111111", font: "Consolas" },
            ]),
          ]),
        ],
      }),
      new Map(),
      "T",
    );
    expect(made.source).toContain('size={40} color="#111111"');
    // The printer writes a space between two elements as {" "} (JSX would drop it at a line break).
    expect(made.source.replace(/\s*\n\s*/g, "")).toContain(
      '<Text>Plain <strong>bold</strong> and <em><span style={{ color: "#C00000" }}>red</span></em>{" "}<u>under</u><span style={{ fontSize: "0.5em" }}> small</span><br /><Link href="https://example.com/">site</Link><span style={{ fontFamily: "\\"JetBrains Mono\\"" }}> mono</span></Text>',
    );
    expect(made.warnings).toContainEqual({
      slide: 0,
      message: 'the font "Consolas" is not shipped; drawn in JetBrains Mono, the closest',
    });
    await compiles(made.source);
  });

  it("sizes a frame by its largest type, so no line of bigger runs is spaced for smaller ones", () => {
    const made = faithful(
      deckOf({
        shapes: [
          text([para([{ text: "Big point", size: 32 }]), para([{ text: "a longer small line of detail", size: 16 }])]),
        ],
      }),
      new Map(),
      "T",
    );
    expect(made.source).toContain("size={64}>");
    expect(made.source).toContain(
      '<Text><span style={{ fontSize: "0.5em" }}>a longer small line of detail</span></Text>',
    );
  });

  it("takes sizes, colours and fonts the paragraph inherits, and PowerPoint's shrink factor", () => {
    const made = faithful(
      deckOf({
        shapes: [
          text([para("Inherited", { inherited: { size: 40, color: "#1F497D", font: "Georgia", bold: true } })], {
            fontScale: 0.5,
          } as Partial<Shape>),
        ],
      }),
      new Map(),
      "T",
    );
    expect(made.source).toContain('size={40} color="#1F497D" font="Merriweather">');
    expect(made.source).toContain("<Text><strong>Inherited</strong></Text>");
  });

  it("keeps an empty paragraph's line and leaves out empty placeholders", () => {
    const made = faithful(
      deckOf({
        shapes: [
          text([para("One"), para(""), para("Two")]),
          text([para("")], { placeholder: { type: "body" } } as Partial<Shape>),
        ],
      }),
      new Map(),
      "T",
    );
    expect(made.source.replace(/\s+/g, " ")).toContain("<Text>One</Text> <Text><br /></Text> <Text>Two</Text>");
    expect(made.source.match(/<Frame /g)).toHaveLength(1);
  });
});

describe("faithful: slides and the deck", () => {
  it("backgrounds: solid as the slide's colour, a gradient and a picture as a Frame under everything", async () => {
    const made = faithful(
      deckOf(
        { shapes: [], background: { kind: "solid", color: "#EEECE1" } },
        {
          shapes: [],
          background: {
            kind: "gradient",
            angle: 90,
            stops: [
              { position: 100, color: "#FFFFFF" },
              { position: 0, color: "#4F81BD" },
            ],
          },
        },
        { shapes: [text([para("Over")])], background: { kind: "picture", media: "ppt/media/bg.jpeg" } },
      ),
      new Map([[pictureKey("ppt/media/bg.jpeg"), "/assets/bg.jpeg"]]),
      "T",
    );
    expect(made.source).toContain('<Slide label="Slide 1" backgroundColor="#EEECE1" />');
    // DrawingML 90° (top to bottom) is CSS 180°, stops in order.
    expect(made.source).toContain(
      'gradient={{ angle: 180, stops: [{ color: "#4F81BD", at: 0 }, { color: "#FFFFFF", at: 100 }] }}',
    );
    expect(made.source).toMatch(
      /<Frame x=\{0\} y=\{0\} w=\{1920\} h=\{1080\}>\s*<Image src="\/assets\/bg.jpeg" alt="" \/>\s*<\/Frame>\s*<Frame x=\{114\}/,
    );
    await compiles(made.source);
  });

  it("labels a slide by its title placeholder, keeps notes, skips hidden slides with a warning", () => {
    const made = faithful(
      deckOf(
        {
          shapes: [text([para("Churn halved")], { placeholder: { type: "title" } } as Partial<Shape>)],
          notes: "Say it slowly",
        },
        { shapes: [text([para("Secret")])], hidden: true },
      ),
      new Map(),
      undefined,
    );
    expect(made.source).toContain('<Slide label="Churn halved" notes="Say it slowly">');
    expect(made.source).not.toContain("Secret");
    expect(made.slides).toBe(1);
    expect(made.title).toBe("Churn halved");
    expect(made.warnings).toContainEqual({ slide: 2, message: "a hidden slide; skipped" });
  });

  it("writes the theme's colours and fonts as the deck's tokens, every font a shipped one, the rest defaults", () => {
    const deck = deckOf({ shapes: [] });
    deck.theme = {
      colors: { dk1: "#000000", lt1: "#FFFFFF", accent1: "#4F81BD", accent2: "#C0504D", accent3: "#9BBB59" },
      majorFont: "Calibri Light",
      minorFont: "Lato",
    };
    const made = faithful(deck, new Map(), "T");
    const tokens = parseTokensCss(made.tokensCss).properties;
    expect(tokens).toMatchObject({
      "--color-text": "#000000",
      "--color-bg": "#FFFFFF",
      "--color-primary": "#4F81BD",
      "--color-secondary": "#C0504D",
      "--color-accent": "#9BBB59",
      "--font-heading": '"Open Sans", sans-serif',
      "--font-body": '"Lato", sans-serif',
      "--type-base": "48px",
    });
    expect(made.warnings).toContainEqual({
      slide: 0,
      message: 'the font "Calibri Light" is not shipped; drawn in Open Sans, the closest',
    });
    expect(made.warnings.filter((warning) => /"Lato"/.test(warning.message))).toEqual([]);
  });

  it("maps fonts to shipped families only", () => {
    for (const family of mappedFamilies) expect(findShippedFont(family), family).toBeDefined();
    expect(shippedFamilyFor("Times New Roman")).toEqual({ family: "Source Serif 4", exact: false });
    expect(shippedFamilyFor("MS Mincho")).toEqual({ family: "Source Serif 4", exact: false });
    expect(shippedFamilyFor("Some Unknown Face")).toEqual({ family: "Inter", exact: false });
    expect(shippedFamilyFor("Lucida Sans Unicode")).toEqual({ family: "Open Sans", exact: false });
    expect(shippedFamilyFor("Lucida Sans Typewriter")).toEqual({ family: "JetBrains Mono", exact: false });
    expect(shippedFamilyFor("roboto")).toEqual({ family: "Roboto", exact: true });
  });
});

describe("faithful: the samples", () => {
  it("inherits placeholders' places, sizes and anchors from layouts and masters (a title at 44 pt)", () => {
    const made = faithful(sample("poi-SampleShow.pptx"), new Map(), undefined);
    // A 4:3 title placeholder of the master: 44 pt is 88 px on the canvas, anchored in the middle.
    expect(made.source).toContain('<Frame x={362} y={343} w={1195} h={217} size={88} valign="middle">');
    expect(made.source).toContain(
      '<Text align="center"><em><span style={{ color: "#92D050" }}>This bit is in italic green</span></em></Text>',
    );
    expect(made.source).toContain('notes="I am the notes of the first slide"');
  });

  it("draws the master's and layout's decorations behind each slide's own shapes", () => {
    const made = faithful(sample("poi-ae.ac.uaeu.faculty_nafaachbili_GeomLec1.pptx"), new Map(), undefined);
    const second = made.source.split("<Slide ")[2]!;
    // The master's right triangle in the corner, before the slide's own bullets.
    expect(second).toMatch(/fill="#2DA2BF" shape="right-triangle" \/>[\s\S]*From Alexandria Egypt/);
    // Its layout maps the background to dk1 and the text to lt1 (clrMapOvr): a dark slide with light text.
    expect(second).toMatch(/^label="Slide 2" backgroundColor="#000000">/);
    expect(second).toMatch(/<Frame [^>]*color="#FFFFFF">\s*<Bullets>\s*<Text>From Alexandria Egypt/);
  });

  it("keeps drawn shapes of a group with their theme fill, and backgrounds of every kind", () => {
    const groups = faithful(sample("python-pptx-shp-groupshape.pptx"), new Map(), undefined);
    expect(groups.source.match(/<Frame [^>]*fill="#4F81BD"/g)?.length).toBeGreaterThanOrEqual(4);
    expect(groups.source).toContain('shape="rounded"');
    expect(groups.source).toContain('shape="ellipse"');
    const backgrounds = sample("poi-backgrounds.pptx");
    const urls = new Map(Object.keys(backgrounds.media).map((media) => [pictureKey(media), `/assets/${media}`]));
    const made = faithful(backgrounds, urls, undefined);
    expect(made.source).toContain('backgroundColor="#EEECE1"');
    expect(made.source).toMatch(/gradient=\{\{ angle: \d+, stops: \[/);
    expect(made.source).toMatch(
      /<Frame x=\{0\} y=\{0\} w=\{1920\} h=\{1080\}>\s*<Image src="\/assets\/ppt\/media\/[^"]+" alt="" \/>/,
    );
  });

  it("prints every sample as a module that compiles, with tokens the token parser takes", async () => {
    for (const name of fs.readdirSync(SAMPLES).sort()) {
      if (name === "poi-Divino_Revelado.pptx") continue; // cut short: the reader refuses it
      const deck = sample(name);
      const urls = new Map(Object.keys(deck.media).map((media) => [pictureKey(media), `/assets/${media}`]));
      const made = faithful(deck, urls, undefined);
      expect(() => parseTokensCss(made.tokensCss), name).not.toThrow();
      const compiled = await compiles(made.source);
      expect(compiled.outline, name).toHaveLength(made.slides);
    }
  }, 120_000);
});
