import fs from "node:fs/promises";
import path from "node:path";
import type { Page, PDFOptions } from "puppeteer-core";
import { readAsset } from "@/lib/assets/serve-asset";
import { type SlideModel, slideModelLimits } from "@/lib/contract/slide-model";
import { getDb } from "@/lib/db/client";
import type { ExportLayout } from "@/lib/db/schema/exports";
import { officeFonts } from "@/lib/contract/fonts";
import { asExportRender, DeckFaultError, pictureOf, type PlayerReport, withDeadline } from "@/lib/render/browser";
import { type DeckPageOptions, withDeckPage } from "@/lib/render/deck-page";
import { type IsolatedWorld, openIsolatedWorld } from "@/lib/render/isolated-world";
import { playerAssets } from "@/lib/viewer/assets";
import type { ViewableDeck } from "@/lib/viewer/viewable-deck";
import { buildPptxPackage, type Raster } from "./build-pptx";
import { handoutPdfOptions, handoutScript } from "./handout";
import { sanitiseIconSvg } from "./icon-svg";
import { parseExportModel } from "./pptx-model";
import { setting } from "@/lib/core/config";
import { CANVAS } from "@/lib/contract/deck";

export type RenderedExport = { data: Buffer; nonstandardFonts: string[] };

function timeoutMs(): number {
  return setting("EXPORT_TIMEOUT_MS");
}

function checkReport(report: PlayerReport) {
  if (report.errors.length > 0) {
    throw new DeckFaultError(`The deck failed to render: ${report.errors.slice(0, 3).join("; ")}`);
  }
  if (report.count === 0) throw new DeckFaultError("The deck rendered no slides.");
}

// The deck drawn for an export: counted among the exports' contexts, never the deck check's (browser.ts).
function exportRender<T>(
  viewable: ViewableDeck,
  options: DeckPageOptions,
  job: (page: Page, report: PlayerReport) => Promise<T>,
): Promise<T> {
  return asExportRender(() => withDeckPage(viewable, options, job));
}

// PDF: one 1920x1080 px (1440x810 pt) page per slide, drawn by Chromium's print path, so text stays
// text, links stay links and the fonts are embedded. The "notes" layout prints the same page as a
// portrait handout, each slide above its speaker notes (handout.ts).
export async function renderPdf(viewable: ViewableDeck, layout: ExportLayout = "slides"): Promise<RenderedExport> {
  return exportRender(viewable, { mode: "export", viewport: CANVAS, timeoutMs: timeoutMs() }, async (page, report) => {
    checkReport(report);
    return printPdf(page, report, viewable, layout);
  });
}

async function printPdf(
  page: Page,
  report: PlayerReport,
  viewable: ViewableDeck,
  layout: ExportLayout,
): Promise<RenderedExport> {
  let options: PDFOptions = {
    width: `${CANVAS.width}px`,
    height: `${CANVAS.height}px`,
    printBackground: true,
    preferCSSPageSize: true,
  };
  if (layout === "notes") {
    const world = await openIsolatedWorld(page, "deckhand-handout");
    try {
      await world.evaluate(handoutScript(report.notes, viewable.deck.title));
    } finally {
      await world.close();
    }
    options = handoutPdfOptions;
  }
  const pdf = await page.pdf({ ...options, timeout: timeoutMs() });
  return { data: Buffer.from(pdf), nonstandardFonts: report.missingFonts };
}

// A PDF (slides) and a PPTX of the same version from one drawing of the deck: printed first, since printing
// leaves the page as it was, then walked, since the walk changes the page (materialised pseudo-elements,
// pictures shown alone). Each format has the time it would have alone (the job as a whole the sum of both),
// and the PPTX's failure is its own: the PDF is returned with it.
export type PairedExports = { pdf: RenderedExport; pptx: RenderedExport | Error };

export async function renderPdfAndPptx(viewable: ViewableDeck): Promise<PairedExports> {
  await loadExtractor();
  const perSlideMs = setting("EXPORT_SLIDE_TIMEOUT_MS");
  const { pdf, read } = await exportRender(
    viewable,
    {
      mode: "export",
      viewport: CANVAS,
      timeoutMs: 2 * timeoutMs(),
      perSlideMs: 2 * perSlideMs,
    },
    async (page, report) => {
      checkReport(report);
      const budget = perSlideMs * Math.max(1, report.count);
      const pdf = await withDeadline(printPdf(page, report, viewable, "slides"), budget, "finish rendering its slides");
      try {
        const read = await withDeadline(readSlides(page, report), budget, "finish rendering its slides");
        return { pdf, read };
      } catch (error) {
        return { pdf, read: asError(error) };
      }
    },
  );
  // The page is given back before the file is built (Node's work alone), so the renderer can draw the next job.
  if (read instanceof Error) return { pdf, pptx: read };
  try {
    return { pdf, pptx: await pptxOf(read, viewable) };
  } catch (error) {
    return { pdf, pptx: asError(error) };
  }
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

let extractorSource: Promise<string> | undefined;

function loadExtractor(): Promise<string> {
  extractorSource ??= fs.readFile(path.join(process.cwd(), "public", playerAssets().extract), "utf8");
  return extractorSource;
}

// The slides as the extractor read them, serialised by that world's own JSON and refused past a size.
async function extractSlides(world: IsolatedWorld): Promise<unknown> {
  await world.evaluate(await loadExtractor());
  const json = await world.evaluate(
    `(() => { const json = JSON.stringify(window.__deckhandExtract()); return json.length <= ${slideModelLimits.jsonCharacters} ? json : null; })()`,
  );
  if (typeof json !== "string") {
    throw new DeckFaultError("The slides could not be exported to PowerPoint: they hold too much to describe.");
  }
  return JSON.parse(json);
}

// Pictures of the elements PowerPoint cannot draw, each alone on a transparent background, at twice the
// canvas's resolution (the page draws no frames of its own and is drawn at 1x: each picture is a frame of
// its box alone, browser.ts's pictureOf); the deck's stored images (an <img> of /assets/) as their files.
const PICTURE_SCALE = 2;

async function captureRasters(page: Page, world: IsolatedWorld, slides: SlideModel[]): Promise<Map<number, Raster>> {
  const rasters = new Map<number, Raster>();
  try {
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
        // A stored image is placed as the stored file (once per file however often it is shown).
        const stored = item.asset ? await readAsset(await getDb(), item.asset.path) : null;
        if (stored) {
          rasters.set(item.id, { png: stored.data, contentType: stored.contentType, width, height });
          continue;
        }
        delete item.asset;
        if ((await world.evaluate(`window.__deckhandShowRaster(${item.id})`)) !== true) continue;
        // The box in document coordinates (the slide's page is the index-th canvas down), in whole pixels.
        const boxX = Math.round(item.rect.x);
        const boxY = Math.round(index * CANVAS.height + item.rect.y);
        const box = {
          x: boxX,
          y: boxY,
          width: Math.round(item.rect.x + item.rect.w - boxX),
          height: Math.round(index * CANVAS.height + item.rect.y + item.rect.h - boxY),
        };
        if (box.width < 1 || box.height < 1) continue;
        const png = await pictureOf(page, box, { scale: PICTURE_SCALE, transparent: true, world });
        // An icon's SVG goes into the file (as a vector Office draws itself) only when the icons' strict
        // allow-list takes all of it, written afresh; anything else leaves the picture alone.
        const svg = item.svg ? (sanitiseIconSvg(item.svg) ?? undefined) : undefined;
        delete item.svg;
        rasters.set(item.id, { png, width: item.rect.w, height: item.rect.h, ...(svg ? { svg } : {}) });
      }
    }
  } finally {
    await world.evaluate("window.__deckhandShowRaster(null)").catch(() => {});
  }
  return rasters;
}

// PPTX: the rendered DOM turned into native text boxes, shapes and tables (see extract-slides.ts), with
// pictures only for what PowerPoint cannot express, and the speaker notes on the notes pages. The page is
// given back before the file is built.
export async function renderPptx(viewable: ViewableDeck): Promise<RenderedExport> {
  await loadExtractor();
  const read = await exportRender(
    viewable,
    { mode: "export", viewport: CANVAS, timeoutMs: timeoutMs() },
    async (page, report) => {
      checkReport(report);
      return readSlides(page, report);
    },
  );
  return pptxOf(read, viewable);
}

// The slides as the PPTX needs them, read from the drawn page: the checked model, the notes, the pictures.
type ReadSlides = { slides: SlideModel[]; notes: string[]; rasters: Map<number, Raster>; missingFonts: string[] };

async function readSlides(page: Page, report: PlayerReport): Promise<ReadSlides> {
  const world = await openIsolatedWorld(page, "deckhand-export");
  try {
    // Notes come from the player, in the deck's world: checked with the slides.
    const { slides, notes } = parseExportModel({ slides: await extractSlides(world), notes: report.notes });
    const rasters = await captureRasters(page, world, slides);
    return { slides, notes, rasters, missingFonts: report.missingFonts };
  } finally {
    await world.close();
  }
}

async function pptxOf(
  { slides, notes, rasters, missingFonts }: ReadSlides,
  viewable: ViewableDeck,
): Promise<RenderedExport> {
  // The shipped fonts the slides use go into the file (embed-fonts.ts); only the others are reported.
  const { data, embedded } = await buildPptxPackage({ title: viewable.deck.title, slides, notes, rasters });
  const office = new Set(officeFonts.map((font) => font.toLowerCase()));
  const used = new Set<string>();
  for (const slide of slides) {
    for (const item of slide.items) {
      const runs =
        item.kind === "text" ? item.runs : item.kind === "table" ? item.rows.flat().flatMap((cell) => cell.runs) : [];
      for (const run of runs) used.add(run.font);
      if (item.kind === "chart") {
        for (const style of [item.tick, item.category, item.value, item.title?.style, item.legend?.style]) {
          if (style) used.add(style.font);
        }
      }
    }
  }
  const nonstandardFonts = [
    ...new Set([
      ...[...used].filter((font) => !office.has(font.toLowerCase()) && !embedded.includes(font)),
      ...missingFonts,
    ]),
  ];
  return { data, nonstandardFonts: nonstandardFonts.sort() };
}
