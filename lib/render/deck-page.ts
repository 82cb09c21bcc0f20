import { createHash } from "node:crypto";
import type { Page } from "puppeteer-core";
import { setting } from "@/lib/core/config";
import type { PlayerMode } from "@/lib/contract/player";
import { defaultTokensCss } from "@/lib/source/theme-tokens";
import { moduleResponse, renderFrameDocument } from "@/lib/viewer/frame-document";
import { ASSET_PATH } from "@/lib/assets/assets";
import { readAsset } from "@/lib/assets/serve-asset";
import { getDb } from "@/lib/db/client";
import { logoResponse } from "@/lib/viewer/logo";
import type { ViewableDeck } from "@/lib/viewer/viewable-deck";
import { type PlayerReport, waitForPlayer, withDeadline, withFrames, withRenderPage } from "./browser";
import { openIsolatedWorld } from "./isolated-world";
import { renderOrigin } from "./player-files";

// A deck version drawn by the real player in the renderer's browser under the render origin
// (player-files.ts), everything but the player's own files answered from memory: the frame document, its
// module, the deck's brand logo and its images (/assets/), read from the file store.

/**
 * The drawing deadline's allowance per slide of the outline: a 400-slide deck is drawn and fitted in a few
 * seconds on a quiet machine, and can take 25 s on a busy one; a deck that loops still fails at once.
 */
const DRAW_MS_PER_SLIDE = 150;

// The deck's images, read from the file store as /assets/ serves them.
async function storedAsset(pathname: string): Promise<Response | null> {
  const file = await readAsset(await getDb(), pathname);
  if (!file) return null;
  return new Response(new Uint8Array(file.data), {
    headers: {
      "Content-Type": file.contentType,
      "Access-Control-Allow-Origin": "*",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

export type DeckPageOptions = {
  mode: PlayerMode;
  slide?: number;
  viewport: { width: number; height: number; deviceScaleFactor?: number };
  /** The whole job at most. */
  timeoutMs: number;
  /**
   * Loading the module and drawing every slide (default EXPORT_READY_TIMEOUT_MS, 20 s), and DRAW_MS_PER_SLIDE
   * more for each slide of the version's outline when it is known.
   */
  readyMs?: number;
  /** Then the job's own work, per slide drawn (default EXPORT_SLIDE_TIMEOUT_MS, 5 s). */
  perSlideMs?: number;
  /**
   * The deck check: the page is kept for the deck's next check, which draws its version in it (see keyOf).
   * Never for exports, which get a new page each.
   */
  keep?: boolean;
};

/**
 * A check page is kept only for decks up to this many slides: a kept page holds its deck's whole drawing
 * (a 400-slide deck's is hundreds of MiB), and a bigger deck's check is seconds anyway.
 */
const KEEP_SLIDES = 200;
/** Module URLs are made unique, so a kept page that imports its deck's next module gets that module. */
let modules = 0;

// A kept page is handed only to a check that would get the same page anew: the same deck, mode, canvas, theme,
// title and logo; the deck's code of an earlier check may still be running there, so only that deck's.
function keyOf(viewable: ViewableDeck, options: DeckPageOptions): string {
  const { deck, version, logo } = viewable;
  const page = {
    deck: deck.id,
    mode: options.mode,
    slide: options.slide ?? 0,
    viewport: options.viewport,
    tokens: createHash("sha256")
      .update(version.tokensCss ?? defaultTokensCss)
      .digest("base64"),
    title: deck.title,
    logo: logo ? [logo.brandName, logo.storedKey] : null,
  };
  return JSON.stringify(page);
}

// The next module drawn in a kept page, as the editor's preview draws one (components/player/shell/mount.tsx):
// the page is marked not ready and told, from a world of the renderer's own, which module to draw.
async function drawInPlace(page: Page, moduleUrl: string): Promise<void> {
  const world = await openIsolatedWorld(page, "deckhand-update");
  try {
    const update = JSON.stringify({ source: "deckhand-viewer", type: "update", moduleUrl });
    await world.evaluate(`document.documentElement.dataset.ready = "false"; window.postMessage(${update}, "*");`);
  } finally {
    await world.close();
  }
}

export async function withDeckPage<T>(
  viewable: ViewableDeck,
  options: DeckPageOptions,
  job: (page: Page, report: PlayerReport) => Promise<T>,
): Promise<T> {
  const { deck, version } = viewable;
  if (version.format !== "deck-tsx" || !version.compiledJs) {
    throw new Error(`Version ${version.version} is not a deck-tsx module and cannot be rendered`);
  }
  const compiledJs = version.compiledJs;
  const origin = await renderOrigin();
  const moduleUrl = `${origin}/module/${version.version}-${++modules}`;
  const logoUrl = `${origin}/logo`;
  const frame = () =>
    renderFrameDocument({
      origin,
      moduleUrl,
      tokensCss: version.tokensCss ?? defaultTokensCss,
      format: deck.format,
      title: deck.title,
      mode: options.mode,
      slide: options.slide ?? 0,
      chrome: false,
      embedded: false,
      frameAncestors: ["'none'"],
      logo: viewable.logo ? { url: logoUrl, alt: viewable.logo.brandName } : null,
    });
  const serve = (url: URL): Response | Promise<Response | null> | null => {
    if (url.origin !== origin) return null;
    if (url.pathname === "/frame") return frame();
    if (url.pathname === moduleUrl.slice(origin.length)) return moduleResponse(compiledJs, "no-store");
    if (url.pathname === "/logo") return logoResponse(null, viewable.logo, "no-store");
    if (url.pathname.startsWith(ASSET_PATH)) return storedAsset(url.pathname);
    return null;
  };
  // A deck that never finishes drawing (a loop, a promise that never settles) or whose slides take too
  // long fails at once, as the deck's fault: a few seconds per slide is far more than any real slide needs.
  const readyMs =
    (options.readyMs ?? setting("EXPORT_READY_TIMEOUT_MS")) + DRAW_MS_PER_SLIDE * Math.max(0, version.slides ?? 0);
  const perSlideMs = options.perSlideMs ?? setting("EXPORT_SLIDE_TIMEOUT_MS");
  const renderJob = {
    organization: deck.organizationId,
    serve,
    viewport: options.viewport,
    timeoutMs: options.timeoutMs,
    ...(options.keep ? { keep: keyOf(viewable, options) } : {}),
  };
  return withRenderPage(renderJob, async (page, session) => {
    const drawn = session.reused
      ? drawInPlace(page, moduleUrl)
      : page.goto(`${origin}/frame`, { waitUntil: "load" }).then(() => {});
    const report = await withDeadline(
      withFrames(
        page,
        drawn.then(() => waitForPlayer(page)),
      ),
      readyMs,
      "finish drawing",
    );
    // A page whose deck drew nothing may not have a player listening for the next module: not kept.
    if (report.count === 0 || report.count > KEEP_SLIDES) session.keep = false;
    return withDeadline(job(page, report), perSlideMs * Math.max(1, report.count), "finish rendering its slides");
  });
}
