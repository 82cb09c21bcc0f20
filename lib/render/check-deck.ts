import fs from "node:fs/promises";
import path from "node:path";
import pLimit from "p-limit";
import { PNG } from "pngjs";
import type { Page } from "puppeteer-core";
import type { Ctx } from "@/lib/auth/caller";
import { CANVAS } from "@/lib/contract/deck";
import type { CheckColor, SlideMeasurements } from "@/lib/contract/check";
import { composite, contrastRatio } from "@/lib/contract/color";
import { AppError } from "@/lib/core/errors";
import { setting } from "@/lib/core/config";
import { getOwnedDeck } from "@/lib/decks/access";
import { getRenderableVersion } from "@/lib/decks/renderable-version";
import { playerAssets } from "@/lib/viewer/assets";
import { findDeckVersion, findDraft } from "@/lib/viewer/viewable-deck";
import type { ViewableDeck } from "@/lib/viewer/viewable-deck";
import { DeckFaultError, pictureOf } from "./browser";
import { type Finding, findingsFor, renderFailed } from "./check-findings";
import { withDeckPage } from "./deck-page";
import { type IsolatedWorld, openIsolatedWorld } from "./isolated-world";

// The deck check: a version drawn exactly as the PDF exporter draws it (export mode, the 1920x1080
// canvas, the same fonts and fitting), measured slide by slide by components/player/export/check-slides.ts
// in an isolated world of the page, and judged by check-findings.ts.

export type CheckResult = { version: number; slides: number; errors: number; warnings: number; findings: Finding[] };

/** Checks running at once in this process; more wait (each holds a renderer). */
const CONCURRENCY = 2;
/** The measurements may not exceed this much JSON (a deck of thousands of text boxes is cut off). */
const MAX_JSON = 4_000_000;

// A finished check hands its slot to the next waiting one (p-limit is first in, first out).
const limited = pLimit(CONCURRENCY);

let scriptSource: Promise<string> | undefined;
function loadScript(): Promise<string> {
  scriptSource ??= fs.readFile(path.join(process.cwd(), "public", playerAssets().check), "utf8");
  return scriptSource;
}

// GET /decks/{id}/check: the versions an export may draw, checked.
export async function checkDeck(ctx: Ctx, deckId: string, requested?: number): Promise<CheckResult> {
  const { deck, version } = await getRenderableVersion(ctx, deckId, requested, "checked");
  const viewable = await findDeckVersion(ctx.db, deck.id, version);
  if (!viewable) throw new AppError("not_found", `Version ${version} of this deck does not exist.`);
  return checkViewable(viewable);
}

// The editor's findings as the author types: their draft (what the live preview shows), checked the same
// way. Reported as version 0.
export async function checkDraft(ctx: Ctx, deckId: string): Promise<CheckResult> {
  const deck = await getOwnedDeck(ctx, deckId);
  if (deck.format !== "slides") {
    throw new AppError("invalid_request", "The check measures slides; this deck is a webpage.");
  }
  const viewable = await findDraft(ctx.db, deck.id, ctx.caller.userId);
  if (!viewable) throw new AppError("not_found", "There is no draft of this deck to check yet: the preview makes one.");
  return checkViewable(viewable);
}

/** Draws and measures a deck version (or an editor's draft, version 0) and reports its findings. */
export async function checkViewable(viewable: ViewableDeck): Promise<CheckResult> {
  let slides = 0;
  let findings: Finding[];
  try {
    const measured = await limited(() => measureDeck(viewable));
    slides = measured.slides.length;
    findings = findingsFor(measured);
  } catch (error) {
    if (!(error instanceof DeckFaultError)) throw error;
    findings = [renderFailed(error.message)];
  }
  const errors = findings.filter((finding) => finding.severity === "error").length;
  return { version: viewable.version.version, slides, errors, warnings: findings.length - errors, findings };
}

async function measureDeck(viewable: ViewableDeck): Promise<{ slides: SlideMeasurements[]; missingFonts: string[] }> {
  const script = await loadScript();
  return withDeckPage(
    viewable,
    { mode: "export", viewport: CANVAS, timeoutMs: setting("EXPORT_TIMEOUT_MS"), keep: true },
    async (page, report) => {
      if (report.count === 0) {
        throw new DeckFaultError(report.errors[0] ?? "the module rendered no slides.");
      }
      const world = await openIsolatedWorld(page, "deckhand-check");
      try {
        // A kept page's check world still has the script from the deck's last check.
        if ((await world.evaluate("typeof window.__deckhandCheck")) !== "function") await world.evaluate(script);
        const json = await world.evaluate(
          `(() => { const json = JSON.stringify(window.__deckhandCheck()); return json.length <= ${MAX_JSON} ? json : null; })()`,
        );
        if (typeof json !== "string") throw new DeckFaultError("the slides hold too much to measure.");
        const slides = JSON.parse(json) as SlideMeasurements[];
        await samplePixels(page, world, slides);
        return { slides, missingFonts: report.missingFonts };
      } finally {
        await world.close();
      }
    },
  );
}

// Text over an image or a gradient: the slide is photographed with every text drawn transparent, and
// the contrast is the one that 90% of the pixels behind the text reach (a few dark pixels in a light
// photo do not make a line unreadable; a dark half does).
async function samplePixels(page: Page, world: IsolatedWorld, slides: SlideMeasurements[]): Promise<void> {
  const pending = slides.filter((slide) => slide.contrast.some((item) => item.ratio === null));
  if (pending.length === 0) return;
  await world.evaluate("window.__deckhandHideText(true)");
  try {
    for (const slide of pending) {
      const shot = await pictureOf(
        page,
        { x: 0, y: (slide.slide - 1) * CANVAS.height, width: CANVAS.width, height: CANVAS.height },
        { world },
      );
      const png = PNG.sync.read(shot);
      for (const item of slide.contrast) {
        if (item.ratio !== null) continue;
        item.ratio = sampledContrast(png, item.rect, item.color);
      }
    }
  } finally {
    await world.evaluate("window.__deckhandHideText(false)").catch(() => {});
  }
}

function sampledContrast(png: PNG, rect: SlideMeasurements["contrast"][number]["rect"], color: CheckColor): number {
  const x0 = Math.max(0, Math.floor(rect.x));
  const y0 = Math.max(0, Math.floor(rect.y));
  const x1 = Math.min(png.width, Math.ceil(rect.x + rect.w));
  const y1 = Math.min(png.height, Math.ceil(rect.y + rect.h));
  const ratios: number[] = [];
  // At most about 2,000 samples per text, evenly spread.
  const step = Math.max(1, Math.floor(Math.sqrt(((x1 - x0) * (y1 - y0)) / 2000)));
  for (let y = y0; y < y1; y += step) {
    for (let x = x0; x < x1; x += step) {
      const offset = (y * png.width + x) * 4;
      const background = { r: png.data[offset]!, g: png.data[offset + 1]!, b: png.data[offset + 2]!, a: 1 };
      ratios.push(contrastRatio(composite(color, background), background));
    }
  }
  if (ratios.length === 0) return 21;
  ratios.sort((a, b) => a - b);
  return Math.round(ratios[Math.floor(ratios.length * 0.1)]! * 100) / 100;
}
