// Colours as the export renderer's page scripts read them: any CSS colour (rgb(), color(srgb …),
// color-mix results, oklch…) → sRGB hex + alpha, by painting it on a 1x1 canvas.
import type { Rgba } from "@/lib/contract/slide-model";

const colorCache = new Map<string, Rgba | null>();
let colorContext: CanvasRenderingContext2D | null = null;

export function parseColor(value: string): Rgba | null {
  if (!value || value === "transparent" || value === "none") return null;
  const cached = colorCache.get(value);
  if (cached !== undefined) return cached;
  colorContext ??= Object.assign(document.createElement("canvas"), { width: 1, height: 1 }).getContext("2d", {
    willReadFrequently: true,
  });
  let result: Rgba | null = null;
  if (colorContext) {
    colorContext.clearRect(0, 0, 1, 1);
    colorContext.fillStyle = "#000";
    colorContext.fillStyle = value;
    colorContext.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = colorContext.getImageData(0, 0, 1, 1).data;
    if (a! > 0) {
      // Un-premultiply is not needed: getImageData returns straight alpha.
      const hex = [r, g, b]
        .map((c) => c!.toString(16).padStart(2, "0"))
        .join("")
        .toUpperCase();
      result = { hex, alpha: Math.round((a! / 255) * 1000) / 1000 };
    }
  }
  colorCache.set(value, result);
  return result;
}
