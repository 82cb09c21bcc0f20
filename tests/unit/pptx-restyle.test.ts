import { describe, expect, it } from "vitest";
import { compileDeck } from "@/lib/source/compile";
import type { Paragraph, PptxDeck, PptxSlide, Shape } from "@/lib/import/pptx/model";
import { pictureKey } from "@/lib/import/pptx/common";
import { restyle } from "@/lib/import/pptx/restyle";

// restyle mode: a read presentation mapped into the vocabulary's own components, printed as a module that
// compiles, with a warning for each thing approximated or left out.

const W = 12_192_000;
const H = 6_858_000;

const frame = (x: number, y: number, width = W / 3, height = H / 6) => ({ x, y, width, height });
const para = (text: string, extra: Partial<Paragraph> = {}): Paragraph => ({
  level: 0,
  bullet: { kind: "none" },
  runs: [{ text }],
  ...extra,
});
const text = (paragraphs: Paragraph[], at = frame(0, H / 3), extra: Partial<Shape> = {}): Shape =>
  ({ kind: "text", name: "Text", frame: at, paragraphs, ...extra }) as Shape;
const title = (words: string, type = "title"): Shape =>
  text([para(words)], frame(0, 0), { placeholder: { type } } as Partial<Shape>);

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

describe("restyle: what maps", () => {
  it("a cover's title and subtitle as Title, a slide's title as Heading and label, notes kept", async () => {
    const made = restyle(
      deckOf(
        {
          shapes: [
            title("Quarterly review", "ctrTitle"),
            text([para("Q3 2026")], frame(0, H / 2), { placeholder: { type: "subTitle" } } as Partial<Shape>),
          ],
        },
        { shapes: [title("Churn halved"), text([para("Because onboarding got shorter")])], notes: "Say it slowly" },
      ),
      new Map(),
      undefined,
    );
    expect(made.title).toBe("Quarterly review");
    expect(made.source).toContain('<Slide label="Quarterly review" layout="center">');
    expect(made.source).toContain('<Title subtitle="Q3 2026">Quarterly review</Title>');
    expect(made.source).toContain('<Slide label="Churn halved" notes="Say it slowly">');
    expect(made.source).toContain("<Heading>Churn halved</Heading>");
    expect((await compiles(made.source)).outline).toEqual(["Quarterly review", "Churn halved"]);
  });

  it("bulleted paragraphs as Bullets (numbered when every point is), bold and italic inline, levels kept", async () => {
    const bullet = { kind: "char", char: "•" } as const;
    const made = restyle(
      deckOf({
        shapes: [
          title("Plan"),
          text([
            para("Intro line"),
            para("One", { bullet }),
            para("Two", { bullet, level: 1 }),
            {
              level: 0,
              bullet,
              runs: [{ text: "Bold", bold: true }, { text: " and " }, { text: "slanted", italic: true }],
            },
            para("first", { bullet: { kind: "number", scheme: "arabicPeriod", startAt: 1 } }),
            para("second", { bullet: { kind: "number", scheme: "arabicPeriod", startAt: 1 } }),
          ]),
        ],
      }),
      new Map(),
      undefined,
    );
    expect(made.source).toContain("<Text>Intro line</Text>");
    // The second-level point is a sub-list after its point.
    expect(made.source).toMatch(
      /<Bullets>\s*<Text>One<\/Text>\s*<Bullets>\s*<Text>Two<\/Text>\s*<\/Bullets>\s*<Text><strong>Bold<\/strong>(\{" and "\}| and )<em>slanted<\/em><\/Text>/,
    );
    expect(made.source).toContain('<Bullets items={["first", "second"]} marker="number" />');
    expect(made.warnings.map((warning) => warning.message).join("\n")).not.toMatch(/level/);
    await compiles(made.source);
  });

  it("list levels as nested items, and a slide's own name as its label (not pptxgenjs's \"Slide N\")", async () => {
    const bullet = { kind: "char", char: "•" } as const;
    const made = restyle(
      deckOf(
        {
          name: "The plan, in short",
          shapes: [
            title("What we do next"),
            text([
              para("Plan", { bullet }),
              para("Measure", { bullet, level: 1 }),
              para("Weekly", { bullet, level: 2 }),
              para("Cut", { bullet, level: 1 }),
              para("Ship", { bullet }),
            ]),
          ],
        },
        { name: "Slide 2", shapes: [title("Thanks")] },
      ),
      new Map(),
      undefined,
    );
    expect(made.source).toContain('<Slide label="The plan, in short">');
    expect(made.source).toContain("<Heading>What we do next</Heading>");
    expect(made.source).toContain('<Bullets items={["Plan", ["Measure", ["Weekly"], "Cut"], "Ship"]} />');
    expect(made.source).toContain('<Slide label="Thanks">');
    const compiled = await compiles(made.source);
    expect(compiled.outline).toEqual(["The plan, in short", "Thanks"]);
  });

  it("tables, charts, pictures beside text, quotes, figures and links", async () => {
    const cell = (words: string, extra = {}) => ({
      paragraphs: [para(words)],
      rowSpan: 1,
      colSpan: 1,
      merged: false,
      ...extra,
    });
    const table: Shape = {
      kind: "table",
      name: "Table 1",
      frame: frame(0, H / 2),
      headerRow: true,
      columnWidths: [1, 1],
      rows: [
        [cell("Region"), cell("Sales")],
        [cell("North", { colSpan: 2 }), cell("", { merged: true })],
      ],
    };
    const chart = (type: "doughnut" | "scatter" | "column"): Shape => ({
      kind: "chart",
      name: "Chart",
      frame: frame(0, H / 2),
      chart: {
        type,
        stacked: type === "column",
        categories: type === "scatter" ? [] : ["A", "B"],
        series:
          type === "scatter"
            ? [{ name: "S", values: [5, null], x: [1, 2] }]
            : [{ name: "One", values: [1, 2] }, ...(type === "column" ? [{ name: "Two", values: [3, 4] }] : [])],
        ...(type === "column" ? { title: "Revenue" } : {}),
      },
    });
    const picture: Shape = {
      kind: "picture",
      name: "Photo",
      frame: frame(W * 0.6, H / 3),
      media: "ppt/media/a.png",
      alt: "A harbour",
      crop: { left: 10, top: 0, right: 0, bottom: 0 },
    };
    const pictures = new Map([
      [pictureKey("ppt/media/a.png", { left: 10, top: 0, right: 0, bottom: 0 }), "/assets/" + "a".repeat(64) + ".png"],
    ]);
    const made = restyle(
      deckOf(
        { shapes: [title("Sales"), table] },
        { shapes: [title("Mix"), chart("doughnut")] },
        { shapes: [title("Trend"), chart("scatter")] },
        { shapes: [title("Revenue"), chart("column")] },
        { shapes: [title("Harbour"), text([para("Left side text")], frame(0, H / 3)), picture] },
        { shapes: [text([para("“Ship small, ship often.”"), para("— Ada Lovelace, Analyst")])] },
        { shapes: [title("Growth"), text([para("42%"), para("more sign-ups")])] },
        {
          shapes: [
            title("Read more"),
            text([
              { level: 0, bullet: { kind: "none" }, runs: [{ text: "the docs", href: "https://example.com/docs" }] },
            ]),
          ],
        },
        { shapes: [title("Secret")], hidden: true },
      ),
      pictures,
      "Given title",
    );
    const s = made.source;
    expect(made.title).toBe("Given title");
    expect(made.slides).toBe(8);
    expect(s).toContain('<Table columns={["Region", "Sales"]} rows={[["North", ""]]} />');
    expect(s).toMatch(
      /<Chart\s+type="pie"\s+data=\{\[\s*\{ label: "A", value: 1 \},\s*\{ label: "B", value: 2 \},?\s*\]\}/,
    );
    expect(s).toMatch(/<Chart\s+type="line"\s+data=\{\[\s*\{ label: "1", value: 5 \},\s*\{ label: "2", value: 0 \}/);
    expect(s).toMatch(/<Chart\s+type="bar"\s+title="Revenue"\s+labels=\{\["A", "B"\]\}\s+series=\{\[/);
    expect(s).toContain("stacked");
    expect(s).toMatch(
      /<Columns>\s*<Text>Left side text<\/Text>\s*<Image\s+src="\/assets\/a{64}\.png"\s+alt="A harbour"\s+fit="contain"\s+\/>\s*<\/Columns>/,
    );
    expect(s).toContain('<Quote by="Ada Lovelace" role="Analyst">Ship small, ship often.</Quote>');
    expect(s).toContain('<Stat value="42%" label="more sign-ups" />');
    // A link is the vocabulary's own Link, in its text.
    expect(s).toContain('<Text><Link href="https://example.com/docs">the docs</Link></Text>');
    expect(s).not.toContain("Secret");
    expect(made.warnings.map((w) => `${w.slide}: ${w.message}`)).toEqual(
      expect.arrayContaining([
        '1: the merged cells of "Table 1" are split (the text stays in the first cell)',
        "2: a doughnut chart drawn as a pie chart",
        "3: a scatter chart drawn as a line chart over its x values",
        "3: a chart's missing values are drawn as 0",
        "9: a hidden slide; skipped",
      ]),
    );
    await compiles(s);
  });

  it("a presentation without a slide to show becomes a cover, and a picture background the slide's image", async () => {
    const empty = restyle(deckOf({ shapes: [], hidden: true }), new Map(), undefined);
    expect(empty.slides).toBe(1);
    expect(empty.source).toContain("<Title>Imported deck</Title>");
    await compiles(empty.source);
    const url = `/assets/${"b".repeat(64)}.png`;
    const backed = restyle(
      deckOf({ shapes: [title("Over a photo")], background: { kind: "picture", media: "ppt/media/bg.png" } }),
      new Map([["ppt/media/bg.png", url]]),
      undefined,
    );
    expect(backed.source).toContain(`<Slide label="Over a photo" image="${url}">`);
  });
});
