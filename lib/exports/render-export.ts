import fs from "node:fs/promises";
import path from "node:path";
import type { Page } from "puppeteer-core";
import type { SlideModel } from "@/components/player/export/slide-model";
import { officeFonts } from "@/lib/deck/fonts";
import { DeckFaultError, type PlayerReport } from "@/lib/render/browser";
import { withDeckPage } from "@/lib/render/deck-page";
import { playerAssets } from "@/lib/viewer/assets";
import type { ViewableDeck } from "@/lib/viewer/viewable-deck";
import { buildPptx, type Raster } from "./build-pptx";

export type RenderedExport = { data: Buffer; nonstandardFonts: string[] };

const CANVAS = { width: 1920, height: 1080 };

function timeoutMs(): number {
  return Number(process.env.EXPORT_TIMEOUT_MS || 120_000);
}

function checkReport(report: PlayerReport) {
  if (report.errors.length > 0) {
    throw new DeckFaultError(`The deck failed to render: ${report.errors.slice(0, 3).join("; ")}`);
  }
  if (report.count === 0) throw new DeckFaultError("The deck rendered no slides.");
}

// PDF: one 1920x1080 px (1440x810 pt) page per slide, drawn by Chromium's print path, so text stays
// text, links stay links and the fonts are embedded.
export async function renderPdf(viewable: ViewableDeck): Promise<RenderedExport> {
  return withDeckPage(viewable, { mode: "export", viewport: CANVAS, timeoutMs: timeoutMs() }, async (page, report) => {
    checkReport(report);
    const pdf = await page.pdf({
      width: `${CANVAS.width}px`,
      height: `${CANVAS.height}px`,
      printBackground: true,
      preferCSSPageSize: true,
      timeout: timeoutMs(),
    });
    return { data: Buffer.from(pdf), nonstandardFonts: report.missingFonts };
  });
}

let extractorSource: Promise<string> | undefined;

function loadExtractor(): Promise<string> {
  extractorSource ??= fs.readFile(path.join(process.cwd(), "public", playerAssets().extract), "utf8");
  return extractorSource;
}

// Pictures of the elements PowerPoint cannot draw, each alone on a transparent background, at 2x.
async function captureRasters(page: Page, slides: SlideModel[]): Promise<Map<number, Raster>> {
  const rasters = new Map<number, Raster>();
  await page.addStyleTag({
    content: `html.dh-rasterize, html.dh-rasterize body { background: transparent !important; }
html.dh-rasterize * { visibility: hidden !important; }
html.dh-rasterize .dh-raster-target, html.dh-rasterize .dh-raster-target * { visibility: visible !important; }
html.dh-rasterize .dh-raster-alone { visibility: visible !important; }`,
  });
  for (const [index, slide] of slides.entries()) {
    for (const item of slide.items) {
      if (item.kind !== "raster") continue;
      // Only what lies on the canvas is captured, however large a box claims to be.
      const x = Math.max(0, item.rect.x);
      const y = Math.max(0, item.rect.y);
      const width = Math.min(CANVAS.width, item.rect.x + item.rect.w) - x;
      const height = Math.min(CANVAS.height, item.rect.y + item.rect.h) - y;
      if (width < 1 || height < 1) continue;
      item.rect = { x, y, w: width, h: height };
      await page.evaluate(
        (id, alone) => {
          document.documentElement.classList.add("dh-rasterize");
          document
            .querySelector(`[data-dh-raster="${id}"]`)
            ?.classList.add(alone ? "dh-raster-alone" : "dh-raster-target");
        },
        item.id,
        item.alone,
      );
      const png = await page.screenshot({
        type: "png",
        omitBackground: true,
        clip: { x: item.rect.x, y: index * CANVAS.height + item.rect.y, width: item.rect.w, height: item.rect.h },
        captureBeyondViewport: true,
      });
      await page.evaluate((id) => {
        document.documentElement.classList.remove("dh-rasterize");
        document.querySelector(`[data-dh-raster="${id}"]`)?.classList.remove("dh-raster-alone", "dh-raster-target");
      }, item.id);
      rasters.set(item.id, { png: Buffer.from(png), width: item.rect.w, height: item.rect.h });
    }
  }
  return rasters;
}

// PPTX: the rendered DOM turned into native text boxes, shapes and tables (see extract-slides.ts), with
// pictures only for what PowerPoint cannot express, and the speaker notes on the notes pages.
export async function renderPptx(viewable: ViewableDeck): Promise<RenderedExport> {
  const extractor = await loadExtractor();
  return withDeckPage(
    viewable,
    { mode: "export", viewport: { ...CANVAS, deviceScaleFactor: 2 }, timeoutMs: timeoutMs() },
    async (page, report) => {
      checkReport(report);
      await page.evaluate(extractor);
      const slides = (await page.evaluate("window.__deckhandExtract()")) as SlideModel[];
      const rasters = await captureRasters(page, slides);
      const data = await buildPptx({ title: viewable.deck.title, slides, notes: report.notes, rasters });
      const office = new Set(officeFonts.map((font) => font.toLowerCase()));
      const used = new Set<string>();
      for (const slide of slides) {
        for (const item of slide.items) {
          const runs =
            item.kind === "text"
              ? item.runs
              : item.kind === "table"
                ? item.rows.flat().flatMap((cell) => cell.runs)
                : [];
          for (const run of runs) used.add(run.font);
        }
      }
      const nonstandardFonts = [
        ...new Set([...[...used].filter((font) => !office.has(font.toLowerCase())), ...report.missingFonts]),
      ];
      return { data, nonstandardFonts: nonstandardFonts.sort() };
    },
  );
}
