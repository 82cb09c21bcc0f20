// The PPTX extractor's pictures: what PowerPoint cannot draw is marked for the renderer to screenshot
// (an id per element, an alt text), icons become SVG, stored images are named by their asset path.

import { type Rect, type RasterItem, type SlideItem, slideModelLimits as limits } from "@/lib/contract/slide-model";
import { assetPathPattern } from "@/lib/contract/slide-model";
import { formulaLabel } from "@/components/player/vocabulary/formula/extract";
import { parseColor } from "./color";
import { faded, opacityOf } from "@/components/player/export/extract-box";

// The elements drawn as pictures, by raster id: kept here rather than marked in the DOM, so the deck
// can neither see nor imitate the marks.
export const rasters = new Map<number, { element: Element; alone: boolean }>();

// A picture's alt text, never empty nor a tag's name: the element's own, or, for a slide's (or beat's)
// background image, which the vocabulary gives no alt text of its own, the name of its section; an
// icon's name; a scrim or another drawn effect (a gradient, a filtered box) is a decoration.
function rasterLabel(element: Element): string {
  const formula = formulaLabel(element);
  if (formula) return formula;
  const section = element.parentElement;
  if (element.classList.contains("dh-slide-image") && section?.matches(".dh-slide, .dh-beat")) {
    const name = section.getAttribute("aria-label")?.trim();
    return name ? `Background image: ${name}` : "Background image";
  }
  const own = (element.getAttribute("aria-label") ?? element.getAttribute("alt") ?? "").trim();
  if (own) return own;
  const icon = element.getAttribute("data-icon")?.trim();
  if (icon && element.classList.contains("dh-icon")) return `Icon: ${icon}`;
  if (element instanceof HTMLElement && element.dataset.dhPseudo && section?.querySelector(":scope > .dh-slide-image"))
    return "Scrim over the background image";
  const title = element.querySelector(":scope > title")?.textContent?.trim();
  return title || "Decoration";
}

export function markRaster(
  element: Element,
  rect: Rect,
  alone: boolean,
  items: SlideItem[],
  asset?: RasterItem["asset"],
  svg?: string,
) {
  const id = rasters.size + 1;
  rasters.set(id, { element, alone });
  const label = rasterLabel(element).slice(0, limits.labelCharacters);
  items.push({
    kind: "raster",
    rect,
    id,
    alone,
    label,
    ...(asset ? { asset } : {}),
    ...(svg ? { svg } : {}),
  } satisfies RasterItem);
}

// A vocabulary icon (<svg class="dh-icon" data-icon>) as a file of its own: its drawing with the colour it
// was drawn in instead of currentColor, at the size it was drawn, nothing of the page's (classes, data
// attributes). The builder checks it again against the SVG allow-list before it goes into the file.
export function iconSvg(svg: Element, rect: Rect): string | undefined {
  if (!svg.classList.contains("dh-icon") || !svg.hasAttribute("data-icon")) return undefined;
  const color = faded(parseColor(getComputedStyle(svg).color), opacityOf(svg));
  if (!color) return undefined;
  const clone = svg.cloneNode(true) as Element;
  for (const name of [...clone.getAttributeNames()]) {
    if (!["xmlns", "viewBox", "fill", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin"].includes(name))
      clone.removeAttribute(name);
  }
  clone.setAttribute("width", String(Math.round(rect.w * 100) / 100));
  clone.setAttribute("height", String(Math.round(rect.h * 100) / 100));
  clone.setAttribute("stroke", `#${color.hex}`);
  if (color.alpha < 1) clone.setAttribute("stroke-opacity", String(color.alpha));
  const markup = new XMLSerializer().serializeToString(clone);
  return markup.length <= limits.svgCharacters && markup.startsWith("<svg ") ? markup : undefined;
}

// An image of the asset path drawn whole or filling its box around its centre, with nothing over it that
// changes how it looks: the exporter can place the stored file itself. Anything else is a picture of it.
export function storedImage(image: HTMLImageElement, style: CSSStyleDeclaration): RasterItem["asset"] {
  let path: string;
  try {
    const url = new URL(image.currentSrc || image.src);
    // The frame is sandboxed (its origin is opaque): the origin of its address is what serves it.
    if (url.origin !== new URL(location.href).origin) return undefined;
    path = url.pathname;
  } catch {
    return undefined;
  }
  const fit = style.objectFit;
  if (!assetPathPattern.test(path) || (fit !== "cover" && fit !== "contain")) return undefined;
  if (style.objectPosition !== "50% 50%" || style.filter !== "none" || style.borderRadius !== "0px") return undefined;
  if (!image.complete || image.naturalWidth < 1 || image.naturalHeight < 1) return undefined;
  return { path, fit, width: image.naturalWidth, height: image.naturalHeight };
}
