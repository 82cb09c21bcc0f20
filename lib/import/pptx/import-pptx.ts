import sharp from "sharp";
import { z } from "zod";
import type { Ctx } from "@/lib/auth/caller";
import {
  assetPath,
  commitImage,
  imageLimits,
  ownerOf,
  type PreparedImage,
  prepareImage,
  preparedBytes,
} from "@/lib/assets/assets";
import { AppError, isInputRefusal } from "@/lib/core/errors";
import type { Db } from "@/lib/db/types";
import { createDeck } from "@/lib/decks/create-deck";
import { setDeckContent } from "@/lib/decks/set-deck-content";
import { updateDeck } from "@/lib/decks/update-deck";
import type { ImportWarning, PptxDeck, Shape, Tile } from "./model";
import { readPptxOffThread } from "./off-thread";
import { faithful } from "./faithful";
import { type PictureUrls, pictureKey } from "./common";
import { ownPicture, restyle } from "./restyle";

// POST /decks/import with a PowerPoint file: read on the worker thread (read-pptx.ts), its pictures checked
// and converted as the organization's images (cropped as shown, with their alt text) and the deck printed
// (faithful.ts, or restyle.ts in restyle mode) before anything is written; then the images, the deck, its first version and its
// visibility in one transaction: all of it lands or none of it does.

/** How the slides are mapped: `faithful` (the default) keeps them as they look, `restyle` takes the house style. */
export const importModes = ["faithful", "restyle"] as const;

export const importReportSchema = z.object({
  slides: z.number().int().describe("Slides in the imported deck (hidden slides are skipped)."),
  mode: z.enum(importModes).describe("How the slides were mapped."),
  warnings: z
    .array(z.object({ slide: z.number().int(), message: z.string() }))
    .describe("Everything approximated or left out, by slide number in the original (0: the whole deck)."),
});

type Picture = {
  key: string;
  media: string;
  crop?: Extract<Shape, { kind: "picture" }>["crop"];
  tile?: Tile;
  alt: string;
};

// The pictures the deck shows: the slides' own, their backgrounds, and in faithful mode the master's and
// layout's decorations drawn behind each slide.
function picturesOf(deck: PptxDeck, mode: (typeof importModes)[number]): Picture[] {
  const found = new Map<string, Picture>();
  const walk = (shapes: Shape[]) => {
    for (const shape of shapes) {
      if (shape.kind === "group") walk(shape.children);
      if (shape.kind === "text" && shape.pictureFill && mode === "faithful") {
        const key = pictureKey(shape.pictureFill, undefined, shape.pictureTile);
        if (!found.has(key)) found.set(key, { key, media: shape.pictureFill, alt: "", tile: shape.pictureTile });
      }
      // A Deckhand export's formulas, icons and decorations come back as components, not stored pictures.
      if (shape.kind !== "picture" || (ownPicture(shape.alt) !== null && ownPicture(shape.alt) !== "background"))
        continue;
      const key = pictureKey(shape.media, shape.crop);
      if (!found.has(key)) found.set(key, { key, media: shape.media, crop: shape.crop, alt: shape.alt });
    }
  };
  for (const slide of deck.slides) {
    if (slide.hidden) continue;
    walk(slide.shapes);
    if (mode === "faithful") walk(slide.masterShapes ?? []);
    if (slide.background?.kind === "picture") {
      const key = pictureKey(slide.background.media, undefined, slide.background.tile);
      if (!found.has(key)) found.set(key, { key, media: slide.background.media, alt: "", tile: slide.background.tile });
    }
  }
  return [...found.values()];
}

// A picture's bytes as shown on the slide: cut by its crop, and in a format the image store takes.
async function shownBytes(bytes: Buffer, picture: Picture): Promise<Buffer> {
  const image = sharp(bytes, { limitInputPixels: imageLimits().maxPixels });
  const { width, height, format, density } = await image.metadata();
  const crop = picture.crop;
  if (crop && width && height) {
    const left = Math.round((Math.max(0, crop.left) / 100) * width);
    const top = Math.round((Math.max(0, crop.top) / 100) * height);
    const right = Math.round((Math.max(0, crop.right) / 100) * width);
    const bottom = Math.round((Math.max(0, crop.bottom) / 100) * height);
    if (width - left - right >= 1 && height - top - bottom >= 1) {
      return image
        .extract({ left, top, width: width - left - right, height: height - top - bottom })
        .png()
        .toBuffer();
    }
  }
  if (picture.tile && width && height) return tiled(bytes, width, height, density ?? 96, picture.tile);
  return format === "tiff" ? image.png().toBuffer() : bytes;
}

// PowerPoint's a:tile: copies of the picture at its own size (its pixels at its resolution, 96 dpi when it
// says none) times the tile's scale, from the top left, over the area; drawn as one picture, in pixels of
// 96 dpi (9,525 EMU), at most TILED_MAX on its longer side.
const EMU_PER_PX = 9525;
const TILED_MAX = 2400;

async function tiled(bytes: Buffer, width: number, height: number, dpi: number, tile: Tile): Promise<Buffer> {
  // The area and one copy, in pixels of 96 dpi.
  const area = { width: tile.width / EMU_PER_PX, height: tile.height / EMU_PER_PX };
  const fit = Math.min(1, TILED_MAX / Math.max(area.width, area.height));
  const copy = {
    width: Math.max(1, Math.round(((width * 96) / dpi) * tile.scaleX * fit)),
    height: Math.max(1, Math.round(((height * 96) / dpi) * tile.scaleY * fit)),
  };
  const out = { width: Math.max(1, Math.round(area.width * fit)), height: Math.max(1, Math.round(area.height * fit)) };
  const input = await sharp(bytes, { limitInputPixels: imageLimits().maxPixels })
    .resize(copy.width, copy.height, { fit: "fill" })
    // A copy larger than the area shows its top left corner only.
    .extract({ left: 0, top: 0, width: Math.min(copy.width, out.width), height: Math.min(copy.height, out.height) })
    .png()
    .toBuffer();
  return sharp({ create: { ...out, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input, tile: true, gravity: "northwest" }])
    .png()
    .toBuffer();
}

async function preparePictures(
  ctx: Ctx,
  deck: PptxDeck,
  mode: (typeof importModes)[number],
  warnings: ImportWarning[],
): Promise<{ urls: PictureUrls; prepared: PreparedImage[] }> {
  const owner = ownerOf(ctx);
  const urls: PictureUrls = new Map();
  const prepared: PreparedImage[] = [];
  let adding = 0;
  for (const picture of picturesOf(deck, mode)) {
    const file = deck.media[picture.media]!;
    let image: PreparedImage;
    try {
      const bytes = await shownBytes(Buffer.from(file.bytes), picture);
      image = await prepareImage(owner, bytes, {
        alt: picture.alt || null,
        what: `The picture ${picture.media}`,
        alsoAdding: adding,
      });
    } catch (error) {
      if (error instanceof AppError && !isInputRefusal(error)) throw error;
      const reason = error instanceof AppError ? error.message : "it could not be read";
      warnings.push({ slide: 0, message: `the picture ${picture.media} is left out: ${reason}` });
      continue;
    }
    adding += preparedBytes(image);
    prepared.push(image);
    urls.set(
      picture.key,
      image.existing
        ? assetPath(image.existing)
        : assetPath({ sha256: image.sha256, contentType: image.file?.contentType ?? image.processed!.contentType }),
    );
  }
  return { urls, prepared };
}

export async function importPptx(
  ctx: Ctx,
  input: {
    file: Buffer;
    title?: string;
    brandId?: string | null;
    visibility: "private" | "org" | "public";
    mode: (typeof importModes)[number];
  },
) {
  const deck = await readPptxOffThread(new Uint8Array(input.file));
  const warnings: ImportWarning[] = [];
  const { urls, prepared } = await preparePictures(ctx, deck, input.mode, warnings);
  const made: { title: string; source: string; slides: number; warnings: ImportWarning[]; tokensCss?: string } =
    input.mode === "restyle" ? restyle(deck, urls, input.title) : faithful(deck, urls, input.title);
  const report = { slides: made.slides, mode: input.mode, warnings: [...warnings, ...made.warnings] };
  return ctx.db.transaction(async (tx) => {
    const inTx: Ctx = { ...ctx, db: tx as unknown as Db };
    for (const image of prepared) {
      await commitImage(image.existing ? image : { ...image, owner: { ...image.owner, db: inTx.db } });
    }
    const created = await createDeck(inTx, {
      title: made.title,
      description: "",
      kind: "deck",
      format: "slides",
      brandId: input.brandId ?? null,
      fromDeckId: null,
    });
    await setDeckContent(inTx, created.id, {
      source: made.source,
      // The original's theme, unless a brand was asked for.
      ...(made.tokensCss && !input.brandId ? { tokensCss: made.tokensCss } : {}),
      prompt: "Imported from PowerPoint",
    });
    return { ...(await updateDeck(inTx, created.id, { visibility: input.visibility })), importReport: report };
  });
}
