import {
  clampChroma,
  converter,
  differenceCiede2000,
  formatHex,
  interpolate,
  parse,
  type Oklch,
  type Rgb,
} from "culori";
import { contrastRatio as wcagContrastRatio, relativeLuminance, type Rgb as Channels } from "@/lib/contract/color";

// Colour arithmetic shared by the palette: everything is reduced to opaque sRGB hex early, because
// the brand book stores hex and every comparison (ΔE, contrast) is about what the eye sees.

const toRgb = converter("rgb");
const toOklch = converter("oklch");
const deltaE2000 = differenceCiede2000();

export const WHITE = "#ffffff";
export const NEAR_BLACK = "#111111";

/** A CSS colour as opaque-or-translucent sRGB; null for anything culori cannot read (keywords, var()). */
export function readColor(text: string): Rgb | null {
  const key = text.trim();
  const cached = readCache.get(key);
  if (cached !== undefined) return cached;
  const parsed = parse(key);
  const rgb = parsed ? toRgb(parsed) : null;
  const result = rgb && [rgb.r, rgb.g, rgb.b].every(Number.isFinite) ? rgb : null;
  remember(readCache, key, result);
  return result;
}

// Big stylesheets repeat the same few dozen colours thousands of times.
const CACHE_LIMIT = 5000;
const readCache = new Map<string, Rgb | null>();
const flattenCache = new Map<string, string>();

function remember<T>(cache: Map<string, T>, key: string, value: T): void {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, value);
}

/** Composites a translucent colour over an opaque backdrop, as the browser paints it. */
export function flattenOver(color: Rgb, backdrop: string): string {
  const alpha = color.alpha ?? 1;
  const key = `${color.r},${color.g},${color.b},${alpha},${alpha >= 1 ? "" : backdrop}`;
  const cached = flattenCache.get(key);
  if (cached !== undefined) return cached;
  const hex = alpha >= 1 ? toHex(color) : composite(color, alpha, backdrop);
  remember(flattenCache, key, hex);
  return hex;
}

function composite(color: Rgb, alpha: number, backdrop: string): string {
  const base = toRgb(parse(backdrop) ?? parse(WHITE)!);
  return toHex({
    mode: "rgb",
    r: color.r * alpha + base.r * (1 - alpha),
    g: color.g * alpha + base.g * (1 - alpha),
    b: color.b * alpha + base.b * (1 - alpha),
  });
}

function toHex(color: Rgb | Oklch): string {
  const clamped = clampChroma({ ...color, alpha: undefined }, "oklch");
  return (formatHex(clamped) ?? "#000000").toLowerCase();
}

export function deltaE(a: string, b: string): number {
  return deltaE2000(a, b);
}

// A CSS colour as the 0-255 channels of lib/contract/color.ts (unreadable: black).
function channelsOf(color: string): Channels {
  const rgb = readColor(color) ?? { r: 0, g: 0, b: 0 };
  return { r: rgb.r * 255, g: rgb.g * 255, b: rgb.b * 255 };
}

/** WCAG 2 contrast of two CSS colours (the formula of lib/contract/color.ts). */
export function contrastOf(a: string, b: string): number {
  return wcagContrastRatio(channelsOf(a), channelsOf(b));
}

/** The same, to two decimals, as the brand book stores it. */
export function contrastRatio(a: string, b: string): number {
  return Math.round(contrastOf(a, b) * 100) / 100;
}

export function isDark(hex: string): boolean {
  // Below this, white text out-contrasts black text.
  return relativeLuminance(channelsOf(hex)) < 0.179;
}

export function oklch(hex: string): { l: number; c: number; h: number } {
  const value = toOklch(parse(hex) ?? parse(WHITE)!);
  return { l: value.l, c: value.c, h: value.h ?? 0 };
}

export function chroma(hex: string): number {
  return oklch(hex).c;
}

/** `amount` 0 → a, 1 → b, mixed in OKLab so halfway looks halfway. */
export function mix(a: string, b: string, amount: number): string {
  const from = parse(a);
  const to = parse(b);
  if (!from || !to) return a;
  return toHex(toRgb(interpolate([from, to], "oklab")(amount)));
}

export function fromOklch(l: number, c: number, h: number): string {
  return toHex({ mode: "oklch", l: Math.min(1, Math.max(0, l)), c: Math.max(0, c), h: ((h % 360) + 360) % 360 });
}

/** White or near-black, whichever reads better on `background`. */
export function pickOnColor(background: string): { hex: string; ratio: number } {
  const onWhite = contrastRatio(WHITE, background);
  const onBlack = contrastRatio(NEAR_BLACK, background);
  return onWhite >= onBlack ? { hex: WHITE, ratio: onWhite } : { hex: NEAR_BLACK, ratio: onBlack };
}

/**
 * Moves `color` toward black or white (whichever side of `background` has more room) until it reaches
 * `minimum` contrast; returns it unchanged when it already does.
 */
export function ensureContrast(color: string, background: string, minimum: number): { hex: string; adjusted: boolean } {
  if (contrastOf(color, background) >= minimum) return { hex: color, adjusted: false };
  const target = contrastOf(WHITE, background) >= contrastOf("#000000", background) ? WHITE : "#000000";
  for (let step = 1; step <= 20; step++) {
    const candidate = mix(color, target, step / 20);
    if (contrastOf(candidate, background) >= minimum) return { hex: candidate, adjusted: true };
  }
  return { hex: target, adjusted: true };
}
