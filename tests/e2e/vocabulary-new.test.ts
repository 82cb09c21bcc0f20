import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Frame } from "playwright-core";
import { getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopLocalRunner } from "@/lib/jobs/local-runner";
import { closeRenderBrowser } from "@/lib/render/browser";
import { call, createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { launchBrowser, openSlide } from "../helpers/browser";
import { publishDeck } from "../helpers/decks";
import { setUpTestDatabase } from "../helpers/database";
import { waitForExport } from "../helpers/exports";
import {
  attributeValues,
  convertWithLibreOffice,
  pictureProblems,
  readPptxXml,
  slideParts,
  texts,
} from "../helpers/pptx-xml";
import { milestones, newVocabularyDeck as deck } from "../helpers/sample-decks";

// Timeline, Steps and multi-series charts in Chromium: drawn, inside the canvas, exported to PDF and to
// PPTX with the milestones as native text. Screenshots of everything go to /tmp/vocab-shots for a person.

const SHOTS = "/tmp/vocab-shots";

let server: AppServer;
let browser: Browser;
let author: TestUser;

beforeAll(async () => {
  await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  browser = await launchBrowser();
  author = await createUser();
  fs.rmSync(SHOTS, { recursive: true, force: true });
  fs.mkdirSync(SHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  stopLocalRunner();
  await closeRenderBrowser();
  await browser?.close();
  await server?.close();
});

type Measure = {
  errors: number;
  outside: string[];
  overflow: boolean;
  counts: Record<string, number>;
  legend: string[];
  markers: { x: number; y: number }[];
};

// Read in canvas pixels, like tests/e2e/layout.test.ts.
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
    const outside: string[] = [];
    for (const element of section.querySelectorAll("*")) {
      const b = box(element);
      if (b.w === 0 && b.h === 0) continue;
      if (b.x < -1 || b.y < -1 || b.x + b.w > 1921 || b.y + b.h > 1081) {
        outside.push(`${element.tagName.toLowerCase()}.${element.getAttribute("class") ?? ""}`);
      }
    }
    const counts: Record<string, number> = {};
    for (const selector of [
      ".dh-timeline",
      ".dh-timeline-marker",
      ".dh-timeline-title",
      ".dh-steps",
      ".dh-step-number",
      ".dh-chart-bar",
      ".dh-chart-line",
      ".dh-chart-legend-item",
    ]) {
      counts[selector] = section.querySelectorAll(selector).length;
    }
    return {
      errors: document.querySelectorAll(".dh-error").length,
      outside,
      overflow: section.hasAttribute("data-dh-overflow"),
      counts,
      legend: [...section.querySelectorAll(".dh-chart-legend-item")].map((item) => item.textContent ?? ""),
      markers: [...section.querySelectorAll(".dh-timeline-marker")].map((marker) => {
        const b = box(marker);
        return { x: b.x + b.w / 2, y: b.y + b.h / 2 };
      }),
    };
  }, slide);
}

const open = (slug: string, slide: number, shot: string) =>
  openSlide(browser, server.origin, slug, slide, path.join(SHOTS, `${shot}.png`));

async function download(exportId: string): Promise<Buffer> {
  const location = (await call("GET", `/exports/${exportId}/download`, { key: author.key })).headers.get("location")!;
  return Buffer.from(await (await fetch(location)).arrayBuffer());
}

describe("Timeline, Steps and multi-series charts", () => {
  let published: { id: string; slug: string };

  beforeAll(async () => {
    published = await publishDeck(author, { source: deck });
  }, 60_000);

  it("draws a horizontal timeline with its markers on one line, inside the canvas", async () => {
    const { page, frame } = await open(published.slug, 1, "1-timeline");
    const result = await measure(frame, 1);
    expect(result.errors).toBe(0);
    expect(result.outside).toEqual([]);
    expect(result.overflow).toBe(false);
    expect(result.counts[".dh-timeline-marker"]).toBe(5);
    expect(result.counts[".dh-timeline-title"]).toBe(5);
    const ys = result.markers.map((marker) => marker.y);
    expect(Math.max(...ys) - Math.min(...ys)).toBeLessThan(1.5);
    const xs = result.markers.map((marker) => marker.x);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    expect(await frame.locator(".dh-timeline-item[data-state='current'] .dh-timeline-title").textContent()).toBe(
      milestones[2],
    );
    await page.context().close();
  }, 60_000);

  it("draws steps and the vertical variants", async () => {
    for (const [slide, shot] of [
      [2, "2-steps"],
      [3, "3-vertical"],
    ] as const) {
      const { page, frame } = await open(published.slug, slide, shot);
      const result = await measure(frame, slide);
      expect(result.errors).toBe(0);
      expect(result.outside).toEqual([]);
      expect(result.overflow).toBe(false);
      expect(result.counts[".dh-steps"]).toBe(1);
      expect(result.counts[".dh-step-number"]).toBe(slide === 2 ? 4 : 3);
      if (slide === 3) expect(result.counts[".dh-timeline-marker"]).toBe(3);
      await page.context().close();
    }
  }, 90_000);

  it("draws grouped and stacked bars and two lines with a legend of the series", async () => {
    const cases = [
      { slide: 4, shot: "4-grouped", legend: ["EMEA", "Americas", "APAC"], bars: 12, lines: 0 },
      { slide: 5, shot: "5-stacked", legend: ["EMEA", "Americas", "APAC"], bars: 12, lines: 0 },
      { slide: 6, shot: "6-lines", legend: ["Sign-up rate", "Activation"], bars: 0, lines: 2 },
      { slide: 7, shot: "7-single", legend: [], bars: 2, lines: 0 },
    ];
    for (const { slide, shot, legend, bars, lines } of cases) {
      const { page, frame } = await open(published.slug, slide, shot);
      await expect.poll(async () => (await measure(frame, slide)).counts[".dh-chart-bar"]).toBe(bars);
      const result = await measure(frame, slide);
      expect(result.errors).toBe(0);
      expect(result.outside).toEqual([]);
      expect(result.overflow).toBe(false);
      expect(result.legend).toEqual(legend);
      expect(result.counts[".dh-chart-line"]).toBe(lines);
      await page.context().close();
    }
  }, 120_000);

  it("exports to PDF and to PPTX with the milestones as native text", async () => {
    const pdfQueued = await call("POST", `/decks/${published.id}/exports`, {
      key: author.key,
      body: { format: "pdf" },
    });
    const pptxQueued = await call("POST", `/decks/${published.id}/exports`, {
      key: author.key,
      body: { format: "pptx" },
    });
    expect(pdfQueued.status).toBe(202);
    expect(pptxQueued.status).toBe(202);
    expect((await waitForExport(author, pdfQueued.body.id, 180_000)).status).toBe("completed");
    expect((await waitForExport(author, pptxQueued.body.id, 180_000)).status).toBe("completed");

    const pdfBytes = await download(pdfQueued.body.id);
    const pdfPath = path.join(SHOTS, "deck.pdf");
    fs.writeFileSync(pdfPath, pdfBytes);
    const pdf = await getDocumentProxy(new Uint8Array(pdfBytes));
    expect(pdf.numPages).toBe(7);
    const first = (await (await pdf.getPage(1)).getTextContent()).items
      .map((item) => ("str" in item ? item.str : ""))
      .join(" ");
    for (const title of milestones) expect(first).toContain(title);
    execFileSync("pdftoppm", ["-png", "-r", "50", pdfPath, path.join(SHOTS, "pdf")]);

    const pptxBytes = await download(pptxQueued.body.id);
    const pptxPath = path.join(SHOTS, "deck.pptx");
    fs.writeFileSync(pptxPath, pptxBytes);
    const slides = slideParts(await readPptxXml(pptxBytes));
    expect(slides).toHaveLength(7);
    // Every picture with alt text that says something, none stored twice, none larger than twice its box.
    expect(await pictureProblems(pptxBytes)).toEqual([]);
    const timelineText = texts(slides[0]!, "a:t");
    for (const title of milestones) expect(timelineText).toContain(title);
    expect(timelineText).toContain("Q3 2025");
    const stepsText = texts(slides[1]!, "a:t");
    for (const text of ["1", "2", "3", "4", "Connect", "Share"]) expect(stepsText).toContain(text);
    // The markers and badges are native ellipses, not pictures.
    const shapes = (index: number) =>
      attributeValues(slides[index]!, "a:prstGeom", "prst").filter((prst) => prst === "ellipse").length;
    expect(shapes(0)).toBeGreaterThanOrEqual(5);
    expect(shapes(1)).toBeGreaterThanOrEqual(4);
    // The four charts are native charts (no pictures), their series named as in the legend.
    const parts = await readPptxXml(pptxBytes);
    const charts = [...parts.keys()].filter((name) => /^ppt\/charts\/chart\d+\.xml$/.test(name));
    expect(charts).toHaveLength(4);
    expect(charts.flatMap((name) => texts(parts.get(name)!, "c:v"))).toEqual(
      expect.arrayContaining(["EMEA", "Americas", "APAC", "Sign-up rate", "Activation"]),
    );
    for (const index of [3, 4, 5, 6]) expect(slides[index]!.getElementsByTagName("p:pic")).toHaveLength(0);

    const work = fs.mkdtempSync(path.join(SHOTS, "office-"));
    const converted = convertWithLibreOffice(pptxPath, work);
    execFileSync("pdftoppm", ["-png", "-r", "50", converted, path.join(SHOTS, "pptx")]);
    expect(fs.readdirSync(SHOTS).filter((file) => /^pptx-\d+\.png$/.test(file))).toHaveLength(7);
  }, 400_000);
});
