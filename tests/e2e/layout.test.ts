import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Frame } from "playwright-core";
import { getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GROW_MAX, SLIDE_FLOOR, WORD_FLOORS } from "@/components/player/shell/fit";
import { buildAuthoringBrief } from "@/lib/source/instructions";
import { themeTokens } from "@/lib/source/theme-tokens";
import { stopLocalRunner } from "@/lib/jobs/local-runner";
import { closeRenderBrowser } from "@/lib/render/browser";
import { call, createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { launchBrowser, openSlide } from "../helpers/browser";
import { publishDeck } from "../helpers/decks";
import { setUpTestDatabase } from "../helpers/database";
import { waitForExport } from "../helpers/exports";
import { solidPng } from "../helpers/image-fixtures";
import { readPptxXml, slideParts } from "../helpers/pptx-xml";

// The layout and fitting rules of the player, measured in Chromium: stress slides a new user writes on
// day one. Screenshots of every case go to /tmp/layout-shots for a person to look at.

const SHOTS = "/tmp/layout-shots";
const CANVAS = { width: 1920, height: 1080 };
const BASE = 48; // the default --type-base: 24 pt on a 13.33-inch slide
const SCALE = 1.2;

const ten = ["One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"];
const forty = Array.from(
  { length: 40 },
  (_, i) => `Point ${i + 1}: a long bullet that says rather more than it should`,
);

// Slides in order: 1 balanced, 2 long word, 3 ten bullets, 4 forty bullets.
const stressDeck = `import { Deck, Slide, Title, Heading, Bullets } from "@deckhand/player";

export default function Stress() {
  return (
    <Deck title="Stress">
      <Slide label="Balanced">
        <Heading>A plain content slide</Heading>
        <Bullets items={["The first point", "The second point", "The third point"]} />
      </Slide>
      <Slide label="Long word" layout="center">
        <Title>${"Supercalifragilisticexpialidociouslyxyz".padEnd(40, "z")}</Title>
      </Slide>
      <Slide label="Ten">
        <Heading>Ten bullets</Heading>
        <Bullets items={${JSON.stringify(ten)}} />
      </Slide>
      <Slide label="Forty">
        <Heading>Forty bullets</Heading>
        <Bullets items={${JSON.stringify(forty)}} />
      </Slide>
    </Deck>
  );
}
`;

const statsDeck = `import { Deck, Slide, Heading, Columns, Stat } from "@deckhand/player";

export default function Stats() {
  return (
    <Deck title="Stats">
      <Slide label="Stats">
        <Heading>Revenue and customers</Heading>
        <Columns>
          <Stat value="$16.8M" label="Annual recurring revenue" />
          <Stat value="$14.1M" label="Net revenue" />
          <Stat value="212" label="Enterprise customers" />
        </Columns>
      </Slide>
    </Deck>
  );
}
`;
// Slides in order: 1 columns of unequal boxes, 2 a grid, 3 a chart alone, 4 a table alone, 5 an image alone,
// 6 a cover, 7 a statement.
const shapesDeck = (
  image: string,
) => `import { Deck, Slide, Title, Heading, Text, Bullets, Columns, Grid, Box, Chart, Table, Image } from "@deckhand/player";

export default function Shapes() {
  return (
    <Deck title="Shapes">
      <Slide label="Columns">
        <Heading>Two cards, one short</Heading>
        <Columns>
          <Box tone="surface"><Text>One line</Text></Box>
          <Box tone="surface"><Bullets items={["First", "Second", "Third", "Fourth", "Fifth"]} /></Box>
        </Columns>
      </Slide>
      <Slide label="Grid">
        <Heading>Four cards</Heading>
        <Grid columns={2}>
          <Box tone="surface"><Text>Short</Text></Box>
          <Box tone="surface"><Text>A card with rather more to say than its neighbour, over two or three lines at least</Text></Box>
          <Box tone="surface"><Text>Short</Text></Box>
          <Box tone="surface"><Text>Short too</Text></Box>
        </Grid>
      </Slide>
      <Slide label="Chart">
        <Heading>Revenue by quarter</Heading>
        <Chart type="bar" data={[{ label: "Q1", value: 3 }, { label: "Q2", value: 5 }, { label: "Q3", value: 4 }]} />
      </Slide>
      <Slide label="Table">
        <Heading>Results</Heading>
        <Table columns={["Metric", "Before", "After"]} rows={[["Build time", "38 min", "9 min"], ["Hit rate", "0%", "83%"]]} />
      </Slide>
      <Slide label="Image">
        <Heading>The dashboard</Heading>
        <Image src="${image}" alt="A wide grey picture" />
      </Slide>
      <Slide label="Cover" layout="center">
        <Title subtitle="Centred on the canvas">A cover</Title>
      </Slide>
      <Slide label="Statement" layout="center">
        <Heading>One sentence, centred.</Heading>
      </Slide>
    </Deck>
  );
}
`;

// A brand with a larger type scale, and nothing else: the tokens it leaves out keep their defaults.
const bigScale = ":root { --type-scale: 1.4; }";

let server: AppServer;
let browser: Browser;
let author: TestUser;

beforeAll(async () => {
  await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  browser = await launchBrowser();
  author = await createUser();
  fs.mkdirSync(SHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  stopLocalRunner();
  await closeRenderBrowser();
  await browser?.close();
  await server?.close();
});

type Measure = {
  outside: string[];
  clipped: string[];
  overflow: boolean;
  overflowMarks: string[];
  stats: { x: number; y: number; w: number; h: number; fontSize: number }[];
  fonts: Record<string, number[]>;
  balance: { above: number; below: number; bodyBottom: number } | null;
};

// Everything is read in canvas pixels (layout boxes, unaffected by the stage's scaling).
function measure(frame: Frame, slide: number): Promise<Measure> {
  return frame.evaluate((n) => {
    const section = document.querySelector<HTMLElement>(`.dh-stage-slide:not([hidden]) .dh-slide[data-slide="${n}"]`)!;
    const origin = section.getBoundingClientRect();
    const scale = origin.width / section.offsetWidth;
    const box = (element: Element) => {
      const rect = element.getBoundingClientRect();
      return {
        x: (rect.left - origin.left) / scale,
        y: (rect.top - origin.top) / scale,
        w: rect.width / scale,
        h: rect.height / scale,
      };
    };
    const name = (element: Element) => `${element.tagName.toLowerCase()}.${element.className}`;
    const outside: string[] = [];
    for (const element of section.querySelectorAll("*")) {
      const b = box(element);
      if (b.w === 0 && b.h === 0) continue;
      if (b.x < -1 || b.y < -1 || b.x + b.w > 1921 || b.y + b.h > 1081) outside.push(name(element));
    }
    const clipped: string[] = [];
    for (const element of section.querySelectorAll<HTMLElement>(
      ".dh-title-text, .dh-heading-text, .dh-stat-value, .dh-stat-label, .dh-bullets, .dh-bullet-body, .dh-text",
    )) {
      // Glyphs of a tight line height (1 for Stat values) rise a little above their line box; that is ink,
      // not clipping, so the height may exceed the box by a fifth of the font size.
      const slack = parseFloat(getComputedStyle(element).fontSize) * 0.2;
      if (element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + slack) {
        clipped.push(
          `${name(element)} ${element.scrollWidth}x${element.scrollHeight} in ${element.clientWidth}x${element.clientHeight}`,
        );
      }
    }
    const fonts: Record<string, number[]> = {};
    for (const selector of [".dh-title-text", ".dh-heading-text", ".dh-stat-value", ".dh-bullets"]) {
      fonts[selector] = [...section.querySelectorAll(selector)].map((e) => parseFloat(getComputedStyle(e).fontSize));
    }
    const stats = [...section.querySelectorAll(".dh-stat-value")].map((element) => ({
      ...box(element),
      fontSize: parseFloat(getComputedStyle(element).fontSize),
    }));
    // The body area: from the heading (plus the slide's gap) to the bottom of the content box.
    let balance: Measure["balance"] = null;
    const children = [...section.children].filter((child) => !child.classList.contains("dh-slide-image"));
    const heading = children[0];
    if (heading?.classList.contains("dh-heading") && children.length > 1) {
      const style = getComputedStyle(section);
      const top = box(heading).y + box(heading).h + parseFloat(style.rowGap);
      const bottom = section.offsetHeight - parseFloat(style.paddingBottom);
      const first = box(children[1]!);
      const last = box(children.at(-1)!);
      balance = { above: first.y - top, below: bottom - (last.y + last.h), bodyBottom: last.y + last.h };
    }
    return {
      outside,
      clipped,
      overflow: section.hasAttribute("data-dh-overflow"),
      overflowMarks: [...section.querySelectorAll("[data-dh-overflow]")].map(name),
      stats,
      fonts,
      balance,
    };
  }, slide);
}

const open = (slug: string, slide: number, shot: string) =>
  openSlide(browser, server.origin, slug, slide, path.join(SHOTS, `${shot}.png`));

function expectFits(result: Measure) {
  expect(result.outside, "boxes outside the canvas").toEqual([]);
  expect(result.clipped, "clipped text").toEqual([]);
  expect(result.overflow).toBe(false);
  expect(result.overflowMarks).toEqual([]);
}

describe("slides use the canvas and their text fits", () => {
  it("the brief states the floors the player uses", () => {
    const brief = buildAuthoringBrief();
    expect(brief).toContain(`down to ${Math.round(SLIDE_FLOOR * 100)}% of its sizes`);
    expect(brief).toContain(`a Stat value to ${Math.round(WORD_FLOORS["dh-stat-value"]! * 100)}%`);
  });

  it("balances a heading and three bullets in the space under the heading", async () => {
    const { slug } = await publishDeck(author, { source: stressDeck });
    const { page, frame } = await open(slug, 1, "balanced");
    const result = await measure(frame, 1);
    expectFits(result);
    expect(result.balance).not.toBeNull();
    const { above, below, bodyBottom } = result.balance!;
    expect(Math.abs(above - below), JSON.stringify(result.balance)).toBeLessThan(24);
    expect(above).toBeGreaterThan(100);
    expect(bodyBottom).toBeGreaterThan(CANVAS.height * 0.5);
    // Three short bullets are drawn larger to fill the slide (not shrunk, and not past the growth cap);
    // the heading keeps the size every slide's heading has.
    const [bullets] = result.fonts[".dh-bullets"]!;
    expect(bullets).toBeGreaterThan(BASE * 1.1);
    expect(bullets).toBeLessThanOrEqual(BASE * GROW_MAX + 0.01);
    expect(result.fonts[".dh-heading-text"]).toEqual([BASE * SCALE ** 4]);
    // No band of the content box wider than a quarter of its height is left empty.
    expect(Math.max(above, below), JSON.stringify(result.balance)).toBeLessThan((CANVAS.height - 2 * 96) / 4);
    await page.context().close();
  });

  it("shrinks a 40-character word in a Title to fit the width", async () => {
    const { slug } = await publishDeck(author, { source: stressDeck });
    const { page, frame } = await open(slug, 2, "long-word");
    const result = await measure(frame, 2);
    expectFits(result);
    const nominal = BASE * SCALE ** 5;
    const [size] = result.fonts[".dh-title-text"]!;
    expect(size).toBeLessThan(nominal);
    expect(size).toBeGreaterThanOrEqual(nominal * WORD_FLOORS["dh-title-text"]! - 0.5);
    await page.context().close();
  });

  it("shrinks ten bullets to fit, above the floor, and shows all of them", async () => {
    const { slug } = await publishDeck(author, { source: stressDeck });
    const { page, frame } = await open(slug, 3, "ten-bullets");
    const result = await measure(frame, 3);
    expectFits(result);
    const [size] = result.fonts[".dh-bullets"]!;
    expect(size).toBeLessThan(BASE);
    expect(size).toBeGreaterThanOrEqual(BASE * SLIDE_FLOOR - 0.5);
    await expect.poll(() => frame.locator('.dh-slide[data-slide="3"] .dh-bullet').last().innerText()).toBe("Ten");
    await page.context().close();
  });

  it("marks a slide whose content cannot fit even at the floor, instead of cutting it silently", async () => {
    const { slug } = await publishDeck(author, { source: stressDeck });
    const { page, frame } = await open(slug, 4, "forty-bullets");
    const result = await measure(frame, 4);
    expect(result.overflow).toBe(true);
    expect(result.overflowMarks).toContain("ul.dh-bullets");
    expect(result.fonts[".dh-bullets"]![0]).toBeCloseTo(BASE * SLIDE_FLOOR, 1);
    const status = await frame.evaluate(() => window.__deckhand?.ready);
    expect(status).toBe(true);
    await page.context().close();
  });

  it("stretches cells to equal heights and grows media into the space under the heading", async () => {
    const image = `data:image/png;base64,${(await solidPng(320, 180, "#9ca3af")).toString("base64")}`;
    const { slug } = await publishDeck(author, { source: shapesDeck(image) });
    const boxes = (frame: Frame, n: number, selector: string) =>
      frame.evaluate(
        ([n, selector]) => {
          const section = document.querySelector<HTMLElement>(`.dh-slide[data-slide="${n}"]`)!;
          const origin = section.getBoundingClientRect();
          const scale = origin.width / section.offsetWidth;
          const heading = section.querySelector(".dh-heading")!.getBoundingClientRect();
          const under = (origin.bottom - heading.bottom) / scale;
          return {
            under,
            boxes: [...section.querySelectorAll(selector!)].map((element) => {
              const rect = element.getBoundingClientRect();
              return { y: (rect.top - origin.top) / scale, w: rect.width / scale, h: rect.height / scale };
            }),
          };
        },
        [n, selector] as const,
      );

    for (const [n, shot] of [
      [1, "columns-equal"],
      [2, "grid-equal"],
    ] as const) {
      const { page, frame } = await open(slug, n, shot);
      expectFits(await measure(frame, n));
      const { boxes: cards } = await boxes(frame, n, ".dh-box");
      expect(cards.length).toBe(n === 1 ? 2 : 4);
      // Cells of one row are as tall as the tallest (the short card is not shrink-wrapped).
      const rows = n === 1 ? [cards] : [cards.slice(0, 2), cards.slice(2)];
      for (const row of rows)
        expect(Math.max(...row.map((c) => c.h)) - Math.min(...row.map((c) => c.h))).toBeLessThan(1);
      await page.context().close();
    }

    for (const [n, shot, selector] of [
      [3, "chart-grows", ".dh-chart"],
      [5, "image-grows", ".dh-image"],
    ] as const) {
      const { page, frame } = await open(slug, n, shot);
      expectFits(await measure(frame, n));
      const { under, boxes: media } = await boxes(frame, n, selector);
      expect(media).toHaveLength(1);
      // The picture takes most of the space left under the heading, not its intrinsic size.
      expect(media[0]!.h, JSON.stringify({ under, media })).toBeGreaterThan(under * 0.6);
      await page.context().close();
    }

    // A table alone is balanced under its heading and spans the content width.
    const { page, frame } = await open(slug, 4, "table-balanced");
    const table = await measure(frame, 4);
    expectFits(table);
    expect(Math.abs(table.balance!.above - table.balance!.below)).toBeLessThan(24);
    const { boxes: tables } = await boxes(frame, 4, ".dh-table");
    expect(tables[0]!.w).toBeGreaterThan(CANVAS.width * 0.8);
    await page.context().close();
  }, 120_000);

  it("keeps covers and statements centred on the canvas", async () => {
    const { slug } = await publishDeck(author, { source: shapesDeck("data:,") });
    for (const [n, shot, selector] of [
      [6, "cover-centred", ".dh-title"],
      [7, "statement-centred", ".dh-heading"],
    ] as const) {
      const { page, frame } = await open(slug, n, shot);
      expectFits(await measure(frame, n));
      const centre = await frame.evaluate(
        ([n, selector]) => {
          const section = document.querySelector<HTMLElement>(`.dh-slide[data-slide="${n}"]`)!;
          const origin = section.getBoundingClientRect();
          const scale = origin.width / section.offsetWidth;
          const rect = section.querySelector(selector!)!.getBoundingClientRect();
          return {
            x: ((rect.left + rect.right) / 2 - origin.left) / scale,
            y: ((rect.top + rect.bottom) / 2 - origin.top) / scale,
          };
        },
        [n, selector] as const,
      );
      expect(Math.abs(centre.x - CANVAS.width / 2), JSON.stringify(centre)).toBeLessThan(24);
      expect(Math.abs(centre.y - CANVAS.height / 2), JSON.stringify(centre)).toBeLessThan(24);
      await page.context().close();
    }
  }, 60_000);

  it("writes the fitted sizes into the PPTX: ten bullets at the size the viewer shrank them to", async () => {
    const { id, slug } = await publishDeck(author, { source: stressDeck });
    const { page, frame } = await open(slug, 3, "ten-bullets-for-pptx");
    const [fitted] = (await measure(frame, 3)).fonts[".dh-bullets"]!;
    await page.context().close();
    expect(fitted).toBeLessThan(BASE);

    const queued = await call("POST", `/decks/${id}/exports`, { key: author.key, body: { format: "pptx" } });
    expect((await waitForExport(author, queued.body.id)).status).toBe("completed");
    const location = (await call("GET", `/exports/${queued.body.id}/download`, { key: author.key })).headers.get(
      "location",
    )!;
    const parts = await readPptxXml(Buffer.from(await (await fetch(location)).arrayBuffer()));
    const slide = slideParts(parts)[2]!;
    // The bullets' runs: the paragraphs that hold "One" … "Ten", at the fitted size (1 px = 0.5 pt).
    const sizes = new Set<string>();
    for (const paragraph of slide.getElementsByTagName("a:p")) {
      const text = [...paragraph.getElementsByTagName("a:t")].map((run) => run.textContent).join("");
      if (!ten.includes(text)) continue;
      for (const run of paragraph.getElementsByTagName("a:rPr")) sizes.add(run.getAttribute("sz") ?? "");
    }
    expect([...sizes]).toEqual([String(Math.round(fitted! * 0.5 * 100))]);
  }, 120_000);

  it("keeps three big Stats under a type scale of 1.4 apart, one size, inside the canvas", async () => {
    const { id, slug } = await publishDeck(author, { source: statsDeck, tokensCss: bigScale });
    const { page, frame } = await open(slug, 1, "stats-scale-1.4");
    // The sheet sets one token; the others (colours, padding) are the defaults.
    expect(
      await frame.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--color-text").trim()),
    ).toBe(themeTokens.find((token) => token.name === "--color-text")!.default);
    const result = await measure(frame, 1);
    expectFits(result);
    expect(result.stats).toHaveLength(3);
    const nominal = BASE * 1.4 ** 5;
    for (const stat of result.stats) {
      expect(stat.fontSize).toBeLessThan(nominal);
      expect(stat.fontSize).toBeGreaterThanOrEqual(nominal * WORD_FLOORS["dh-stat-value"]! - 0.5);
    }
    expect(new Set(result.stats.map((stat) => stat.fontSize)).size).toBe(1);
    for (let i = 0; i < result.stats.length; i++) {
      for (let j = i + 1; j < result.stats.length; j++) {
        const a = result.stats[i]!;
        const b = result.stats[j]!;
        const apart =
          a.x + a.w <= b.x + 0.5 || b.x + b.w <= a.x + 0.5 || a.y + a.h <= b.y + 0.5 || b.y + b.h <= a.y + 0.5;
        expect(apart, `stat ${i + 1} and ${j + 1} overlap`).toBe(true);
      }
    }
    // The values are drawn whole, on one line each.
    for (const stat of result.stats) expect(stat.h).toBeLessThan(stat.fontSize * 1.5);
    await page.context().close();

    // The PDF export prints the same fitted slide.
    const queued = await call("POST", `/decks/${id}/exports`, { key: author.key, body: { format: "pdf" } });
    expect(queued.status).toBe(202);
    expect((await waitForExport(author, queued.body.id)).status).toBe("completed");
    const location = (await call("GET", `/exports/${queued.body.id}/download`, { key: author.key })).headers.get(
      "location",
    )!;
    const bytes = Buffer.from(await (await fetch(location)).arrayBuffer());
    const pdfPath = path.join(SHOTS, "stats-scale-1.4.pdf");
    fs.writeFileSync(pdfPath, bytes);
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    const text = (await (await pdf.getPage(1)).getTextContent()).items.map((item) => ("str" in item ? item.str : ""));
    expect(text.join(" ")).toMatch(/\$16\.8M[\s\S]*\$14\.1M[\s\S]*212/);
    try {
      execFileSync("pdftoppm", ["-png", "-r", "50", pdfPath, path.join(SHOTS, "stats-pdf")]);
    } catch {
      // poppler is optional here; the screenshot is for people, the text check above is the test
    }
  }, 120_000);
});
