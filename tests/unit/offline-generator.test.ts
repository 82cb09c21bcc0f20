import { describe, expect, it } from "vitest";
import { generateOfflineDeck } from "@/lib/ai/offline/generate-deck";
import { AppError } from "@/lib/core/errors";
import { compileDeck } from "@/lib/deck/compile";
import { readDeck } from "../helpers/read-deck";

// The offline generator on briefs of every shape (the samples are in offline-samples.test.ts), the
// density rules of the authoring brief, and arbitrary Markdown: a deck that compiles or a 422, nothing else.

type Format = "slides" | "webpage";

async function generateAndCheck(brief: string, options: { format?: Format; title?: string } = {}) {
  const format = options.format ?? "slides";
  const deck = generateOfflineDeck({ brief, format, ...(options.title ? { title: options.title } : {}) });
  expect(generateOfflineDeck({ brief, format, ...(options.title ? { title: options.title } : {}) }).source).toBe(
    deck.source,
  );
  const compiled = await compileDeck({ source: deck.source, format });
  expect(compiled.outline).toEqual(deck.outline);
  expect(new Set(deck.outline.map((label) => label.toLowerCase())).size).toBe(deck.outline.length);
  const slides = readDeck(deck.source);
  for (const slide of slides) {
    const items = slide.elements
      .filter((element) => element.name === "Bullets")
      .flatMap((element) => element.props.items as string[]);
    expect(items.length, slide.label).toBeLessThanOrEqual(5);
    for (const item of items) expect(item.split(/\s+/).length, item).toBeLessThanOrEqual(13);
    expect(slide.notes).not.toMatch(/^\s*[-*|#]|\|\s*---/m);
  }
  expect(deck.source).not.toMatch(/#[0-9a-f]{3,6}\b|style=|className=/i);
  return { ...deck, slides };
}

function essay(words: number): string {
  const topics = ["onboarding", "pricing", "support", "hiring", "security", "platform", "design", "sales"];
  const paragraphs: string[] = [];
  let count = 0;
  for (let p = 0; count < words; p++) {
    const topic = topics[p % topics.length] ?? "work";
    const paragraph = [
      `Our ${topic} work changed a lot in year ${p + 1} of the plan.`,
      `The team ran ${p + 12} small tests and kept the ones that moved the metric.`,
      `Customers told us the old flow was slow, hard to follow and easy to abandon halfway through.`,
      `Conversion rose ${(p % 7) + 3}% over the quarter, and support tickets about ${topic} fell.`,
    ].join(" ");
    paragraphs.push(paragraph);
    count += paragraph.split(/\s+/).length;
  }
  return paragraphs.join("\n\n");
}

describe("generateOfflineDeck", () => {
  it("turns a one-line ask into a titled cover and a close", async () => {
    const deck = await generateAndCheck(
      "Make a short deck about why our team should adopt TypeScript for new services",
    );
    expect(deck.outline).toEqual(["Cover", "Thank you"]);
    expect(deck.slides[0]?.elements[0]?.text).toBe("Why our team should adopt TypeScript for new services");
  });

  // Its speed is measured in the benchmarks (npm run bench -- ai), not here.
  it("lays out a 2,000-word essay in at most ten sections, with no (1/2) splits", async () => {
    const brief = essay(2000);
    const deck = await generateAndCheck(brief);
    expect(deck.outline.length).toBeGreaterThanOrEqual(6);
    expect(deck.outline.length).toBeLessThanOrEqual(22);
    expect(deck.outline.join(" ")).not.toMatch(/\(\d\/\d\)/);
  });

  it("follows a Markdown outline: the H1 as cover, a slide per section, the closing section as the end", async () => {
    const brief = [
      "# Q3 product review",
      "",
      "## Onboarding got faster",
      "We rebuilt the first-run flow around templates. Teams now reach a first deck in minutes.",
      "",
      "## What we shipped",
      "- Templates for the five most common decks",
      "- Brand import from a website",
      "- Invites from inside the editor",
      "- Comments on slides",
      "",
      "## Next steps",
      "- Hire two engineers",
      "- Ship team onboarding",
    ].join("\n");
    const deck = await generateAndCheck(brief);
    expect(deck.outline).toEqual(["Cover", "Onboarding got faster", "What we shipped", "Next steps"]);
    expect(deck.slides[0]?.elements[0]?.text).toBe("Q3 product review");
    expect(deck.slides[2]?.elements.find((element) => element.name === "Bullets")?.props.items).toHaveLength(4);
    expect(deck.slides.at(-1)?.props.background).toBe("accent");
  });

  it("uses Title:, Subtitle: and Audience: lines for the cover", async () => {
    const brief = [
      "Title: Hiring plan 2026",
      "Subtitle: How we grow the team without slowing down",
      "Audience: the leadership team",
      "",
      "## Where we are",
      "- 14 engineers, 3 open roles",
      "- Attrition was 8% last year",
    ].join("\n");
    const deck = await generateAndCheck(brief);
    expect(deck.slides[0]?.elements[0]?.props).toMatchObject({
      kicker: "For the leadership team",
      subtitle: "How we grow the team without slowing down",
    });
    expect(deck.source).toContain('<Deck title="Hiring plan 2026">');
  });

  it("makes numbered procedures Steps and splits a long list only when it does not fit", async () => {
    const points = Array.from({ length: 8 }, (_, index) => `- Point number ${index + 1}`);
    const brief = [
      "# Launch",
      "## Setup",
      "1. Connect the data",
      "2. Import the brand",
      "3. Publish",
      "## Checklist",
      ...points,
    ].join("\n");
    const deck = await generateAndCheck(brief);
    expect(deck.outline).toEqual(["Cover", "Setup", "Checklist", "Checklist (continued)", "Thank you"]);
    expect(deck.slides[1]?.elements.find((element) => element.name === "Steps")?.props.items).toEqual([
      { title: "Connect the data" },
      { title: "Import the brand" },
      { title: "Publish" },
    ]);
  });

  it("escapes braces, angle brackets, quotes, backslashes, dollars and emoji", async () => {
    const nasty = 'Use {braces} & <tags> with "quotes", a \\ backslash, ${dollars} and </Slide> 🚀';
    const brief = [
      `# ${nasty}`,
      "## Edge {cases}",
      `- ${nasty}`,
      "- </Slide> closes nothing",
      `Plain text */ ${nasty}`,
    ].join("\n");
    const deck = await generateAndCheck(brief);
    expect(deck.source).toContain("🚀");
    expect(deck.outline[1]).toBe("Edge cases");
  });

  it("makes a webpage of beats with a full-screen hero and no notes", async () => {
    const brief =
      "# Field notes\n## Why we built it\nDecks take too long.\n## What it does\n- Drafts a deck\n- Keeps your brand";
    const deck = await generateAndCheck(brief, { format: "webpage" });
    expect(deck.source).toContain('<Beat label="Cover" layout="center" height="screen" background="primary">');
    expect(deck.source).not.toContain("notes=");
  });

  it("prefers the given title over the brief's", async () => {
    const deck = await generateAndCheck("## Plan\n- One\n- Two\n## Risks\n- Three", { title: "Board update" });
    expect(deck.source).toContain('<Deck title="Board update">');
    expect(deck.source).toContain("export default function BoardUpdateDeck()");
  });
});

// A seeded generator of Markdown fragments: what people paste, and what breaks hand-written parsers.
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const fragments = [
  "# Title {x}",
  "## Section <b>bold</b>",
  "### Sub",
  "---",
  "---\nlayout: two-cols\n---",
  "---\ntitle: [broken\n---",
  "---\ntheme: seriph\nclass: text-center\n---",
  "::right::",
  ":::note\nA callout\n:::",
  "Text with **bold**, _em_, `code`, [a link](https://example.com) and ![img](https://x.test/a.png).",
  "Revenue reached $4.2M, up from $3M. Churn fell to 2% from 3%.",
  "- item one\n- item two\n  - nested\n- [ ] task",
  "1. First\n2. Second\n3. Third",
  "- July 8: shipped\n- August 1: launched",
  "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 |",
  "| only | header |\n|---|---|",
  "```ts {2,3}\nconst a = 1;\nconst b = `${a}`;\n```",
  "```\nunclosed fence",
  "~~~python\nprint('x')\n~~~",
  "> “A quote that is long enough to count.”\n> — Someone, Somewhere",
  "<!-- a note -->",
  "<!-- _class: lead -->",
  '<div class="mt-2 py-1">12 items</div>',
  "$$\nE = mc^2\n$$",
  "Build vs buy",
  "## X vs Y\nX: fast, cheap\nY: slow, dear",
  "Title: A deck",
  "We want a deck about the future.",
  "emoji 🚀 and RTL שלום and \u200b zero width",
  "<script>alert(1)</script>",
  "{braces} `backticks` ${template} \\ backslash",
  "",
  "   ",
  "\t\tindented code",
  "\u0000",
];

describe("arbitrary Markdown", () => {
  it("never throws anything but a 422 and otherwise makes a deck that compiles", async () => {
    const next = random(16);
    for (let run = 0; run < 80; run++) {
      const count = 1 + Math.floor(next() * 8);
      const markdown = Array.from({ length: count }, () => fragments[Math.floor(next() * fragments.length)] ?? "").join(
        next() < 0.5 ? "\n\n" : "\n",
      );
      let deck: ReturnType<typeof generateOfflineDeck>;
      try {
        deck = generateOfflineDeck({ brief: markdown, format: next() < 0.8 ? "slides" : "webpage" });
      } catch (error) {
        expect(error, JSON.stringify(markdown)).toBeInstanceOf(AppError);
        expect((error as AppError).status, JSON.stringify(markdown)).toBe(422);
        expect((error as AppError).message).toMatch(/^Line \d+: /);
        continue;
      }
      const format = deck.source.includes("<Beat") ? "webpage" : "slides";
      const compiled = await compileDeck({ source: deck.source, format }).catch((error: Error) => {
        throw new Error(`${error.message}\nfor ${JSON.stringify(markdown)}`);
      });
      expect(compiled.outline).toEqual(deck.outline);
    }
  }, 60_000);
});
