// Colour arithmetic the server, the editor and the player share: WCAG 2 relative luminance and contrast
// ratio, painting a translucent colour over an opaque one, and reading "#rgb"/"#rrggbb". The one copy: the
// deck check (lib/contract/check.ts), the player's diagrams, the brand palette and the theme panel use it.
// Channels are 0-255; alpha is 0-1.

export type Rgb = { r: number; g: number; b: number };
export type Rgba = Rgb & { a: number };

/** A hex colour ("#rgb" or "#rrggbb", any case) as channels; null for anything else. */
export function parseHex(hex: string): Rgb | null {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!match) return null;
  const digits = match[1]!.length === 3 ? [...match[1]!].map((digit) => digit + digit).join("") : match[1]!;
  const [r, g, b] = [0, 2, 4].map((at) => Number.parseInt(digits.slice(at, at + 2), 16));
  return { r: r!, g: g!, b: b! };
}

/** WCAG 2 relative luminance of an sRGB colour, 0 (black) to 1 (white). */
export function relativeLuminance({ r, g, b }: Rgb): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG 2 contrast ratio of two opaque colours, 1 to 21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [high, low] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

/** `top` painted over the opaque `bottom` (straight alpha). */
export function composite(top: Rgba, bottom: Rgb): Rgba {
  const a = top.a;
  return {
    r: top.r * a + bottom.r * (1 - a),
    g: top.g * a + bottom.g * (1 - a),
    b: top.b * a + bottom.b * (1 - a),
    a: 1,
  };
}
