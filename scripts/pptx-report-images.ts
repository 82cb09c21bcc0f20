// The pictures of the PowerPoint import report (scripts/pptx-import-report.ts): a PDF's pages as PNGs
// (pdftoppm), the structural similarity (SSIM) of two slide pictures, and a contact sheet of original |
// import, a row per slide, written with sharp.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import sharp, { type OverlayOptions } from "sharp";

/** The pages of a PDF as PNG files `<prefix>-N.png`, each `width` pixels wide, in page order. */
export function pdfPages(pdf: string, prefix: string, width: number): string[] {
  execFileSync("pdftoppm", ["-png", "-scale-to-x", String(width), "-scale-to-y", "-1", pdf, prefix], {
    stdio: "ignore",
  });
  const dir = path.dirname(prefix);
  const base = path.basename(prefix);
  const page = (name: string) => Number(/-(\d+)\.png$/.exec(name)?.[1] ?? 0);
  return fs
    .readdirSync(dir)
    .filter((name) => name.startsWith(`${base}-`) && /-\d+\.png$/.test(name))
    .sort((a, b) => page(a) - page(b))
    .map((name) => path.join(dir, name));
}

// Compared at 256x144 in grey: small enough that the two renderers' type rasterisation and anti-aliasing
// do not count, large enough that where text blocks, pictures and charts sit (and how dark they are) does.
// A 4:3 original is letterboxed on white into the same 16:9 box as Deckhand's page, as it would be shown.
const SIZE = { width: 256, height: 144 };

async function grey(file: string): Promise<Float64Array> {
  const { data } = await sharp(file)
    .flatten({ background: "#ffffff" })
    .resize({ ...SIZE, fit: "contain", background: "#ffffff" })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return Float64Array.from(data.subarray(0, SIZE.width * SIZE.height));
}

/**
 * Mean SSIM (Wang et al. 2004, the usual constants for 8-bit images) over 8x8 windows every 4 pixels: 1 is
 * the same picture; unrelated slides of similar brightness land near 0.1-0.3.
 */
export async function ssim(a: string, b: string): Promise<number> {
  const [x, y] = await Promise.all([grey(a), grey(b)]);
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  const win = 8;
  const step = 4;
  let total = 0;
  let count = 0;
  for (let top = 0; top + win <= SIZE.height; top += step) {
    for (let left = 0; left + win <= SIZE.width; left += step) {
      let sx = 0;
      let sy = 0;
      for (let r = 0; r < win; r++) {
        for (let c = 0; c < win; c++) {
          const at = (top + r) * SIZE.width + left + c;
          sx += x[at]!;
          sy += y[at]!;
        }
      }
      const n = win * win;
      const mx = sx / n;
      const my = sy / n;
      let vx = 0;
      let vy = 0;
      let cov = 0;
      for (let r = 0; r < win; r++) {
        for (let c = 0; c < win; c++) {
          const at = (top + r) * SIZE.width + left + c;
          const dx = x[at]! - mx;
          const dy = y[at]! - my;
          vx += dx * dx;
          vy += dy * dy;
          cov += dx * dy;
        }
      }
      vx /= n - 1;
      vy /= n - 1;
      cov /= n - 1;
      total += ((2 * mx * my + c1) * (2 * cov + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2));
      count++;
    }
  }
  return count ? total / count : 0;
}

const escape = (text: string) => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A contact sheet: a row per slide, the original's picture on the left and the import's on the right (a
 * grey box where one side has no such slide), each row captioned with its number and similarity.
 */
export async function contactSheet(
  file: string,
  title: string,
  rows: Array<{ original?: string; imported?: string; caption: string }>,
): Promise<void> {
  const cell = { width: 480, height: 270 };
  const gap = 12;
  const captionHeight = 26;
  const head = 44;
  const width = gap * 3 + cell.width * 2;
  const rowHeight = captionHeight + cell.height + gap;
  const height = head + rows.length * rowHeight + gap;
  const layers: OverlayOptions[] = [];
  const text = (x: number, y: number, content: string, size: number) =>
    `<text x="${x}" y="${y}" font-family="DejaVu Sans, sans-serif" font-size="${size}" fill="#222">${escape(content)}</text>`;
  const labels: string[] = [
    text(gap, 20, title, 18),
    text(gap, 38, "original (LibreOffice)", 13),
    text(gap * 2 + cell.width, 38, "import (Deckhand PDF)", 13),
  ];
  for (const [index, row] of rows.entries()) {
    const top = head + index * rowHeight;
    labels.push(text(gap, top + 18, row.caption, 14));
    for (const [column, picture] of [row.original, row.imported].entries()) {
      const left = gap + column * (cell.width + gap);
      const input = picture
        ? await sharp(picture)
            .flatten({ background: "#ffffff" })
            .resize({ ...cell, fit: "contain", background: "#ffffff" })
            .png()
            .toBuffer()
        : await sharp({ create: { ...cell, channels: 3, background: "#d4d4d4" } })
            .png()
            .toBuffer();
      layers.push({ input, left, top: top + captionHeight });
    }
  }
  layers.unshift({
    input: Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${labels.join("")}</svg>`,
    ),
    left: 0,
    top: 0,
  });
  await sharp({ create: { width, height, channels: 3, background: "#f4f4f5" } })
    .composite(layers)
    .png()
    .toFile(file);
}
