// An image kept as it was received (image.ts keeps a PNG, JPEG or GIF that needs no change) still must not
// carry what its author did not mean to publish: a camera's EXIF (with GPS), XMP and IPTC, comments, text
// chunks, embedded thumbnails, and data appended after the image. These functions copy the file's structure
// without them, byte for byte otherwise, so the pixels are untouched. What a browser, a PDF or PowerPoint
// needs to draw the picture as it was drawn stays: JPEG's JFIF and Adobe segments (colour transform) and
// ICC profile, PNG's transparency, colour and animation chunks, GIF's graphic control and looping blocks.
// A file whose structure cannot be followed, or that uses what not every reader draws (arithmetic or
// lossless JPEG, an unknown critical PNG chunk), answers null: image.ts then writes it again with sharp.

export type Stripped = { data: Buffer; removed: number };

class Unreadable extends Error {}

function need(bytes: Buffer, end: number) {
  if (end > bytes.length) throw new Unreadable();
}

const latin1 = (bytes: Buffer, start: number, length: number) =>
  bytes.toString("latin1", start, Math.min(bytes.length, start + length));

/** The JPEG without EXIF, XMP, IPTC, comments, other APPn segments and whatever follows its end, or null. */
export function stripJpeg(bytes: Buffer): Stripped | null {
  try {
    return stripJpegOrThrow(bytes);
  } catch (error) {
    if (error instanceof Unreadable) return null;
    throw error;
  }
}

// Frames every browser, PDF reader and PowerPoint decodes: baseline, extended and progressive Huffman.
const drawableFrames = new Set([0xc0, 0xc1, 0xc2]);
const frameMarkers = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function keepJpegSegment(marker: number, bytes: Buffer, body: number): boolean {
  if (marker === 0xfe) return false; // COM
  if (marker < 0xe0 || marker > 0xef) return true; // tables, frames, restart interval…
  if (marker === 0xe0) return latin1(bytes, body, 5) === "JFIF\0"; // not JFXX (a thumbnail)
  if (marker === 0xe2) return latin1(bytes, body, 12) === "ICC_PROFILE\0"; // not MPF, FlashPix
  if (marker === 0xee) return latin1(bytes, body, 5) === "Adobe"; // the colour transform
  return false; // APP1 (EXIF, XMP), APP13 (IPTC) and the rest
}

// JFIF's APP0 may carry a thumbnail after its 14 bytes of header (which can show the picture as it was
// before it was cropped or edited): the segment is kept as its header alone, its thumbnail size 0x0.
const JFIF_SEGMENT = 2 + 2 + 14;
function jfifWithoutThumbnail(marker: number, segment: Buffer): Buffer {
  if (marker !== 0xe0 || segment.length <= JFIF_SEGMENT) return segment;
  const header = Buffer.from(segment.subarray(0, JFIF_SEGMENT));
  header.writeUInt16BE(JFIF_SEGMENT - 2, 2);
  header[JFIF_SEGMENT - 2] = 0;
  header[JFIF_SEGMENT - 1] = 0;
  return header;
}

function stripJpegOrThrow(bytes: Buffer): Stripped {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) throw new Unreadable();
  const parts: Buffer[] = [bytes.subarray(0, 2)];
  let position = 2;
  let frame: number | null = null;
  for (;;) {
    need(bytes, position + 2);
    if (bytes[position] !== 0xff) throw new Unreadable();
    // Fill bytes before a marker.
    while (bytes[position + 1] === 0xff) {
      position++;
      need(bytes, position + 2);
    }
    const marker = bytes[position + 1]!;
    if (marker === 0xd9) {
      parts.push(bytes.subarray(position, position + 2));
      break;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      parts.push(bytes.subarray(position, position + 2));
      position += 2;
      continue;
    }
    need(bytes, position + 4);
    const end = position + 2 + bytes.readUInt16BE(position + 2);
    if (end < position + 4) throw new Unreadable();
    need(bytes, end);
    if (frameMarkers.has(marker)) {
      if (frame !== null || !drawableFrames.has(marker)) throw new Unreadable();
      frame = marker;
    }
    if (keepJpegSegment(marker, bytes, position + 4))
      parts.push(jfifWithoutThumbnail(marker, bytes.subarray(position, end)));
    position = end;
    if (marker !== 0xda) continue;
    // Entropy-coded data runs to the next marker: not a stuffed 0xFF00, a restart marker or a fill byte.
    let scan = position;
    for (;;) {
      need(bytes, scan + 2);
      if (bytes[scan] === 0xff) {
        const next = bytes[scan + 1]!;
        if (next !== 0x00 && !(next >= 0xd0 && next <= 0xd7) && next !== 0xff) break;
        scan += next === 0xff ? 1 : 2;
      } else scan++;
    }
    parts.push(bytes.subarray(position, scan));
    position = scan;
  }
  if (frame === null) throw new Unreadable();
  const data = Buffer.concat(parts);
  return { data, removed: bytes.length - data.length };
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// Chunks that change what is drawn (or animate it, APNG): everything else ancillary goes (tEXt, zTXt,
// iTXt, eXIf, tIME, private chunks…).
const keptPngChunks = new Set([
  "IHDR",
  "PLTE",
  "IDAT",
  "IEND",
  "tRNS",
  "gAMA",
  "cHRM",
  "sRGB",
  "iCCP",
  "cICP",
  "sBIT",
  "pHYs",
  "bKGD",
  "acTL",
  "fcTL",
  "fdAT",
]);

/** The PNG without text, EXIF, time and private chunks and whatever follows IEND, or null. */
export function stripPng(bytes: Buffer): Stripped | null {
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  const parts: Buffer[] = [bytes.subarray(0, 8)];
  let position = 8;
  for (;;) {
    if (position + 12 > bytes.length) return null;
    const length = bytes.readUInt32BE(position);
    const end = position + 12 + length;
    if (length > 0x7fffffff || end > bytes.length) return null;
    const type = latin1(bytes, position + 4, 4);
    if (!/^[A-Za-z]{4}$/.test(type)) return null;
    // A critical chunk (upper-case first letter) this does not know: not something to pass on unread.
    if (keptPngChunks.has(type)) parts.push(bytes.subarray(position, end));
    else if (type[0] === type[0]!.toUpperCase()) return null;
    position = end;
    if (type === "IEND") break;
  }
  const data = Buffer.concat(parts);
  return { data, removed: bytes.length - data.length };
}

/** The GIF without comments, application blocks other than looping, and whatever follows its end, or null. */
export function stripGif(bytes: Buffer): Stripped | null {
  try {
    return stripGifOrThrow(bytes);
  } catch (error) {
    if (error instanceof Unreadable) return null;
    throw error;
  }
}

// The data sub-blocks from `position` (each a length byte and that many bytes, ended by a zero length);
// answers the position after them.
function subBlocksEnd(bytes: Buffer, position: number): number {
  for (;;) {
    need(bytes, position + 1);
    const length = bytes[position]!;
    position += 1 + length;
    if (length === 0) return position;
  }
}

const colourTableBytes = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);

function stripGifOrThrow(bytes: Buffer): Stripped {
  need(bytes, 13);
  const header = latin1(bytes, 0, 6);
  if (header !== "GIF87a" && header !== "GIF89a") throw new Unreadable();
  let position = 13 + colourTableBytes(bytes[10]!);
  need(bytes, position);
  const parts: Buffer[] = [bytes.subarray(0, position)];
  for (;;) {
    need(bytes, position + 1);
    const introducer = bytes[position]!;
    if (introducer === 0x3b) {
      parts.push(bytes.subarray(position, position + 1));
      break;
    }
    if (introducer === 0x2c) {
      need(bytes, position + 11);
      const tables = position + 10 + colourTableBytes(bytes[position + 9]!);
      // After the tables: the LZW minimum code size, then the image data.
      const end = subBlocksEnd(bytes, tables + 1);
      parts.push(bytes.subarray(position, end));
      position = end;
      continue;
    }
    if (introducer !== 0x21) throw new Unreadable();
    need(bytes, position + 2);
    const label = bytes[position + 1]!;
    const end = subBlocksEnd(bytes, position + 2);
    const application = label === 0xff ? latin1(bytes, position + 3, 11) : "";
    // Graphic control (delays, transparency), plain text (drawn) and looping are kept.
    const keep = label === 0xf9 || label === 0x01 || application === "NETSCAPE2.0" || application === "ANIMEXTS1.0";
    if (keep) parts.push(bytes.subarray(position, end));
    position = end;
  }
  const data = Buffer.concat(parts);
  return { data, removed: bytes.length - data.length };
}
