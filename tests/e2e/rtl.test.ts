import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Frame } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopLocalRunner } from "@/lib/jobs/local-runner";
import { closeRenderBrowser } from "@/lib/render/browser";
import { call, createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { launchBrowser, openDeckFrame } from "../helpers/browser";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, setContent } from "../helpers/decks";
import { waitForExport } from "../helpers/exports";
import { convertWithLibreOffice, readPptxXml, slideParts, texts } from "../helpers/pptx-xml";
import { stableScreenshot } from "../helpers/screenshots";

// Right-to-left and mixed scripts: the vocabulary's text elements carry dir="auto", so Arabic and Hebrew
// text is laid out right to left and right-aligned in the viewer (and so in the PDF), bullets have their
// markers on the right, a slide in Arabic or Hebrew runs from the right, and the PPTX marks those
// paragraphs rtl="1" algn="r". English stays as it was. Pictures of the viewer, the PDF and the PPTX
// (through LibreOffice) go to /tmp/rtl-shots for a person to look at.

const SHOTS = "/tmp/rtl-shots";

const arabicTitle = "تقرير الربع الثالث";
const arabicBullets = ["نمو الإيرادات بنسبة كبيرة", "عملاء جدد في ثلاث مناطق", "خطة التوسع للعام القادم"];
const arabicText = "هذه الفقرة تشرح النتائج الرئيسية للفريق خلال الربع الماضي.";
const hebrewHeading = "סיכום הרבעון";
const hebrewBullets = ["צמיחה בהכנסות", "לקוחות חדשים", "תוכנית לשנה הבאה"];
const hebrewText = "הפסקה הזאת מסבירה את התוצאות העיקריות.";
const hebrewCells = [
  ["אזור", "הכנסות"],
  ["צפון", "מאה"],
];
// One line in Arabic with an English word in the middle: the bidi algorithm puts "Deckhand" between
// the Arabic words before and after it, reading from the right.
const mixedBefore = "نستخدم";
const mixedWord = "Deckhand";
const mixedAfter = "لكل العروض";
const mixedLine = `${mixedBefore} ${mixedWord} ${mixedAfter}`;
const englishTitle = "Third quarter report";
const englishBullets = ["Revenue grew strongly", "New customers in three regions", "Plans for next year"];
const englishText = "This paragraph explains the main results of the quarter.";

const rtlDeck = `import { Deck, Slide, Title, Heading, Text, Bullets, Table } from "@deckhand/player";

export default function Scripts() {
  return (
    <Deck title="Scripts">
      <Slide label="Arabic">
        <Title>${arabicTitle}</Title>
        <Bullets items={${JSON.stringify(arabicBullets)}} />
        <Text>${arabicText}</Text>
      </Slide>
      <Slide label="Hebrew">
        <Heading>${hebrewHeading}</Heading>
        <Bullets items={${JSON.stringify(hebrewBullets)}} />
        <Text>${hebrewText}</Text>
        <Table columns={${JSON.stringify(hebrewCells[0])}} rows={${JSON.stringify(hebrewCells.slice(1))}} />
      </Slide>
      <Slide label="Mixed">
        <Heading>${arabicTitle}</Heading>
        <Text size="lg">${mixedLine}</Text>
      </Slide>
      <Slide label="English">
        <Title>${englishTitle}</Title>
        <Bullets items={${JSON.stringify(englishBullets)}} />
        <Text>${englishText}</Text>
      </Slide>
    </Deck>
  );
}
`;

let server: AppServer;
let browser: Browser;
let user: TestUser;
let work: string;
let deckId: string;
let slug: string;

beforeAll(async () => {
  await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  browser = await launchBrowser();
  user = await createUser();
  work = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-rtl-"));
  fs.mkdirSync(SHOTS, { recursive: true });
  const deck = await createDeck(user, { title: "Scripts" });
  deckId = deck.id;
  const content = await setContent(user, deckId, { source: rtlDeck });
  expect(content.status, JSON.stringify(content.body)).toBeLessThan(300);
  const published = await call("PATCH", `/decks/${deckId}`, { key: user.key, body: { visibility: "public" } });
  slug = published.body.publicSlug;
}, 180_000);

afterAll(async () => {
  stopLocalRunner();
  await closeRenderBrowser();
  await browser?.close();
  await server?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

type Measured = {
  selector: string;
  text: string;
  direction: string;
  textAlign: string;
  /** Where the text's last line starts, and its right edge (a range over it), in canvas pixels from the slide's left. */
  textLeft: number;
  textRight: number;
  /** The slide's content box (inside its padding), in the same pixels. */
  contentLeft: number;
  contentRight: number;
  /** For a bullet: its marker's left and right edges. */
  markerLeft?: number;
  markerRight?: number;
  /** For a table cell: its box inside the padding. */
  cellLeft?: number;
  cellRight?: number;
};

// Every text element of the slide on show, measured on the 1920px canvas whatever the stage's scale.
function measure(frame: Frame): Promise<{ slideDir: string | null; elements: Measured[] }> {
  return frame.evaluate(() => {
    const slide = document.querySelector<HTMLElement>(".dh-stage-slide:not([hidden]) .dh-slide")!;
    const box = slide.getBoundingClientRect();
    const scale = box.width / 1920;
    const slideStyle = getComputedStyle(slide);
    const contentLeft = Number.parseFloat(slideStyle.paddingLeft);
    const contentRight = 1920 - Number.parseFloat(slideStyle.paddingRight);
    const x = (value: number) => (value - box.left) / scale;
    const selectors = [".dh-title-text", ".dh-heading-text", ".dh-text", ".dh-bullet", ".dh-table-cell"];
    const elements: Measured[] = [];
    for (const selector of selectors) {
      for (const element of slide.querySelectorAll<HTMLElement>(selector)) {
        const style = getComputedStyle(element);
        const target = element.querySelector(".dh-bullet-body") ?? element;
        const range = document.createRange();
        range.selectNodeContents(target);
        const text = range.getBoundingClientRect();
        // Where the last line starts: a wrapped paragraph's other lines fill the width whatever its alignment.
        const lines = [...range.getClientRects()].filter((rect) => rect.width > 0);
        const lastTop = Math.max(...lines.map((rect) => rect.top));
        const lastLeft = Math.min(...lines.filter((rect) => rect.top > lastTop - 4).map((rect) => rect.left));
        const measured: Measured = {
          selector,
          text: target.textContent ?? "",
          direction: style.direction,
          textAlign: style.textAlign,
          textLeft: x(lines.length > 0 ? lastLeft : text.left),
          textRight: x(text.right),
          contentLeft,
          contentRight,
        };
        const marker = element.querySelector(".dh-bullet-marker");
        if (marker) {
          const rect = marker.getBoundingClientRect();
          measured.markerLeft = x(rect.left);
          measured.markerRight = x(rect.right);
        }
        if (selector === ".dh-table-cell") {
          const rect = element.getBoundingClientRect();
          measured.cellLeft = x(rect.left) + Number.parseFloat(style.paddingLeft);
          measured.cellRight = x(rect.right) - Number.parseFloat(style.paddingRight);
        }
        elements.push(measured);
      }
    }
    return { slideDir: slide.getAttribute("dir"), elements };
  });
}

async function openSlide(slide: number) {
  const page = await (await browser.newContext({ viewport: { width: 1920, height: 1080 } })).newPage();
  const frame = await openDeckFrame(page, `${server.origin}/d/${slug}/embed?chrome=0&slide=${slide}`);
  await expect.poll(() => frame.evaluate(() => document.fonts.status)).toBe("loaded");
  return { page, frame };
}

describe("right-to-left text in the viewer", () => {
  it.each([
    [1, "arabic"],
    [2, "hebrew"],
  ])(
    "lays out slide %i (%s) right to left, right-aligned, with bullet markers on the right",
    async (slide, name) => {
      const { page, frame } = await openSlide(slide);
      await expect.poll(async () => (await measure(frame)).slideDir).toBe("rtl");
      const { elements } = await measure(frame);
      fs.writeFileSync(path.join(SHOTS, `viewer-${slide}-${name}.png`), await stableScreenshot(page));
      await page.context().close();

      expect(elements.filter((element) => element.selector === ".dh-bullet")).toHaveLength(3);
      for (const element of elements) {
        const label = `${element.selector} "${element.text}"`;
        expect(element.direction, label).toBe("rtl");
        if (element.selector === ".dh-table-cell") {
          // Right-aligned in its cell.
          expect(Math.abs(element.cellRight! - element.textRight), label).toBeLessThan(4);
          continue;
        }
        // Right-aligned on the slide: the text ends at the content box's right edge, and its last line starts
        // away from its left edge.
        const markerWidth = element.markerRight !== undefined ? element.markerRight - element.markerLeft! : 0;
        if (element.selector === ".dh-bullet") {
          expect(element.markerLeft!, `${label}: marker right of the text`).toBeGreaterThanOrEqual(
            element.textRight - 1,
          );
          expect(Math.abs(element.contentRight - element.markerRight!), label).toBeLessThan(4);
          expect(element.contentRight - element.textRight, label).toBeLessThan(markerWidth + 60); // the gap is 0.6em
        } else {
          expect(Math.abs(element.contentRight - element.textRight), label).toBeLessThan(4);
        }
        // (At the presenting size the paragraph's one line nearly fills the box: away from the left edge.)
        expect(element.textLeft - element.contentLeft, label).toBeGreaterThan(40);
      }
    },
    60_000,
  );

  it("orders a mixed Arabic and English line right to left, with the English word in its place", async () => {
    const { page, frame } = await openSlide(3);
    await expect.poll(async () => (await measure(frame)).slideDir).toBe("rtl");
    const line = await frame.evaluate(
      ([before, word, after]) => {
        const paragraph = document.querySelector(".dh-stage-slide:not([hidden]) .dh-text")!;
        const node = paragraph.firstChild!;
        const source = node.textContent!;
        const span = (part: string) => {
          const range = document.createRange();
          const start = source.indexOf(part);
          range.setStart(node, start);
          range.setEnd(node, start + part.length);
          const rect = range.getBoundingClientRect();
          return { left: rect.left, right: rect.right, top: rect.top };
        };
        return {
          direction: getComputedStyle(paragraph).direction,
          before: span(before!),
          word: span(word!),
          after: span(after!),
        };
      },
      [mixedBefore, mixedWord, mixedAfter],
    );
    fs.writeFileSync(path.join(SHOTS, "viewer-3-mixed.png"), await stableScreenshot(page));
    await page.context().close();

    expect(line.direction).toBe("rtl");
    // One line, read from the right: the first Arabic word, then the English word, then the rest.
    expect(Math.abs(line.before.top - line.word.top)).toBeLessThan(4);
    expect(Math.abs(line.after.top - line.word.top)).toBeLessThan(4);
    expect(line.before.left).toBeGreaterThanOrEqual(line.word.right - 1);
    expect(line.word.left).toBeGreaterThanOrEqual(line.after.right - 1);
  }, 60_000);

  it("keeps an English slide left to right and left-aligned, with no dir on the slide", async () => {
    const { page, frame } = await openSlide(4);
    const { slideDir, elements } = await measure(frame);
    fs.writeFileSync(path.join(SHOTS, "viewer-4-english.png"), await stableScreenshot(page));
    await page.context().close();

    expect(slideDir).toBeNull();
    expect(elements.length).toBeGreaterThanOrEqual(5);
    for (const element of elements) {
      const label = `${element.selector} "${element.text}"`;
      expect(element.direction, label).toBe("ltr");
      if (element.selector === ".dh-bullet") {
        expect(element.markerRight!, label).toBeLessThanOrEqual(element.textLeft + 1);
        expect(Math.abs(element.markerLeft! - element.contentLeft), label).toBeLessThan(4);
      } else {
        expect(Math.abs(element.textLeft - element.contentLeft), label).toBeLessThan(4);
      }
    }
  }, 60_000);
});

async function download(format: "pptx" | "pdf"): Promise<string> {
  const queued = await call("POST", `/decks/${deckId}/exports`, { key: user.key, body: { format } });
  expect(queued.status, JSON.stringify(queued.body)).toBeLessThan(300);
  expect((await waitForExport(user, queued.body.id, 180_000)).status).toBe("completed");
  const location = (await call("GET", `/exports/${queued.body.id}/download`, { key: user.key })).headers.get(
    "location",
  )!;
  const file = path.join(work, `scripts.${format}`);
  fs.writeFileSync(file, Buffer.from(await (await fetch(location)).arrayBuffer()));
  return file;
}

// Each paragraph of a slide part: its text and its <a:pPr>'s rtl and algn.
function paragraphs(slide: ReturnType<typeof slideParts>[number]) {
  return [...slide.getElementsByTagName("a:p")].map((paragraph) => {
    const properties = paragraph.getElementsByTagName("a:pPr")[0];
    return {
      text: texts(paragraph as never, "a:t").join(""),
      rtl: properties?.getAttribute("rtl") ?? "",
      algn: properties?.getAttribute("algn") ?? "",
    };
  });
}

function toPngs(pdf: string, prefix: string): string[] {
  execFileSync("pdftoppm", ["-png", "-r", "50", pdf, path.join(SHOTS, prefix)]);
  return fs
    .readdirSync(SHOTS)
    .filter((file) => file.startsWith(`${prefix}-`) && file.endsWith(".png"))
    .sort();
}

describe("right-to-left text in the exports", () => {
  it('marks Arabic and Hebrew paragraphs and cells rtl="1" algn="r" in the PPTX, and not the English ones', async () => {
    const pptx = await download("pptx");
    const slides = slideParts(await readPptxXml(fs.readFileSync(pptx)));
    expect(slides).toHaveLength(4);
    const [arabic, hebrew, mixed, english] = slides.map(paragraphs);
    const hebrewSlide = slides[1]!;

    const expectRtl = (found: ReturnType<typeof paragraphs>, text: string) => {
      const paragraph = found.find((entry) => entry.text.includes(text));
      expect(paragraph, `a paragraph with "${text}" in ${JSON.stringify(found)}`).toBeDefined();
      expect(paragraph, text).toMatchObject({ rtl: "1", algn: "r" });
    };
    for (const text of [arabicTitle, ...arabicBullets, arabicText]) expectRtl(arabic!, text);
    for (const text of [hebrewHeading, ...hebrewBullets, hebrewText, ...hebrewCells.flat()]) expectRtl(hebrew!, text);
    expectRtl(mixed!, mixedLine);
    // The table's columns as drawn, from the left: the first column of a Hebrew table is its rightmost.
    const headerCells = [...hebrewSlide.getElementsByTagName("a:tr")][0]!.getElementsByTagName("a:tc");
    expect([...headerCells].map((cell) => texts(cell as never, "a:t").join(""))).toEqual(
      [...hebrewCells[0]!].reverse(),
    );

    for (const text of [englishTitle, ...englishBullets, englishText]) {
      const paragraph = english!.find((entry) => entry.text.includes(text));
      expect(paragraph, text).toBeDefined();
      expect(paragraph!.rtl, text).not.toBe("1");
      expect(paragraph!.algn, text).not.toBe("r");
    }

    // For a person to look at: the PPTX as LibreOffice draws it.
    fs.copyFileSync(pptx, path.join(SHOTS, "scripts.pptx"));
    const pdf = convertWithLibreOffice(pptx, work);
    expect(toPngs(pdf, "pptx")).toHaveLength(4);
  }, 300_000);

  it("prints the PDF from the player, right to left", async () => {
    const pdf = await download("pdf");
    fs.copyFileSync(pdf, path.join(SHOTS, "scripts.pdf"));
    expect(toPngs(pdf, "pdf")).toHaveLength(4);
    const text = execFileSync("pdftotext", ["-f", "1", "-l", "1", pdf, "-"], { encoding: "utf8" });
    expect(text.replace(/\s+/g, "")).not.toBe("");
  }, 300_000);
});
