import sharp, { type Metadata, type Sharp } from "sharp";
import { AppError } from "@/lib/core/errors";
import { stripGif, stripJpeg, stripPng } from "./strip-metadata";
import { sanitizeSvg } from "./svg";

// What an image becomes before it is stored: its type sniffed from its first bytes (never from a name or a
// Content-Type header), its pixel count checked from the header before anything is decoded, then decoded
// in full (a truncated or damaged file is refused). A PNG, JPEG or GIF that is upright and fits what a
// 1920x1080 slide needs at print resolution is kept as it came, only its metadata (EXIF with GPS, XMP,
// comments, text chunks) cut out of the file losslessly (./strip-metadata.ts): its pixels are the author's,
// not a second lossy encoding. Anything else is written again by sharp (libvips): turned upright,
// downscaled, its metadata dropped. Everything stored is PNG, JPEG or GIF, which every browser, PDF and
// PowerPoint draws: WebP and AVIF become JPEG (PNG with transparency), and SVG is sanitised (./svg.ts) and
// then rasterised by librsvg, which runs no script and loads nothing, so no stored image is ever a document.

export type SniffedType = "png" | "jpeg" | "gif" | "webp" | "avif" | "svg";

const acceptedTypes: Record<SniffedType, string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  svg: "image/svg+xml",
};

/** The largest stored image: a 1920x1080 slide at 2x, which is what a printed page and a zoomed viewer use. */
const MAX_WIDTH = 3840;
const MAX_HEIGHT = 2160;
/** An SVG is rasterised with its longer side this long (smaller when that would exceed MAX_WIDTH x MAX_HEIGHT). */
const SVG_RASTER_SIZE = 2048;

const startsWith = (bytes: Buffer, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, index) => bytes[offset + index] === byte);
const ascii = (text: string) => [...text].map((character) => character.charCodeAt(0));

/** The image type of `bytes` from its magic numbers (and, for SVG, its root element), or null. */
export function sniffImageType(bytes: Buffer): SniffedType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "webp";
  // ISO base media: a `ftyp` box whose major or compatible brands name AVIF.
  if (startsWith(bytes, ascii("ftyp"), 4)) {
    const boxSize = bytes.readUInt32BE(0);
    const end = Math.min(bytes.length, boxSize >= 16 && boxSize <= 256 ? boxSize : 32);
    for (let offset = 8; offset + 4 <= end; offset += 4) {
      if (offset === 12) continue; // minor version
      const brand = bytes.toString("latin1", offset, offset + 4);
      if (brand === "avif" || brand === "avis") return "avif";
    }
    return null;
  }
  if (looksLikeSvg(bytes)) return "svg";
  return null;
}

// Text that opens (after a BOM, white space, an XML declaration, comments or a doctype) with <svg.
function looksLikeSvg(bytes: Buffer): boolean {
  const head = bytes
    .subarray(0, 4096)
    .toString("utf8")
    .replace(/^\uFEFF/, "");
  const rest = head.replace(/^(\s+|<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)*/i, "");
  return /^<svg[\s>/]/i.test(rest);
}

export type ImageLimits = { maxBytes: number; maxPixels: number };

export type ProcessedImage = {
  data: Buffer;
  contentType: "image/png" | "image/jpeg" | "image/gif";
  extension: "png" | "jpg" | "gif";
  width: number;
  height: number;
  /** The type the input was sniffed as. */
  originalType: string;
  /** The input's own bytes, less its metadata (true), or the image written again by sharp (false). */
  original: boolean;
};

const megapixels = (pixels: number) => `${Math.round(pixels / 100_000) / 10} megapixels`;

function refused(message: string, cause?: unknown): AppError {
  return new AppError("invalid_request", message, cause === undefined ? {} : { cause });
}

/**
 * Checks and converts one image. `what` names it in messages ("The upload", "The image at https://…").
 * Throws 422 invalid_request for what is not an accepted image (or cannot be decoded) and 422
 * payload_too_large for one over the byte or pixel limits.
 */
export async function processImage(input: Buffer, limits: ImageLimits, what = "The image"): Promise<ProcessedImage> {
  if (input.length === 0) throw refused(`${what} is empty.`);
  if (input.length > limits.maxBytes) {
    throw new AppError(
      "payload_too_large",
      `${what} is ${input.length} bytes; images of at most ${limits.maxBytes} bytes are accepted.`,
    );
  }
  const type = sniffImageType(input);
  if (!type) {
    throw refused(
      `${what} is not an image of an accepted type (PNG, JPEG, WebP, GIF, AVIF or SVG), judged by its bytes.`,
    );
  }
  return type === "svg" ? rasteriseSvg(input, limits, what) : reencode(input, type, limits, what);
}

async function reencode(input: Buffer, type: SniffedType, limits: ImageLimits, what: string): Promise<ProcessedImage> {
  const animated = type === "gif";
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw refused(`${what} could not be read as ${type.toUpperCase()}: ${describeSharpError(error)}.`, error);
  }
  const expected = type === "avif" ? "heif" : type;
  if (meta.format !== expected || !meta.width || !meta.height) {
    throw refused(`${what} could not be read as ${type.toUpperCase()}.`);
  }
  const pixels = meta.width * (meta.pageHeight ?? meta.height);
  if (pixels > limits.maxPixels) {
    throw new AppError(
      "payload_too_large",
      `${what} is ${meta.width}x${meta.pageHeight ?? meta.height} (${megapixels(pixels)}); images of at most ${megapixels(limits.maxPixels)} are accepted.`,
    );
  }
  const kept = await keepOriginal(input, type, meta, limits);
  if (kept) return kept;
  try {
    const image = sharp(input, { failOn: "truncated", limitInputPixels: limits.maxPixels, animated })
      .rotate()
      .resize({ width: MAX_WIDTH, height: MAX_HEIGHT, fit: "inside", withoutEnlargement: true });
    if (type === "gif") return await output(image.gif(), "gif", type);
    if (type === "jpeg" || ((type === "webp" || type === "avif") && !meta.hasAlpha)) {
      return await output(image.jpeg({ quality: 86, mozjpeg: true }), "jpg", type);
    }
    return await output(image.png({ compressionLevel: 8 }), "png", type);
  } catch (error) {
    throw refused(
      `${what} could not be decoded (${describeSharpError(error)}); it may be truncated or damaged.`,
      error,
    );
  }
}

const storedTypes = {
  png: { contentType: "image/png", extension: "png", strip: stripPng },
  jpeg: { contentType: "image/jpeg", extension: "jpg", strip: stripJpeg },
  gif: { contentType: "image/gif", extension: "gif", strip: stripGif },
} as const;

/**
 * The image as it came, less its metadata, when nothing else needs to change: a type the asset route serves
 * (PNG, JPEG, GIF), within MAX_WIDTH x MAX_HEIGHT, upright (no EXIF rotation to apply), not CMYK, and a
 * structure ./strip-metadata.ts can follow. Decoded in full first, so what is stored is known to draw.
 * Null: the image is written again.
 */
async function keepOriginal(
  input: Buffer,
  type: SniffedType,
  meta: Metadata,
  limits: ImageLimits,
): Promise<ProcessedImage | null> {
  if (type !== "png" && type !== "jpeg" && type !== "gif") return null;
  const width = meta.width!;
  const height = meta.pageHeight ?? meta.height!;
  if (width > MAX_WIDTH || height > MAX_HEIGHT) return null;
  if ((meta.orientation ?? 1) !== 1 || meta.space === "cmyk") return null;
  const stored = storedTypes[type];
  const stripped = stored.strip(input);
  if (!stripped) return null;
  try {
    const decoded = await sharp(stripped.data, {
      failOn: "truncated",
      limitInputPixels: limits.maxPixels,
      animated: type === "gif",
    })
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (decoded.info.width !== width || (decoded.info.pageHeight ?? decoded.info.height) !== height) return null;
  } catch {
    // Written again below, which refuses it with sharp's own reason if it cannot be decoded at all.
    return null;
  }
  return {
    data: stripped.data,
    contentType: stored.contentType,
    extension: stored.extension,
    width,
    height,
    originalType: acceptedTypes[type],
    original: true,
  };
}

async function rasteriseSvg(input: Buffer, limits: ImageLimits, what: string): Promise<ProcessedImage> {
  const svg = Buffer.from(sanitizeSvg(input, what), "utf8");
  let meta: Metadata;
  try {
    meta = await sharp(svg, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw refused(`${what} is not an SVG image that can be drawn: ${describeSharpError(error)}.`, error);
  }
  if (meta.format !== "svg" || !meta.width || !meta.height)
    throw refused(`${what} is not an SVG image that can be drawn.`);
  // Rendered at the density that makes the longer side SVG_RASTER_SIZE, within the largest stored size.
  const scale = Math.min(
    SVG_RASTER_SIZE / Math.max(meta.width, meta.height),
    MAX_WIDTH / meta.width,
    MAX_HEIGHT / meta.height,
  );
  const density = Math.max(1, Math.min(72 * scale, 100_000));
  try {
    const image = sharp(svg, { density, limitInputPixels: limits.maxPixels }).resize({
      width: MAX_WIDTH,
      height: MAX_HEIGHT,
      fit: "inside",
      withoutEnlargement: true,
    });
    return await output(image.png({ compressionLevel: 8 }), "png", "svg");
  } catch (error) {
    throw refused(`${what} could not be drawn as an image (${describeSharpError(error)}).`, error);
  }
}

async function output(image: Sharp, extension: ProcessedImage["extension"], type: SniffedType) {
  const { data, info } = await image.toBuffer({ resolveWithObject: true });
  const contentType = extension === "jpg" ? "image/jpeg" : extension === "gif" ? "image/gif" : "image/png";
  return {
    data,
    contentType,
    extension,
    width: info.width,
    height: info.pageHeight ?? info.height,
    originalType: acceptedTypes[type],
    original: false,
  } as const;
}

function describeSharpError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // libvips messages run over several lines and name internal functions; the first line says enough.
  return message
    .split("\n")[0]!
    .replace(/^(Input buffer|VipsJpeg|VipsForeignLoad\w*): ?/i, "")
    .slice(0, 200);
}
