import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateOfflineDeck, markdownToDeck } from "@/lib/ai/offline/generate-deck";
import { AppError } from "@/lib/core/errors";
import { compileDeck } from "@/lib/source/compile";
import { readDeck, type ReadSlide } from "../helpers/read-deck";
import { statusOf } from "@/lib/api/status";

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

const elements = (slides: ReadSlide[], name: string) =>
  slides.flatMap((slide) => slide.elements.filter((element) => element.name === name));

describe("Markdown details", () => {
  it("keeps only the last comment of a Slidev slide as its notes, and every non-directive comment of a Marp slide", async () => {
    const slides = `# Intro

<!-- First thought -->

- A point
- Another point

<!-- Say this last -->

---

# Next

- B

<!-- Only note -->`;
    const slidev = await generateAndCheck(`---\ntheme: seriph\n---\n\n${slides}`);
    expect(slidev.slides.map((slide) => slide.notes)).toEqual(["Say this last", "Only note"]);
    const marp = await generateAndCheck(`---\nmarp: true\n---\n\n<!-- _class: lead -->\n<!-- fit -->\n${slides}`);
    expect(marp.slides.map((slide) => slide.notes)).toEqual(["First thought\n\nSay this last", "Only note"]);
  });

  it("keeps a fence's language and highlighted lines, in a brief and in a slide deck", async () => {
    const fence = "```ts {2,3}\nconst a = 1;\nconst b = a + 1;\nconst c = b * 2;\n```";
    const brief = await generateAndCheck(`# Setup\n\n## The config\n\nIt takes three lines.\n\n${fence}`);
    const deck = await generateAndCheck(`---\ntheme: default\n---\n\n# The config\n\n${fence}`);
    for (const { slides } of [brief, deck]) {
      expect(elements(slides, "Code").map((code) => code.props)).toEqual([
        { language: "ts", highlight: [2, 3], code: "const a = 1;\nconst b = a + 1;\nconst c = b * 2;\n" },
      ]);
    }
    // A brief's notes say what the code is, not the code itself.
    expect(brief.slides[1]?.notes).toBe(
      "It takes three lines. The ts code on the slide, 3 lines, lines 2–3 highlighted.",
    );
    const ranges = await generateAndCheck(
      "# Code\n\n## Ranges\n\n```sql{3-5}\na\nb\nc\nd\ne\n```\n\n```js {1|3-4}\nx\ny\nz\nw\n```",
    );
    expect(elements(ranges.slides, "Code").map((code) => code.props.highlight)).toEqual([
      [3, 4, 5],
      [3, 4],
    ]);
  });

  it("draws Slidev's click-step highlights in their final state: `all` last leaves no line dimmed (issue 35, item 3)", async () => {
    const steps = await generateAndCheck(
      "---\ntheme: default\n---\n\n# Steps\n\n```sql {1|2-3|all}\na\nb\nc\nd\n```\n\n---\n\n# Last step\n\n```ts {1|4}\nw\nx\ny\nz\n```",
    );
    expect(elements(steps.slides, "Code").map((code) => code.props.highlight)).toEqual([undefined, [4]]);
  });

  it("never makes text from raw HTML a title, heading, label or Stat in a brief without headings", async () => {
    const html = [
      '<div class="hero">Revenue reached $4.2M and churn fell to 2% this quarter</div>',
      '<p align="center">Risks: hiring, pricing and churn</p>',
      "<section>Title: Launch review</section>",
    ];
    const deck = await generateAndCheck(
      [
        html[0],
        "We grew in every region this year and plan to keep going.",
        html[1],
        "Customers stayed with us through the price change.",
        html[2],
      ].join("\n\n"),
    );
    expect(elements(deck.slides, "Stat")).toEqual([]);
    const headings = [
      deck.title,
      ...deck.outline,
      ...["Title", "Heading"].flatMap((name) => elements(deck.slides, name).map((element) => element.text)),
    ];
    for (const shown of headings) expect(shown).not.toMatch(/revenue|churn|risks|launch review/i);
    // The text itself is shown as body text and kept in the notes.
    const body = elements(deck.slides, "Text").map((element) => element.text);
    for (const text of html.map((line) => line.replace(/<[^>]+>/g, ""))) {
      expect(body.some((shown) => shown.includes(text))).toBe(true);
      expect(deck.slides.some((slide) => slide.notes.includes(text))).toBe(true);
    }
  });

  it("shows a table section's list beside the table, or after it when a chart takes the room", async () => {
    const deck = await generateAndCheck(`# Pricing review

## Plans
| Plan | Price | Seats |
|---|---|---|
| Free | $0 | 3 |
| Team | $12 | 25 |

Most teams pick the Team plan.

- Annual billing saves 20%
- Education discounts are available

## Revenue by region
| Region | Q2 | Q3 |
|---|---|---|
| NA | $8.9M | $10.2M |
| EU | $3.6M | $4.4M |

Show this as a chart: every region grew.

- APAC is next
- Hiring two sellers in Tokyo

\`\`\`sql {2,3}
select region, sum(arr)
from accounts
group by region
\`\`\``);
    expect(deck.outline).toEqual(["Cover", "Plans", "Revenue by region", "Revenue by region (continued)", "Thank you"]);
    const names = (slide: ReadSlide | undefined) => slide?.elements.map((element) => element.name);
    expect(names(deck.slides[1])).toEqual(["Heading", "Columns", "Table", "Bullets", "Text"]);
    expect(deck.slides[1]?.notes).toBe(
      "Most teams pick the Team plan.\n\nFree: Price $0, Seats 3. Team: Price $12, Seats 25.\n\n" +
        "Annual billing saves 20%. Education discounts are available.",
    );
    expect(names(deck.slides[2])).toEqual(["Heading", "Columns", "Table", "Chart"]);
    expect(names(deck.slides[3])).toEqual(["Heading", "Columns", "Bullets", "Code"]);
    expect(deck.slides[3]?.elements[0]).toMatchObject({ text: "Revenue by region", props: { kicker: "Continued" } });
    expect(deck.slides[3]?.notes).toBe(
      "APAC is next. Hiring two sellers in Tokyo. The sql code on the slide, 3 lines, lines 2–3 highlighted.",
    );
  });

  it("typesets a $$ block as a display Formula, beside or under the text, and leaves single dollars as money", async () => {
    const math = "$$\nE = mc^2\n$$";
    const brief = await generateAndCheck(
      `# Physics\n\n## Energy\n\nRevenue reached $4.2M, up from $3M. It costs $5 or $6 a month.\n\n${math}`,
    );
    const deck = await generateAndCheck(`---\ntheme: default\n---\n\n# Energy\n\n${math}\n\nIt costs $5 or $6.`);
    for (const { slides } of [brief, deck]) {
      expect(elements(slides, "Formula").map((formula) => formula.props)).toEqual([{ display: true, tex: "E = mc^2" }]);
      expect(elements(slides, "Code")).toEqual([]);
    }
    // The section's one metric takes the place beside the text; the formula goes under it.
    expect(elements(brief.slides, "Stat").map((stat) => stat.props.value)).toEqual(["$4.2M"]);
    expect(brief.slides[1]?.notes).toContain("It costs $5 or $6 a month.");
    expect(elements(deck.slides, "Text").map((text) => text.text)).toEqual(["It costs $5 or $6."]);
  });
});

// Arbitrary Markdown from fast-check: documents made of the blocks people paste (headings, lists, tables,
// fences with info strings, HTML, comments, front matter, `---` breaks, Slidev slots, math) filled with
// words, markup and random Unicode, plus the fragments that broke hand-written parsers before. The seed is
// fixed, so a failure names its shrunk counterexample and reruns the same way.

const traps = [
  "# Title {x}",
  "## Section <b>bold</b>",
  "---\nlayout: two-cols\n---",
  "---\ntitle: [broken\n---",
  "---\ntheme: seriph\nclass: text-center\n---",
  "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 |",
  "| only | header |\n|---|---|",
  "```\nunclosed fence",
  "> “A quote that is long enough to count.”\n> — Someone, Somewhere",
  '<div class="mt-2 py-1">12 items</div>',
  "## X vs Y\nX: fast, cheap\nY: slow, dear",
  "Revenue reached $4.2M, up from $3M. Churn fell to 2% from 3%.",
  "- July 8: shipped\n- August 1: launched",
  "Show this as a chart: every region grew",
  "We want a deck about the future.",
  "emoji 🚀 and RTL שלום and \u200b zero width",
  "{braces} `backticks` ${template} \\ backslash </Slide> */",
  "\t\tindented code",
  "\u0000",
];

const word = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("revenue", "churn", "the", "team", "and", "we", "Q3", "growth", "plan") },
  {
    weight: 2,
    arbitrary: fc.constantFrom("reached", "fell to", "signed", "vs", "July 8:", "$4.2M", "12%", "3x", "2025", "1."),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom("{x}", "${a}", "</Slide>", "\\", "`", "*", "_", "|", "<b>", "&amp;", "&#0;", "::", ":"),
  },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 4 }) },
);
const phrase = fc.array(word, { minLength: 1, maxLength: 10 }).map((words) => words.join(" "));
const url = fc.constantFrom("https://example.com/a", "http://x.test/a.png", "data:image/png;base64,AAAA", "", "a b");
const inline = fc.oneof(
  { weight: 5, arbitrary: phrase },
  { weight: 1, arbitrary: phrase.map((text) => `**${text}**`) },
  { weight: 1, arbitrary: phrase.map((text) => `_${text}_`) },
  { weight: 1, arbitrary: phrase.map((text) => `\`${text}\``) },
  { weight: 1, arbitrary: fc.tuple(phrase, url).map(([text, href]) => `[${text}](${href})`) },
  { weight: 1, arbitrary: fc.tuple(phrase, url).map(([text, href]) => `![${text}](${href})`) },
  { weight: 1, arbitrary: phrase.map((text) => `<span class="mt-2 py-1">${text}</span>`) },
  { weight: 1, arbitrary: phrase.map((text) => `<!-- ${text} -->`) },
  { weight: 1, arbitrary: fc.constantFrom("$x^2$", "<br>", "[^1]", ":name[x]", "~~gone~~", "  ") },
);
const line = fc.array(inline, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(" "));
const lines = (max: number) => fc.array(line, { minLength: 1, maxLength: max });

const heading = fc.tuple(fc.integer({ min: 1, max: 6 }), line).map(([depth, text]) => `${"#".repeat(depth)} ${text}`);
const paragraph = lines(3).map((all) => all.join("\n"));
const list = fc
  .record({
    ordered: fc.boolean(),
    items: fc.array(fc.record({ text: line, task: fc.boolean(), children: fc.array(line, { maxLength: 2 }) }), {
      minLength: 1,
      maxLength: 7,
    }),
  })
  .map(({ ordered, items }) =>
    items
      .map((item, index) =>
        [
          `${ordered ? `${index + 1}.` : "-"} ${item.task ? "[ ] " : ""}${item.text}`,
          ...item.children.map((child) => `   - ${child}`),
        ].join("\n"),
      )
      .join("\n"),
  );
const cell = fc.oneof(phrase, fc.constantFrom("$1.2M", "12%", "3", "", "a \\| b", "<b>x</b>"));
const table = fc
  .tuple(fc.array(cell, { minLength: 1, maxLength: 4 }), fc.array(fc.array(cell, { maxLength: 5 }), { maxLength: 5 }))
  .map(([head, rows]) => [head, head.map(() => "---"), ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n"));
const fence = fc
  .record({
    marker: fc.constantFrom("```", "~~~", "````"),
    info: fc.constantFrom(
      "",
      "ts",
      "python",
      "c++",
      "ts {2,3}",
      "js {1|3-4}",
      "sql{3-5}",
      "ts {all}",
      "ts {0,99999}",
      "{2}",
      'ts title="a.ts" {2,3}',
    ),
    code: fc.array(fc.oneof(phrase, fc.string({ unit: "binary", maxLength: 20 })), { maxLength: 6 }),
    closed: fc.boolean(),
  })
  .map(({ marker, info, code, closed }) => [`${marker}${info}`, ...code, ...(closed ? [marker] : [])].join("\n"));
const html = fc
  .tuple(fc.constantFrom("div", "p", "section", "span", "script", "style", "h2"), phrase)
  .map(([tag, text]) => `<${tag} class="text-center mt-4">\n${text}\n</${tag}>`);
const comment = fc.oneof(
  phrase.map((text) => `<!-- ${text} -->`),
  phrase.map((text) => `<!--\n${text}\n-->`),
  phrase.map((text) => `<!-- ${text}`),
  fc.constantFrom("<!-- _class: lead -->", "<!-- fit -->", "<!-- paginate: true -->"),
);
const yamlLine = fc
  .tuple(
    fc.constantFrom("title", "theme", "layout", "class", "marp", "image", "transition", "author", "date", "x y"),
    // Mostly YAML that parses (a quoted phrase, a layout name), sometimes not (a raw phrase, "[broken").
    fc.oneof(
      { weight: 3, arbitrary: phrase.map((text) => JSON.stringify(text)) },
      {
        weight: 3,
        arbitrary: fc.constantFrom("cover", "center", "two-cols", "section", "quote", "image-right", "true"),
      },
      { weight: 1, arbitrary: fc.oneof(phrase, fc.constantFrom("[broken", "{a: 1}", "- x")) },
    ),
  )
  .map(([key, value]) => `${key}: ${value}`);
const frontMatter = fc.array(yamlLine, { maxLength: 4 }).map((entries) => ["---", ...entries, "---"].join("\n"));
const block = fc.oneof(
  { weight: 3, arbitrary: heading },
  { weight: 4, arbitrary: paragraph },
  { weight: 3, arbitrary: list },
  { weight: 2, arbitrary: table },
  { weight: 2, arbitrary: fence },
  { weight: 1, arbitrary: html },
  { weight: 2, arbitrary: comment },
  { weight: 1, arbitrary: frontMatter },
  { weight: 2, arbitrary: fc.constantFrom("---", "***", "::right::", "::left::") },
  { weight: 1, arbitrary: phrase.map((text) => `$$\n${text}\n$$`) },
  { weight: 1, arbitrary: lines(2).map((all) => `> ${all.join("\n> ")}\n> — Dana Okafor, CFO`) },
  { weight: 1, arbitrary: phrase.map((text) => `:::note\n${text}\n:::`) },
  { weight: 1, arbitrary: phrase.map((text) => `Title: ${text}`) },
  { weight: 1, arbitrary: fc.constantFrom(...traps) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
);
const markdown = fc
  .tuple(
    fc.option(frontMatter, { freq: 2 }),
    fc.array(block, { minLength: 1, maxLength: 10 }),
    fc.constantFrom("\n\n", "\n"),
  )
  .map(([head, blocks, gap]) => [...(head === null ? [] : [head]), ...blocks].join(gap));

/** What the generator did: a deck, or a 422 naming a line the text has. */
function attempt<T>(markdown: string, run: () => T): { deck: T } | { refused: AppError } {
  try {
    return { deck: run() };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    expect(statusOf(error)).toBe(422);
    const line = Number(/^Line (\d+): /.exec(error.message)?.[1]);
    expect(line, error.message).toBeGreaterThanOrEqual(1);
    expect(line, error.message).toBeLessThanOrEqual(markdown.split(/\r\n?|\n/).length);
    return { refused: error };
  }
}

describe("arbitrary Markdown", () => {
  it("never throws anything but a 422 naming a line, and otherwise makes a deck that compiles", async () => {
    await fc.assert(
      fc.asyncProperty(markdown, fc.constantFrom<Format>("slides", "webpage"), async (text, format) => {
        const generated = attempt(text, () => generateOfflineDeck({ brief: text, format }));
        const imported = attempt(text, () => markdownToDeck(text));
        // The import runs the same generator: it refuses the same texts.
        expect("refused" in imported).toBe("refused" in generated);
        if ("deck" in generated) {
          const { deck } = generated;
          const compiled = await compileDeck({ source: deck.source, format });
          expect(compiled.outline).toEqual(deck.outline);
          for (const label of deck.outline) expect(label).not.toMatch(/[<>|]|https?:\/\//);
        }
        if ("deck" in imported) {
          expect(imported.deck.title.trim()).not.toBe("");
          await compileDeck({ source: imported.deck.source, format: "slides" });
        }
      }),
      { seed: 16, numRuns: 200 },
    );
  }, 60_000);
});

describe("briefs keep what they state (issue 35, item 4)", () => {
  const qbr = [
    "# Northwind Analytics — Q3 Business Review",
    "",
    "Prepared for the board, October. Presenter: Priya Raman, CEO.",
    "",
    "## Headline",
    "We signed 212 new customers, including three enterprise logos: Globex, Initech and Umbrella.",
    "",
    "## Churn",
    "Monthly logo churn fell to 1.9% from 2.6% in Q2, the lowest in 14 months.",
  ].join("\n");

  it("puts the brief's H1 on the cover of a deck the user named, and keeps the name as the deck's", async () => {
    const deck = await generateAndCheck(qbr, { title: "Board QBR" });
    expect(deck.title).toBe("Board QBR");
    expect(deck.source).toContain('<Deck title="Board QBR">');
    const cover = deck.slides[0]!.elements.find((element) => element.name === "Title");
    expect(cover).toMatchObject({ text: "Q3 Business Review", props: { kicker: "Northwind Analytics" } });
    expect(deck.source).not.toMatch(/<Title[^>]*>\s*Board QBR/);
  });

  it("keeps the presenter, the customers and the figure's remark on the slides", async () => {
    const deck = await generateAndCheck(qbr, { title: "Board QBR" });
    const cover = deck.slides[0]!;
    expect(cover.elements.map((element) => element.text)).toContain("Priya Raman, CEO");
    expect(elements(deck.slides, "Stat").map((stat) => stat.props)).toEqual([
      { value: "212", label: "New customers", detail: "Including Globex, Initech and Umbrella" },
      { value: "1.9%", label: "Monthly logo churn", detail: "Down from 2.6% in Q2, the lowest in 14 months" },
    ]);
    expect(deck.warnings).toEqual([]);
  });

  it("makes every metric a Stat with its comparison as its detail, in sentences and in bullets", async () => {
    const deck = await generateAndCheck(
      [
        "# Q2 product review",
        "",
        "## Usage",
        "Weekly active users grew to 52,000 this quarter, up from 41,500.",
        "",
        "Average session length is 14 minutes, compared with 11 in Q1.",
        "",
        "Our NPS reached 48, up from 39 a year ago.",
        "",
        "## Sales",
        "- Pipeline is healthy",
        "- Win rate reached 31%, up from 24%.",
        "- Average deal size grew to $48k from $41k.",
        "",
        "## Speed",
        "Builds are 4x faster and reviews are 2x faster than last year, and deploys take 9 minutes instead of 40.",
      ].join("\n"),
    );
    const stats = (label: string) =>
      deck.slides
        .find((slide) => slide.label === label)!
        .elements.filter((element) => element.name === "Stat")
        .map((stat) => [stat.props.value, stat.props.label, stat.props.detail]);
    expect(stats("Usage")).toEqual([
      ["52,000", "Weekly active users", "Up from 41,500"],
      ["14 minutes", "Average session length", "Compared with 11 in Q1"],
      ["48", "NPS", "Up from 39 a year ago"],
    ]);
    expect(stats("Sales")).toEqual([
      ["31%", "Win rate", "Up from 24%"],
      ["$48k", "Average deal size", "Up from $41k"],
    ]);
    // The bullet with no figure stays a bullet; the figures are not said twice.
    expect(elements(deck.slides, "Bullets").flatMap((list) => list.props.items as string[])).toEqual([
      "Pipeline is healthy",
    ]);
    expect(stats("Speed")).toEqual([
      ["4x", "Faster builds", undefined],
      ["2x", "Faster reviews", undefined],
      ["9 minutes", "Deploys", "Instead of 40"],
    ]);
    expect(deck.warnings).toEqual([]);
  });

  it("says which text is in the speaker notes only because it did not fit", async () => {
    const deck = await generateAndCheck(
      [
        "# Plan",
        "",
        "## Onboarding",
        "We rebuilt the first-run flow around templates so that a new team reaches its first deck in minutes. The old flow asked eleven questions before showing anything, and most teams left halfway through. Support tickets about setup dropped sharply after the change.",
        "- Templates for the five most common decks",
        "- Brand import from a website",
      ].join("\n"),
    );
    expect(deck.warnings).toEqual([
      {
        kind: "text-in-notes",
        slide: "Onboarding",
        message: expect.stringMatching(/^"The old flow asked eleven questions.*" is in the speaker notes only/),
      },
      {
        kind: "text-in-notes",
        slide: "Onboarding",
        message: expect.stringMatching(/^"Support tickets about setup dropped sharply.*" is in the speaker notes only/),
      },
    ]);
    expect(deck.slides[1]?.notes).toContain("Support tickets about setup dropped sharply after the change.");
  });
});
