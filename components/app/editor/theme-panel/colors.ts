import type { CheckColor } from "@/lib/contract/check";
import { contrastRatio } from "@/lib/contract/color";

// Colour values of the theme panel: a token's CSS colour read as #rrggbb for <input type="color">, and the
// WCAG contrast of two tokens (lib/contract/color.ts, the deck check's formula). Hex and rgb()/rgba() are
// read here; any other colour (a name, hsl(), …) through the browser's own parser when one is at hand.

/** The colour as #rrggbb (alpha dropped), or null when it is not a plain colour (var(), color-mix(), …). */
export function toHexColor(value: string, browserParse: (value: string) => string | null = canvasParse): string | null {
  const text = value.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(text);
  if (hex) {
    const digits = hex[1]!;
    const full = digits.length <= 4 ? [...digits.slice(0, 3)].map((d) => d + d).join("") : digits.slice(0, 6);
    return `#${full}`;
  }
  const rgb = /^rgba?\(\s*([\d.]+%?)[\s,]+([\d.]+%?)[\s,]+([\d.]+%?)(?:\s*[,/]\s*[\d.]+%?)?\s*\)$/.exec(text);
  if (rgb) {
    const channel = (c: string) => {
      const n = c.endsWith("%") ? (parseFloat(c) * 255) / 100 : parseFloat(c);
      return Math.max(0, Math.min(255, Math.round(n)));
    };
    return `#${rgb
      .slice(1, 4)
      .map((c) => channel(c!).toString(16).padStart(2, "0"))
      .join("")}`;
  }
  if (/[()]/.test(text) && !/^(hsla?|hwb|lab|lch|oklab|oklch)\(/.test(text)) return null;
  const parsed = browserParse(text);
  return parsed && parsed !== text ? toHexColor(parsed, () => null) : null;
}

// The browser's reading of a colour (a name, hsl()): a canvas context answers it as #rrggbb or rgba().
// An invalid colour leaves the probe colour in place, which is how it is told apart.
function canvasParse(value: string): string | null {
  if (typeof document === "undefined") return null;
  const context = document.createElement("canvas").getContext("2d");
  if (!context) return null;
  const answers = ["#010203", "#040506"].map((probe) => {
    context.fillStyle = probe;
    context.fillStyle = value;
    return String(context.fillStyle);
  });
  return answers[0] === answers[1] ? answers[0]! : null;
}

function toRgb(hex: string): CheckColor {
  const n = parseInt(hex.slice(1), 16);
  return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255, a: 1 };
}

/** WCAG contrast ratio of two #rrggbb colours, 1 to 21. */
export function hexContrast(a: string, b: string): number {
  return contrastRatio(toRgb(a), toRgb(b));
}

/** The ratio WCAG AA asks of body text. */
export const MIN_CONTRAST = 4.5;
