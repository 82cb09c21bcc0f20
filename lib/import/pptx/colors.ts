// Theme and colours for the PowerPoint reader: a theme part read into its colour scheme, fonts and style
// matrix (the fill, line and background fill styles that shapes' style references and p:bgRef point into),
// and a DrawingML colour resolved to "#RRGGBB" ("#RRGGBBAA" when it is translucent): sRGB, scRGB, HSL,
// system, preset and scheme colours (through the master's colour map, phClr as the referring style's own),
// with the modifiers PowerPoint applies to them in order: lumMod/lumOff, tint/shade, satMod/satOff,
// hueMod/hueOff, alpha/alphaMod/alphaOff, inv, comp, gray.
import type { Element } from "@xmldom/xmldom";
import type { PptxDeck } from "./model";
import { attr, kid, kids, nameOf, path as xpath } from "./xml";

export type ThemeParts = {
  /** The theme's part name (its pictures' relationships are its own). */
  part: string;
  theme: PptxDeck["theme"];
  /** a:fmtScheme's fillStyleLst, lnStyleLst and bgFillStyleLst entries, in order (style idx 1 is the first). */
  fills: Element[];
  lines: Element[];
  backgrounds: Element[];
};

/** The colours a part is drawn with: its master's theme and the colour map in force for the slide. */
export type ColorScheme = { colors: Record<string, string>; clrMap: Record<string, string> };

const COLOR_ELEMENTS = new Set(["srgbClr", "scrgbClr", "sysClr", "schemeClr", "prstClr", "hslClr"]);

export function readTheme(theme: Element | null, part: string): ThemeParts {
  const elements = kid(theme, "themeElements");
  const colors: Record<string, string> = {};
  for (const entry of kids(kid(elements, "clrScheme"))) {
    const srgb = kid(entry, "srgbClr");
    const sys = kid(entry, "sysClr");
    const value = srgb ? hex(attr(srgb, "val")) : hex(attr(sys, "lastClr"));
    if (value) colors[nameOf(entry)] = value;
  }
  const fonts = kid(elements, "fontScheme");
  const majorFont = attr(xpath(fonts, "majorFont", "latin"), "typeface") || undefined;
  const minorFont = attr(xpath(fonts, "minorFont", "latin"), "typeface") || undefined;
  const format = kid(elements, "fmtScheme");
  return {
    part,
    theme: { colors, ...(majorFont ? { majorFont } : {}), ...(minorFont ? { minorFont } : {}) },
    fills: kids(kid(format, "fillStyleLst")),
    lines: kids(kid(format, "lnStyleLst")),
    backgrounds: kids(kid(format, "bgFillStyleLst")),
  };
}

function hex(value: string | null): string | undefined {
  return value && /^[0-9A-Fa-f]{6}$/.test(value) ? `#${value.toUpperCase()}` : undefined;
}

/**
 * The colour an element holds (a solidFill, a gradient stop, a style reference…) or the colour element
 * itself, resolved; `placeholder` is what phClr stands for (the referring style's colour).
 */
export function colorOf(holder: Element | null, scheme: ColorScheme, placeholder?: string): string | undefined {
  if (!holder) return undefined;
  const element = COLOR_ELEMENTS.has(nameOf(holder)) ? holder : kids(holder).find((k) => COLOR_ELEMENTS.has(nameOf(k)));
  if (!element) return undefined;
  const base = baseColor(element, scheme, placeholder);
  if (!base) return undefined;
  return modified(base, kids(element));
}

function baseColor(element: Element, scheme: ColorScheme, placeholder?: string): string | undefined {
  switch (nameOf(element)) {
    case "srgbClr":
      return hex(attr(element, "val"));
    case "sysClr":
      return hex(attr(element, "lastClr")) ?? (attr(element, "val") === "window" ? "#FFFFFF" : "#000000");
    case "scrgbClr": {
      const channel = (name: string) => toSrgb(Number(attr(element, name) ?? 0) / 100_000);
      return rgbHex([channel("r"), channel("g"), channel("b")]);
    }
    case "hslClr": {
      const h = Number(attr(element, "hue") ?? 0) / 60_000;
      const s = Number(attr(element, "sat") ?? 0) / 100_000;
      const l = Number(attr(element, "lum") ?? 0) / 100_000;
      return rgbHex(hslToRgb([h, s, l]));
    }
    case "prstClr":
      return presetColors[attr(element, "val") ?? ""];
    case "schemeClr": {
      const name = attr(element, "val") ?? "";
      if (name === "phClr") return placeholder?.slice(0, 7);
      const mapped = scheme.clrMap[name] || { bg1: "lt1", tx1: "dk1", bg2: "lt2", tx2: "dk2" }[name] || name;
      return scheme.colors[mapped];
    }
    default:
      return undefined;
  }
}

// ---- modifiers -------------------------------------------------------------------------------------------

type Rgb = [number, number, number];

function modified(base: string, modifiers: Element[]): string {
  let rgb: Rgb = [1, 3, 5].map((at) => Number.parseInt(base.slice(at, at + 2), 16) / 255) as Rgb;
  let alpha = 1;
  for (const modifier of modifiers) {
    const value = Number(attr(modifier, "val") ?? 0) / 100_000;
    switch (nameOf(modifier)) {
      case "lumMod":
        rgb = withHsl(rgb, ([h, s, l]) => [h, s, l * value]);
        break;
      case "lumOff":
        rgb = withHsl(rgb, ([h, s, l]) => [h, s, l + value]);
        break;
      case "satMod":
        rgb = withHsl(rgb, ([h, s, l]) => [h, s * value, l]);
        break;
      case "satOff":
        rgb = withHsl(rgb, ([h, s, l]) => [h, s + value, l]);
        break;
      case "hueMod":
        rgb = withHsl(rgb, ([h, s, l]) => [(h * value) % 360, s, l]);
        break;
      case "hueOff":
        rgb = withHsl(rgb, ([h, s, l]) => [(h + (value * 100_000) / 60_000 + 360) % 360, s, l]);
        break;
      case "tint":
        // Towards white by (1 - tint), in linear light as PowerPoint mixes.
        rgb = rgb.map((c) => toSrgb(toLinear(c) * value + (1 - value))) as Rgb;
        break;
      case "shade":
        rgb = rgb.map((c) => toSrgb(toLinear(c) * value)) as Rgb;
        break;
      case "alpha":
        alpha = value;
        break;
      case "alphaMod":
        alpha *= value;
        break;
      case "alphaOff":
        alpha += value;
        break;
      case "inv":
        rgb = rgb.map((c) => 1 - c) as Rgb;
        break;
      case "comp":
        rgb = withHsl(rgb, ([h, s, l]) => [(h + 180) % 360, s, l]);
        break;
      case "gray": {
        const grey = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2];
        rgb = [grey, grey, grey];
        break;
      }
      default:
        break;
    }
  }
  const out = rgbHex(rgb);
  const a = clamp(alpha);
  return a < 0.995
    ? `${out}${Math.round(a * 255)
        .toString(16)
        .padStart(2, "0")
        .toUpperCase()}`
    : out;
}

/** A translucent colour as it shows over white ("#RRGGBB"), for where only opaque colours go. */
export function opaque(color: string): string;
export function opaque(color: string | undefined): string | undefined;
export function opaque(color: string | undefined): string | undefined {
  if (!color || color.length !== 9) return color;
  const a = Number.parseInt(color.slice(7, 9), 16) / 255;
  const rgb = [1, 3, 5].map((at) => (Number.parseInt(color.slice(at, at + 2), 16) / 255) * a + (1 - a)) as Rgb;
  return rgbHex(rgb);
}

const clamp = (value: number) => Math.min(1, Math.max(0, value));
const toLinear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const toSrgb = (c: number) => {
  const v = clamp(c);
  return v <= 0.0031308 ? v * 12.92 : 1.055 * v ** (1 / 2.4) - 0.055;
};

function rgbHex(rgb: Rgb): string {
  return `#${rgb
    .map((c) =>
      Math.round(clamp(c) * 255)
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")
    .toUpperCase()}`;
}

function withHsl(rgb: Rgb, change: (hsl: Rgb) => Rgb): Rgb {
  const [h, s, l] = change(rgbToHsl(rgb));
  return hslToRgb([h, clamp(s), clamp(l)]);
}

function rgbToHsl([r, g, b]: Rgb): Rgb {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h =
    max === r ? ((g - b) / d + (g < b ? 6 : 0)) * 60 : max === g ? ((b - r) / d + 2) * 60 : ((r - g) / d + 4) * 60;
  return [h, s, l];
}

function hslToRgb([h, s, l]: Rgb): Rgb {
  if (s === 0) return [l, l, l];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number) => {
    const u = (t + 1) % 1;
    if (u < 1 / 6) return p + (q - p) * 6 * u;
    if (u < 1 / 2) return q;
    if (u < 2 / 3) return p + (q - p) * (2 / 3 - u) * 6;
    return p;
  };
  const hue = h / 360;
  return [channel(hue + 1 / 3), channel(hue), channel(hue - 1 / 3)];
}

const presetColors: Record<string, string> = {
  black: "#000000",
  white: "#FFFFFF",
  red: "#FF0000",
  green: "#008000",
  blue: "#0000FF",
  yellow: "#FFFF00",
  gray: "#808080",
  grey: "#808080",
  silver: "#C0C0C0",
  navy: "#000080",
  orange: "#FFA500",
  purple: "#800080",
  teal: "#008080",
  maroon: "#800000",
  ltGray: "#D3D3D3",
  dkGray: "#A9A9A9",
};
