// Runs inside the export renderer's page (player in export mode, every slide a .dh-export-page) and
// describes each slide as native PowerPoint material: shapes with fills, borders and radii; text boxes
// with runs; tables; and, only where PowerPoint has no equivalent (SVG, images, gradients, filters),
// an item for a picture the renderer screenshots. Built by scripts/build-player.ts as a classic script.
//
// The renderer evaluates it in an isolated world of the page (lib/exports/render-export.ts): the DOM is
// the deck's, but the globals, prototypes and built-ins used here are not, so nothing the deck's scripts
// redefine (Object.defineProperty, Array.prototype.map, JSON, getComputedStyle…) reaches this code.
import { type SlideItem, type SlideModel } from "@/lib/contract/slide-model";
import { isDisplayFormula } from "@/components/player/vocabulary/formula/extract";
import { parseColor } from "./color";
import {
  materializePseudoElements,
  opacities,
  opacityOf,
  parseGradient,
  pushBoxShapes,
  px,
  relative,
  size,
  token,
} from "@/components/player/export/extract-box";
import { iconSvg, markRaster, rasters, storedImage } from "@/components/player/export/extract-raster";
import {
  EMOJI_FONT,
  emojiPieces,
  hasOwnText,
  isTextBlock,
  lineHeightOf,
  pushTextBox,
  runStyle,
  transformText,
} from "@/components/player/export/extract-text";
import { pushList } from "@/components/player/vocabulary/bullets/extract";
import { extractChart, probeCharts } from "@/components/player/vocabulary/chart/extract";
import { pushPreformatted } from "@/components/player/vocabulary/code/extract";
import { extractTable } from "@/components/player/vocabulary/table/extract";

export function walk(element: Element, origin: DOMRect, items: SlideItem[], model: SlideModel) {
  const style = getComputedStyle(element);
  if (style.display === "none" || Number(style.opacity) === 0) return;
  const visible = style.visibility === "visible";
  const rect = relative(element.getBoundingClientRect(), origin);
  if ((rect.w < 0.5 || rect.h < 0.5) && style.overflow !== "visible") return;
  const tag = element.tagName.toLowerCase();

  if (visible && tag === "figure" && element.classList.contains("dh-chart") && element.hasAttribute("data-chart")) {
    const chart = extractChart(element, origin);
    if (chart) {
      items.push(chart);
      // A doughnut's centre (the highlighted share and its name) and the values beside its legend's names
      // (PowerPoint's legend shows names only) are text over the chart.
      for (const text of element.querySelectorAll(
        "svg.dh-chart-svg > g > g > :is(.dh-chart-centre, .dh-chart-note), svg.dh-chart-svg .dh-chart-legend-row > .dh-chart-value",
      )) {
        const textStyle = getComputedStyle(text);
        const content = text.textContent?.trim();
        if (!content) continue;
        const box = relative(text.getBoundingClientRect(), origin);
        const run = { text: content, ...runStyle(text) };
        run.color = parseColor(textStyle.fill) ?? run.color;
        items.push({
          kind: "text",
          rect: box,
          runs: [run],
          align: text.classList.contains("dh-chart-value") ? "right" : "center",
          lineHeight: size(box.h),
          singleLine: true,
        });
      }
      return;
    }
  }

  if (visible && isDisplayFormula(element)) {
    markRaster(element, rect, false, items);
    return;
  }
  if (visible && (tag === "svg" || tag === "img" || tag === "canvas" || tag === "video" || tag === "picture")) {
    markRaster(
      element,
      rect,
      false,
      items,
      tag === "img" ? storedImage(element as HTMLImageElement, style) : undefined,
      tag === "svg" ? iconSvg(element, rect) : undefined,
    );
    return;
  }
  if (visible && tag === "table") {
    items.push(extractTable(element as HTMLTableElement, origin));
    return;
  }

  if (visible) {
    if (element.classList.contains("dh-slide")) {
      model.background = parseColor(style.backgroundColor);
    } else {
      const otherEffect =
        style.filter !== "none" ||
        style.backdropFilter !== "none" ||
        style.mixBlendMode !== "normal" ||
        style.clipPath !== "none" ||
        style.maskImage !== "none" ||
        (style.transform !== "none" && !/^matrix\(1, 0, 0, 1,/.test(style.transform));
      // A gradient alone on a plain rectangle (the scrim over a background image) is a shape with a
      // gradient fill; any other painted background is a picture.
      const gradient =
        style.backgroundImage !== "none" &&
        !otherEffect &&
        !parseColor(style.backgroundColor) &&
        style.borderRadius === "0px" &&
        style.boxShadow === "none" &&
        ["Top", "Right", "Bottom", "Left"].every(
          (side) => px(style.getPropertyValue(`border-${side.toLowerCase()}-width`)) === 0,
        )
          ? parseGradient(style.backgroundImage, opacityOf(element))
          : null;
      if (gradient && rect.w > 0 && rect.h > 0) {
        items.push({
          kind: "shape",
          rect,
          fill: null,
          gradient,
          border: null,
          radius: 0,
          ellipse: false,
          shadow: null,
        });
      } else if ((otherEffect || style.backgroundImage !== "none") && rect.w > 0 && rect.h > 0) {
        markRaster(element, rect, true, items);
      } else {
        pushBoxShapes(element, style, rect, items);
      }
      if (tag === "pre") {
        pushPreformatted(element, style, origin, items);
        return;
      }
      if (element.classList.contains("dh-bullets") && pushList(element as HTMLElement, origin, items)) return;
      if (isTextBlock(element)) {
        pushTextBox(element, style, origin, items);
        return;
      }
      // Text directly inside a block that also has block children: each run of text is its own box.
      if (hasOwnText(element)) {
        for (const node of element.childNodes) {
          if (node.nodeType !== Node.TEXT_NODE || !node.textContent?.trim()) continue;
          const range = document.createRange();
          range.selectNode(node);
          const text = transformText(node.textContent.replace(/\s+/g, " ").trim(), style.textTransform);
          const lineHeight = lineHeightOf(style);
          const textRect = relative(range.getBoundingClientRect(), origin);
          // The box is the text's own: aligned to where the text starts.
          const rtl = style.direction === "rtl";
          items.push({
            kind: "text",
            rect: textRect,
            runs: emojiPieces(text).map((piece) => ({
              text: piece.text,
              ...runStyle(element),
              ...(piece.emoji ? { font: EMOJI_FONT } : {}),
            })),
            align: rtl ? "right" : "left",
            ...(rtl ? { rtl } : {}),
            lineHeight,
            singleLine: true,
            textWidth: textRect.w,
          });
        }
      }
    }
  }
  for (const child of inPaintOrder(element)) walk(child, origin, items, model);
}

// Children in the order they are painted, which is the order of the items: by z-index where it applies
// (positioned boxes, flex and grid items), otherwise as in the document (the sort is stable). A slide
// with a background image is the case in point: its scrim (a materialised ::before, so the first child)
// lies over the picture and under the content because of z-index alone.
function inPaintOrder(element: Element): Element[] {
  const children = [...element.children];
  const display = getComputedStyle(element).display;
  const layered = /flex|grid/.test(display);
  const layer = (child: Element) => {
    const style = getComputedStyle(child);
    const z = Number.parseInt(style.zIndex, 10);
    return Number.isFinite(z) && (layered || style.position !== "static") ? z : 0;
  };
  const layers = new Map(children.map((child) => [child, layer(child)]));
  if ([...layers.values()].every((z) => z === 0)) return children;
  return children.sort((a, b) => layers.get(a)! - layers.get(b)!);
}

const extract = () => {
  rasters.clear();
  opacities.clear();
  const pages = [...document.querySelectorAll(".dh-export-page")];
  materializePseudoElements(pages);
  probeCharts(document);
  return pages.map((page) => {
    const label = page.querySelector(".dh-slide")?.getAttribute("aria-label")?.trim();
    const model: SlideModel = { background: null, items: [], ...(label ? { label } : {}) };
    const origin = page.getBoundingClientRect();
    for (const child of page.children) walk(child, origin, model.items, model);
    model.background ??= parseColor(getComputedStyle(page).backgroundColor);
    return model;
  });
};

// For the renderer's pictures: only this raster item's element is drawn, on a transparent page (an
// element drawn alone shows without its children; the others with theirs). null shows everything again.
let rasterStyle: HTMLStyleElement | null = null;

let shown: Element | null = null;

const rasterize = `dh-rasterize-${token}`;

const target = `dh-raster-target-${token}`;

const alone = `dh-raster-alone-${token}`;

const showRaster = (id: number | null): boolean => {
  if (!rasterStyle) {
    rasterStyle = document.createElement("style");
    rasterStyle.textContent = `html.${rasterize}, html.${rasterize} body { background: transparent !important; }
html.${rasterize} * { visibility: hidden !important; }
html.${rasterize} .${target}, html.${rasterize} .${target} * { visibility: visible !important; }
html.${rasterize} .${alone} { visibility: visible !important; }`;
    document.head.appendChild(rasterStyle);
  }
  shown?.classList.remove(target, alone);
  shown = null;
  const raster = id === null ? undefined : rasters.get(id);
  document.documentElement.classList.toggle(rasterize, raster !== undefined);
  if (!raster) return false;
  shown = raster.element;
  shown.classList.add(raster.alone ? alone : target);
  return true;
};

// This world's own window: nothing of the deck's can define these first or replace them.
Object.defineProperty(window, "__deckhandExtract", { value: extract, writable: false, configurable: false });
Object.defineProperty(window, "__deckhandShowRaster", { value: showRaster, writable: false, configurable: false });
