import { createHash } from "node:crypto";
import pLimit from "p-limit";
import type { z } from "zod";
import type { Ctx } from "@/lib/auth/caller";
import { CANVAS } from "@/lib/contract/deck";
import { AppError } from "@/lib/core/errors";
import { setting } from "@/lib/core/config";
import { getRenderableVersion } from "@/lib/decks/renderable-version";
import { getFileStore } from "@/lib/storage/storage";
import { findDeckVersion } from "@/lib/viewer/viewable-deck";
import { DeckFaultError, pictureOf } from "./browser";
import { withDeckPage } from "./deck-page";
import type { slideImageQuery, slideImageSchema } from "./slide-image-schemas";

// One slide of a version as a picture (GET /decks/{id}/slides/{n}/image, MCP get_slide_image): drawn as
// the PDF export draws it (export mode on the 1920x1080 canvas, in the renderer's sandboxed browser, within
// the export's deadlines) and photographed at the width asked for. A version never changes, so each image
// is rendered once per version, width and format and kept in the file store under slides/<deck>/; the
// count of the version's slides is kept beside it, so a slide out of range is answered without a render.
// Requests for an image being rendered wait for that render.

export type SlideImage = z.output<typeof slideImageSchema> & {
  data: Buffer;
  contentType: string;
  etag: string;
  /** Whether the request named its version (then the answer never changes). */
  immutable: boolean;
};

type Query = z.output<typeof slideImageQuery>;

/** Slide images rendering at once in this process; more wait their turn (each holds a renderer page). */
const CONCURRENCY = 2;
const limited = pLimit(CONCURRENCY);
const inFlight = new Map<string, Promise<Buffer>>();

const heightOf = (width: number) => Math.round((width * CANVAS.height) / CANVAS.width);

export async function getSlideImage(ctx: Ctx, deckId: string, slide: number, query: Query): Promise<SlideImage> {
  const { deck, version } = await getRenderableVersion(ctx, deckId, query.version, "drawn");
  const folder = `slides/${deck.id}/v${version}`;
  const key = `${folder}/${slide}-${query.width}.${query.format}`;
  const store = getFileStore();
  const readCount = async () => {
    const file = await store.get(`${folder}/count`);
    return file ? Number(file.data.toString()) : undefined;
  };
  let count = await readCount();
  if (count !== undefined) assertInRange(slide, count);
  let data = (await store.get(key))?.data;
  if (!data) {
    let job = inFlight.get(key);
    if (!job) {
      job = limited(() => render(ctx, deck.id, version, slide, query, folder))
        .then(async (image) => {
          await store.put(key, image, `image/${query.format}`);
          return image;
        })
        .finally(() => inFlight.delete(key));
      inFlight.set(key, job);
    }
    data = await job;
    count ??= await readCount();
  }
  const renderHash = createHash("sha256").update(data).digest("base64url").slice(0, 32);
  return {
    version,
    slide,
    slides: count ?? 0,
    width: query.width,
    height: heightOf(query.width),
    format: query.format,
    bytes: data.length,
    renderHash,
    data,
    contentType: `image/${query.format}`,
    etag: `"${renderHash}"`,
    immutable: query.version !== undefined,
  };
}

function assertInRange(slide: number, count: number) {
  if (slide > count) {
    throw new AppError(
      "not_found",
      `Slide ${slide} does not exist: this version has ${count} slide${count === 1 ? "" : "s"} (1 to ${count}).`,
    );
  }
}

async function render(ctx: Ctx, deckId: string, version: number, slide: number, query: Query, folder: string) {
  const viewable = await findDeckVersion(ctx.db, deckId, version);
  if (!viewable) throw new AppError("not_found", `Version ${version} of this deck does not exist.`);
  try {
    return await withDeckPage(
      viewable,
      { mode: "export", viewport: CANVAS, timeoutMs: setting("EXPORT_TIMEOUT_MS") },
      async (page, report) => {
        if (report.count === 0) throw new DeckFaultError(report.errors[0] ?? "the module rendered no slides.");
        await getFileStore().put(`${folder}/count`, Buffer.from(String(report.count)), "text/plain");
        assertInRange(slide, report.count);
        return pictureOf(
          page,
          { x: 0, y: (slide - 1) * CANVAS.height, width: CANVAS.width, height: CANVAS.height },
          {
            scale: query.width / CANVAS.width,
            format: query.format,
            ...(query.format === "webp" ? { quality: 90 } : {}),
            optimizeForSpeed: false,
          },
        );
      },
    );
  } catch (error) {
    if (!(error instanceof DeckFaultError)) throw error;
    throw new AppError("invalid_request", `Slide ${slide} could not be drawn: ${error.message}`);
  }
}
