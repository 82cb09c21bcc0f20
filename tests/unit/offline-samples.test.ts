import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateOfflineDeck, markdownToDeck } from "@/lib/ai/offline/generate-deck";
import { AppError } from "@/lib/core/errors";
import { compileDeck } from "@/lib/source/compile";
import { readDeck, type ReadSlide } from "../helpers/read-deck";
import { statusOf } from "@/lib/api/status";

// The sample briefs and decks of ../shared/samples (copied to tests/fixtures/samples) through the offline
// generator: slide count, outline, the components of each slide, and what the issue asks of every deck.

const samples = path.join(import.meta.dirname, "../fixtures/samples");
const read = (name: string) => fs.readFileSync(path.join(samples, name), "utf8");

async function generate(name: string) {
  const markdown = read(name);
  const deck = generateOfflineDeck({ brief: markdown, format: "slides" });
  expect(generateOfflineDeck({ brief: markdown, format: "slides" }).source).toBe(deck.source);
  const compiled = await compileDeck({ source: deck.source, format: "slides" });
  expect(compiled.outline).toEqual(deck.outline);
  const slides = readDeck(deck.source);
  expect(slides.map((slide) => slide.label)).toEqual(deck.outline);
  checkLabels(slides, markdown);
  return { markdown, deck, slides };
}

/** No label carries markup, a table pipe, a front-matter key or a URL. */
function checkLabels(slides: ReadSlide[], markdown: string): void {
  const keys = [...markdown.matchAll(/^([A-Za-z][\w-]*):\s/gm)].map((match) => `${match[1]}:`);
  for (const { label } of slides) {
    expect(label).not.toMatch(/[<>|]|https?:\/\/|www\./);
    for (const key of keys) expect(label.toLowerCase().startsWith(key.toLowerCase()), label).toBe(false);
  }
}

const components = (slide: ReadSlide) => [
  ...new Set(slide.elements.map((element) => element.name).filter((name) => /^[A-Z]/.test(name))),
];
const find = (slides: ReadSlide[], name: string) =>
  slides.flatMap((slide) => slide.elements.filter((element) => element.name === name));

/** Every fenced block of the Markdown, with its language. */
function fences(markdown: string): Array<{ language: string; code: string }> {
  return [...markdown.matchAll(/^```(\w+)[^\n]*\n([\s\S]*?)^```$/gm)].map((match) => ({
    language: match[1] ?? "",
    code: match[2] ?? "",
  }));
}

/** Every GFM table of the Markdown as header and body cells. */
function tables(markdown: string): Array<{ columns: string[]; rows: string[][] }> {
  const cells = (line: string) =>
    line
      .trim()
      .replace(/^\||\|$/g, "")
      .split("|")
      .map((cell) => cell.trim());
  return [...markdown.matchAll(/^(\|.*\|)\n\|[-| :]+\|\n((?:\|.*\|\n?)+)/gm)].map((match) => ({
    columns: cells(match[1] ?? ""),
    rows: (match[2] ?? "").trim().split("\n").map(cells),
  }));
}

function expectCodeAndTables(slides: ReadSlide[], markdown: string): void {
  const codes = find(slides, "Code");
  expect(codes.map((code) => code.props.language)).toEqual(fences(markdown).map((fence) => fence.language));
  expect(codes.map((code) => code.props.code)).toEqual(fences(markdown).map((fence) => fence.code));
  expect(find(slides, "Table").map((table) => ({ columns: table.props.columns, rows: table.props.rows }))).toEqual(
    tables(markdown),
  );
}

describe("the sample briefs and decks, offline", () => {
  it("qbr-brief.md: a cover from the H1, stats with their own labels, table and chart, timeline, comparison, quote, ask", async () => {
    const { slides } = await generate("qbr-brief.md");
    expect(slides.map((slide) => slide.label)).toEqual([
      "Cover",
      "Headline",
      "Revenue by region",
      "Churn",
      "Milestones",
      "Build vs buy",
      "What customers say",
      "Risks",
      "The ask",
    ]);
    expect(slides.map(components)).toEqual([
      ["Title", "Text"],
      ["Heading", "Grid", "Stat"],
      ["Heading", "Columns", "Table", "Chart"],
      ["Heading", "Columns", "Text", "Stat"],
      ["Heading", "Timeline"],
      ["Heading", "Columns", "Box", "Bullets", "Text"],
      ["Quote"],
      ["Heading", "Bullets"],
      ["Title"],
    ]);
    const [cover] = find(slides, "Title");
    expect(cover?.text).toBe("Q3 Business Review");
    expect(cover?.props.kicker).toBe("Northwind Analytics");
    // The presenter and the customers stay on the slides (issue 35, item 4).
    expect(slides[0]?.elements[1]?.text).toBe("Priya Raman, CEO");
    expect(find(slides, "Stat")[3]?.props.detail).toBe("Including Globex, Initech and Umbrella");
    expect(find(slides, "Stat").map((stat) => [stat.props.value, stat.props.label])).toEqual([
      ["$16.8M", "Annual recurring revenue"],
      ["124%", "Net revenue retention"],
      ["76%", "Gross margin"],
      ["212", "New customers"],
      ["1.9%", "Monthly logo churn"],
    ]);
    expect(find(slides, "Chart")[0]?.props.series).toEqual([
      { name: "Q2", values: [8.9, 3.6, 1.6] },
      { name: "Q3", values: [10.2, 4.4, 2.2] },
    ]);
    expect(find(slides, "Timeline")[0]?.props.items).toEqual([
      { date: "July 8", title: "Onboarding redesign shipped" },
      { date: "August 19", title: "SOC 2 Type II report issued" },
      { date: "September 2", title: "Frankfurt region live" },
      { date: "September 30", title: "1,000th paying customer" },
    ]);
    expect(find(slides, "Quote")[0]?.props).toMatchObject({ by: "Dana Okafor", role: "CFO at Globex" });
    expect(slides.at(-1)?.elements[0]?.props.subtitle).toMatch(/^Approve the \$2\.4M budget/);
    expectCodeAndTables(slides, read("qbr-brief.md"));
  });

  it("launch-brief.txt: 7 to 10 slides with problem, pillars, phases, quote, risks, metrics and the ask", async () => {
    const { slides } = await generate("launch-brief.txt");
    expect(slides.length).toBeGreaterThanOrEqual(7);
    expect(slides.length).toBeLessThanOrEqual(10);
    expect(slides.map(components)).toEqual([
      ["Title"],
      ["Heading", "Text"],
      ["Heading", "Bullets", "Text"],
      ["Heading", "Grid", "Box", "Text"],
      ["Heading", "Timeline"],
      ["Quote"],
      ["Heading", "Grid", "Box", "Text"],
      ["Heading", "Grid", "Stat"],
      ["Title"],
    ]);
    expect(find(slides, "Timeline")[0]?.props.items).toEqual([
      { date: "March–April", title: "Private beta", detail: "We onboard eight design partners" },
      { date: "May", title: "Public beta", detail: "We open sign-ups in the US and Canada" },
      { date: "July", title: "General availability", detail: "With billing and the admin console" },
    ]);
    // Numbers only where a sentence states a metric: the interview counts stay text.
    expect(find(slides, "Stat").map((stat) => [stat.props.value, stat.props.label])).toEqual([
      ["2,000", "Weekly active technicians"],
      ["60%", "Jobs closed without a phone call"],
    ]);
    expect(slides.at(-1)?.label).toBe("The ask");
  });

  it("marp-deck.md: one slide per source slide, directives gone, comments as notes, code and table kept", async () => {
    const { markdown, slides } = await generate("marp-deck.md");
    expect(slides.map((slide) => slide.label)).toEqual([
      "Faster builds with remote caching",
      "Where the time went",
      "What we changed",
      "The cache key",
      "Results after six weeks",
      "Builds are 4x faster",
      "Next",
    ]);
    expect(slides.map(components)).toEqual([
      ["Title"],
      ["Heading", "Bullets", "Text"],
      ["Heading", "Bullets"],
      ["Heading", "Code"],
      ["Heading", "Table"],
      ["Heading", "Image"],
      ["Heading", "Bullets", "Text"],
    ]);
    // Bold inside a bullet and in the closing line stays bold (issue 35, item 3).
    expect(find(slides, "strong").map((strong) => strong.text)).toEqual(["38 minutes", "Questions?"]);
    const comments = [...markdown.matchAll(/<!--([\s\S]*?)-->/g)].map((match) => (match[1] ?? "").trim());
    const notes = comments.filter((comment) => !/^(?:_?class:|fit$)/.test(comment));
    expect(notes).toHaveLength(3);
    for (const note of notes) expect(slides.some((slide) => slide.notes.includes(note))).toBe(true);
    const shown = slides.map((slide) => ({ notes: slide.notes, elements: slide.elements }));
    expect(JSON.stringify(shown)).not.toMatch(/_class|lead|<!--|fit -->|marp|paginate/);
    // Marp's directives are the slides' own: paginate numbers every slide, "lead" centres the first.
    expect(slides.map((slide) => slide.props.paginate)).toEqual(slides.map(() => true));
    expect(slides[0]?.props.layout).toBe("center");
    // w:900 on Marp's 1280-pixel canvas is 1350 on the 1920-pixel one.
    expect(find(slides, "Image")[0]?.props).toMatchObject({
      src: "http://localhost:8799/build-times.png",
      alt: "Build time per week, falling from 38 to 9 minutes",
      width: 1350,
    });
    expect(find(slides, "Bullets")[1]?.props.marker).toBe("number");
    expectCodeAndTables(slides, markdown);
  });

  it("slidev-deck.md: layouts mapped, slots as columns, highlighted lines and the last comment as notes", async () => {
    const { markdown, slides } = await generate("slidev-deck.md");
    expect(slides.map((slide) => slide.label)).toEqual([
      "Designing a rate limiter",
      "Part 1: the problem",
      "Why limits at all",
      "Fixed window",
      "The upsert that does it",
      "Rate limits are a product feature",
      "Numbers from production",
      "Watching it live",
      "Thank you",
    ]);
    expect(slides.map(components)).toEqual([
      ["Title"],
      ["Title"],
      ["Heading", "Bullets"],
      ["Columns", "Stack", "Heading", "Text"],
      ["Heading", "Code", "Text"],
      ["Quote"],
      ["Heading", "Table"],
      ["Heading", "Text"],
      ["Title"],
    ]);
    // image-right: the picture on the slide's right half, edge to edge, the text beside it (issue 35, item 3).
    expect(slides[7]?.props).toMatchObject({
      image: "http://localhost:8799/dashboard.png",
      imageSide: "right",
      imageAlt: "Watching it live",
    });
    expect(slides.map((slide) => slide.props.layout ?? "content")).toEqual([
      "center",
      "center",
      "content",
      "content",
      "content",
      "center",
      "content",
      "content",
      "center",
    ]);
    expect(find(slides, "Code")[0]?.props.highlight).toEqual([3, 4, 5]);
    expect(find(slides, "Quote")[0]).toMatchObject({
      text: "Rate limits are a product feature, not an afterthought.",
      props: { by: "Our API design guide" },
    });
    expect(slides[0]?.notes).toBe("Introduce yourself, then ask who has been paged for a thundering herd.");
    expect(slides[2]?.notes).toContain("9,000 requests per second");
    expect(JSON.stringify(slides)).not.toMatch(/seriph|transition|text-center|layout:/);
    expectCodeAndTables(slides, markdown);
  });

  it("takes a Slidev deck of 15,000 characters and more, as the import does", async () => {
    const base = read("slidev-deck.md");
    const [head, ...rest] = base.split(/\n---\nlayout: section\n---\n/);
    const body = `\n---\nlayout: section\n---\n${rest.join("\n---\nlayout: section\n---\n")}`;
    const markdown = head + Array.from({ length: 11 }, () => body).join("");
    expect(markdown.length).toBeGreaterThan(14_800);
    const deck = markdownToDeck(markdown);
    expect(deck.title).toBe("Designing a rate limiter");
    const compiled = await compileDeck({ source: deck.source, format: "slides" });
    expect(compiled.outline).toHaveLength(1 + 8 * 11);
  });

  it("refuses what it cannot read with a 422 naming the line", () => {
    const refusal = (markdown: string) => {
      try {
        markdownToDeck(markdown);
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        expect(statusOf(error as AppError)).toBe(422);
        return (error as AppError).message;
      }
      throw new Error("expected a refusal");
    };
    expect(refusal("   \n\n")).toMatch(/^Line 1: the text is empty/);
    expect(refusal("---\ntitle: [unclosed\ntheme: x\n---\n# Hi")).toMatch(
      /^Line \d+: the front matter is not valid YAML/,
    );
    expect(refusal("# Title\n\nText with a \u0000 byte")).toMatch(/^Line 3: the text contains a control character/);
    expect(refusal("---\ntheme: gaia\n---\n\n<!-- nothing -->\n")).toMatch(/^Line 4: the text has no slide content/);
  });
});
