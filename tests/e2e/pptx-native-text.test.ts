import fs from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopLocalRunner } from "@/lib/jobs/local-runner";
import { closeRenderBrowser } from "@/lib/render/browser";
import { call, createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { launchBrowser, openDeckFrame } from "../helpers/browser";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, setContent } from "../helpers/decks";
import { waitForExport } from "../helpers/exports";
import { pictureProblems, readPptxXml, slideParts, texts } from "../helpers/pptx-xml";
import { emojiText, eyebrow, longTitle, markerPoints, nativeTextDeck, pythonLines } from "../helpers/sample-decks";

// The text the PPTX writes natively (issue 18, items 2, 3 and 5), read back from the file's XML: a code
// block is one text box with every leading space, its colours and its highlighted line's band and bar;
// each Bullets list is one text box with PowerPoint's bullets or numbering; number badges are centred in
// their circles; emoji are kept in a run of an emoji font; a single-line box (wrap="none") is at least as
// wide as the viewer draws its text. How LibreOffice draws the same deck is in pptx-fidelity.test.ts.

const EMU_PER_PX = 914_400 / 144;

type Xml = ReturnType<typeof slideParts>[number];
type Node = ReturnType<Xml["getElementsByTagName"]>[number];

let server: AppServer;
let browser: Browser;
let user: TestUser;
let slides: Xml[];
let problems: string[];
let slug: string;

beforeAll(async () => {
  await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  browser = await launchBrowser();
  user = await createUser();
  const deck = await createDeck(user, { title: "Native text" });
  const content = await setContent(user, deck.id, { source: nativeTextDeck });
  expect(content.status, JSON.stringify(content.body)).toBeLessThan(300);
  slug = (await call("PATCH", `/decks/${deck.id}`, { key: user.key, body: { visibility: "public" } })).body.publicSlug;
  const queued = await call("POST", `/decks/${deck.id}/exports`, { key: user.key, body: { format: "pptx" } });
  expect((await waitForExport(user, queued.body.id, 180_000)).status).toBe("completed");
  const location = (await call("GET", `/exports/${queued.body.id}/download`, { key: user.key })).headers.get(
    "location",
  )!;
  const bytes = Buffer.from(await (await fetch(location)).arrayBuffer());
  fs.mkdirSync("/tmp/native-text", { recursive: true });
  fs.writeFileSync(path.join("/tmp/native-text", "native-text.pptx"), bytes);
  slides = slideParts(await readPptxXml(bytes));
  problems = await pictureProblems(bytes);
}, 240_000);

afterAll(async () => {
  stopLocalRunner();
  await closeRenderBrowser();
  await browser?.close();
  await server?.close();
});

const children = (node: Node, tag: string) => [...node.getElementsByTagName(tag)];
const textOf = (node: Node) => texts(node as never, "a:t").join("");
const shapes = (slide: Xml) => children(slide as never, "p:sp");
const paragraphsOf = (shape: Node) => children(shape, "a:p");
const extent = (shape: Node) => {
  const ext = children(shape, "a:ext")[0]!;
  const off = children(shape, "a:off")[0]!;
  return {
    x: Number(off.getAttribute("x")) / EMU_PER_PX,
    y: Number(off.getAttribute("y")) / EMU_PER_PX,
    w: Number(ext.getAttribute("cx")) / EMU_PER_PX,
    h: Number(ext.getAttribute("cy")) / EMU_PER_PX,
  };
};
/** The one text box whose text has all of these strings. */
const boxWith = (slide: Xml, ...parts: string[]) => {
  const found = shapes(slide).filter((shape) => parts.every((part) => textOf(shape).includes(part)));
  expect(found, `one box with ${JSON.stringify(parts)}`).toHaveLength(1);
  return found[0]!;
};

describe("PPTX native text", () => {
  it("gives every picture alt text that says something and stores no media file twice", () => {
    expect(problems).toEqual([]);
  });

  it("writes every paragraph with at most one a:pPr, before its runs", () => {
    for (const slide of slides) {
      for (const paragraph of children(slide as never, "a:p")) {
        const kids = [...paragraph.childNodes].filter((node) => node.nodeType === 1) as unknown as Node[];
        const properties = kids.filter((node) => node.nodeName === "a:pPr");
        expect(properties.length).toBeLessThanOrEqual(1);
        if (properties.length === 1) expect(kids[0]!.nodeName).toBe("a:pPr");
      }
    }
  });

  it("writes a code block as one text box that keeps every line, leading space and colour", () => {
    const code = boxWith(slides[0]!, ...pythonLines.filter((line) => line.trim()).map((line) => line.trim()));
    const lines = paragraphsOf(code).map(textOf);
    expect(lines).toEqual(pythonLines);
    // The runs are in the tokens' monospace font.
    const fonts = new Set(children(code, "a:latin").map((font) => font.getAttribute("typeface")));
    expect(fonts.size).toBe(1);
    expect([...fonts][0]).toMatch(/mono/i);
    // Syntax colours as runs; the lines that are not highlighted are dimmed (opacity 0.55 as alpha).
    const colours = new Set(children(code, "a:srgbClr").map((colour) => colour.getAttribute("val")));
    expect(colours.size).toBeGreaterThanOrEqual(3);
    const alphas = (paragraph: Node) => children(paragraph, "a:alpha").map((alpha) => alpha.getAttribute("val"));
    const paragraphs = paragraphsOf(code);
    expect(alphas(paragraphs[0]!).length).toBeGreaterThan(0);
    expect(alphas(paragraphs[0]!).every((value) => Number(value) <= 56_000)).toBe(true);
    expect(alphas(paragraphs[3]!)).toEqual([]);

    // The long comment wraps with a hanging indent; the other lines have none.
    const margins = paragraphs.map((paragraph) => children(paragraph, "a:pPr")[0]!.getAttribute("marL"));
    const indents = paragraphs.map((paragraph) => children(paragraph, "a:pPr")[0]!.getAttribute("indent"));
    expect(Number(margins[0])).toBeGreaterThan(0);
    expect(indents[0]).toBe(`-${margins[0]}`);

    // The highlighted line (4) is a filled band as tall as one line, with its accent bar on the left.
    const box = extent(code);
    const lineHeight = box.h / (pythonLines.length + 1);
    const band = shapes(slides[0]!).find((shape) => {
      const place = extent(shape);
      return !textOf(shape) && Math.abs(place.h - lineHeight) < 6 && place.w > box.w * 0.9;
    });
    expect(band, "the highlighted line's band").toBeDefined();
    const bandPlace = extent(band!);
    expect(Math.abs(bandPlace.y - (box.y + 3 * lineHeight))).toBeLessThan(8);
    const bar = shapes(slides[0]!).find((shape) => {
      const place = extent(shape);
      return (
        !textOf(shape) && Math.abs(place.x - bandPlace.x) < 1 && place.w < 8 && Math.abs(place.h - bandPlace.h) < 1
      );
    });
    expect(bar, "the highlighted line's bar").toBeDefined();
  });

  it("writes each Bullets list as one text box with native bullets or numbering in the marker's colour", () => {
    const slide = slides[1]!;
    const expected = { dot: "•", check: "✓", arrow: "→" } as const;
    for (const [kind, points] of Object.entries(markerPoints)) {
      const list = boxWith(slide, ...points);
      const paragraphs = paragraphsOf(list);
      expect(paragraphs.map(textOf)).toEqual(points);
      for (const paragraph of paragraphs) {
        const properties = children(paragraph, "a:pPr")[0]!;
        expect(Number(properties.getAttribute("marL")), kind).toBeGreaterThan(0);
        expect(Number(properties.getAttribute("indent")), kind).toBeLessThan(0);
        expect(children(properties, "a:buClr"), kind).toHaveLength(1);
        if (kind === "number") {
          expect(children(properties, "a:buAutoNum")[0]!.getAttribute("type")).toBe("arabicPlain");
        } else {
          expect(children(properties, "a:buChar")[0]!.getAttribute("char")).toBe(
            expected[kind as keyof typeof expected],
          );
        }
      }
      // Space between the points as in the viewer.
      for (const paragraph of paragraphs.slice(1)) expect(children(paragraph, "a:spcBef"), kind).toHaveLength(1);
    }
    // No marker is a picture or a text box of its own; the number badges stay as circles.
    expect(children(slide as never, "p:pic")).toHaveLength(0);
    const badges = shapes(slide).filter(
      (shape) => children(shape, "a:prstGeom")[0]?.getAttribute("prst") === "ellipse",
    );
    expect(badges).toHaveLength(markerPoints.number.length);
    expect(shapes(slide).filter((shape) => /^\d$/.test(textOf(shape)))).toHaveLength(0);
  });

  it("centres the number badges' digits in their circles", () => {
    for (const digit of ["1", "2", "3"]) {
      const badge = shapes(slides[2]!).find((shape) => textOf(shape) === digit)!;
      expect(badge, digit).toBeDefined();
      expect(children(badge, "a:bodyPr")[0]!.getAttribute("anchor")).toBe("ctr");
      expect(children(badge, "a:pPr")[0]!.getAttribute("algn")).toBe("ctr");
    }
  });

  it("keeps emoji, in runs of an emoji font", () => {
    const box = boxWith(slides[2]!, "Shipped on time");
    expect(textOf(box)).toBe(emojiText);
    const runs = children(box, "a:r");
    for (const emoji of ["🚀", "👍🏽"]) {
      const run = runs.find((candidate) => textOf(candidate) === emoji);
      expect(run, emoji).toBeDefined();
      expect(children(run!, "a:latin")[0]!.getAttribute("typeface")).toBe("Segoe UI Emoji");
    }
  });

  it("makes no single-line box narrower than the viewer draws its text", async () => {
    const page = await (await browser.newContext({ viewport: { width: 1920, height: 1080 } })).newPage();
    const measured: Record<string, number> = {};
    for (const [slide, selectors] of [
      [1, [".dh-kicker"]],
      [4, [".dh-kicker", ".dh-title-text"]],
    ] as const) {
      const frame = await openDeckFrame(page, `${server.origin}/d/${slug}/embed?chrome=0&slide=${slide}`);
      await expect.poll(() => frame.evaluate(() => document.fonts.status)).toBe("loaded");
      for (const selector of selectors) {
        const width = await frame.evaluate((selector) => {
          const element = document.querySelector(`.dh-stage-slide:not([hidden]) ${selector}`)!;
          const range = document.createRange();
          range.selectNodeContents(element);
          const scale = document
            .querySelector(".dh-stage-slide:not([hidden]) .dh-slide")!
            .getBoundingClientRect().width;
          return (range.getBoundingClientRect().width * 1920) / scale;
        }, selector);
        measured[`${slide}${selector}`] = width;
      }
    }
    await page.context().close();

    const check = (slide: Xml, text: string, width: number) => {
      const box = boxWith(slide, text);
      expect(children(box, "a:bodyPr")[0]!.getAttribute("wrap"), text).toBe("none");
      // 5% more than the browser's own width, for another program's metrics.
      expect(extent(box).w, text).toBeGreaterThanOrEqual(width * 1.05);
    };
    check(slides[0]!, eyebrow.toUpperCase(), measured["1.dh-kicker"]!);
    check(slides[3]!, eyebrow.toUpperCase(), measured["4.dh-kicker"]!);
    check(slides[3]!, longTitle, measured["4.dh-title-text"]!);
  }, 60_000);
});
