import type { PNG } from "pngjs";

// Structural similarity (SSIM) of two renders of one slide, on luminance, after both are reduced to the
// same small size: robust to anti-aliasing and sub-pixel font differences, sensitive to missing or
// moved boxes, text and pictures.

function luminance(png: PNG, width: number, height: number): Float64Array {
  const out = new Float64Array(width * height);
  const sx = png.width / width;
  const sy = png.height / height;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      let count = 0;
      for (let yy = Math.floor(y * sy); yy < Math.floor((y + 1) * sy); yy++) {
        for (let xx = Math.floor(x * sx); xx < Math.floor((x + 1) * sx); xx++) {
          const i = (yy * png.width + xx) * 4;
          const alpha = png.data[i + 3]! / 255;
          const l = 0.2126 * png.data[i]! + 0.7152 * png.data[i + 1]! + 0.0722 * png.data[i + 2]!;
          sum += l * alpha + 255 * (1 - alpha);
          count++;
        }
      }
      out[y * width + x] = count ? sum / count : 255;
    }
  }
  return out;
}

export function ssim(a: PNG, b: PNG, width = 240, height = 135, window = 8): number {
  const la = luminance(a, width, height);
  const lb = luminance(b, width, height);
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  let total = 0;
  let windows = 0;
  for (let y = 0; y + window <= height; y += window / 2) {
    for (let x = 0; x + window <= width; x += window / 2) {
      let ma = 0;
      let mb = 0;
      for (let j = 0; j < window; j++)
        for (let i = 0; i < window; i++) {
          ma += la[(y + j) * width + x + i]!;
          mb += lb[(y + j) * width + x + i]!;
        }
      const n = window * window;
      ma /= n;
      mb /= n;
      let va = 0;
      let vb = 0;
      let cov = 0;
      for (let j = 0; j < window; j++)
        for (let i = 0; i < window; i++) {
          const da = la[(y + j) * width + x + i]! - ma;
          const db = lb[(y + j) * width + x + i]! - mb;
          va += da * da;
          vb += db * db;
          cov += da * db;
        }
      va /= n - 1;
      vb /= n - 1;
      cov /= n - 1;
      total += ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2));
      windows++;
    }
  }
  return total / windows;
}
