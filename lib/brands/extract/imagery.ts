import { selectAll } from "css-select";
import type { AnyNode, Document, Element } from "domhandler";
import valueParser from "postcss-value-parser";
import type { Imagery } from "@/lib/brands/brand-book";
import { resolveLengthPx } from "./css-length";
import type { CssModel, CssRule } from "./css-model";
import { ancestors, attribute } from "./html-document";

// Imagery: whether the page shows photographs or drawings (judged from image formats, alt text and
// inline SVG), and how round its corners are (from the border-radius of its buttons and cards).

const PILL = 9999;

type Tally = { photo: number; illustration: number; count: number };

export function buildImagery(document: Document, model: CssModel): Imagery {
  const tally: Tally = { photo: 0, illustration: 0, count: 0 };
  countImages(document, tally);
  countBackgroundImages(model, tally);
  const inlineSvgs = countInlineSvgs(document);
  tally.illustration += Math.min(3, inlineSvgs * 0.25);

  const total = tally.photo + tally.illustration;
  const style: Imagery["style"] =
    total < 1
      ? "minimal"
      : tally.photo / total >= 0.7
        ? "photography"
        : tally.illustration / total >= 0.7
          ? "illustration"
          : "mixed";

  const radii = readRadii(model);
  const shapeSource = radii.button.length ? radii.button : radii.card.length ? radii.card : radii.other;
  const shapeMedian = median(shapeSource);
  const shapes: Imagery["shapes"] =
    shapeMedian === null || shapeMedian <= 2 ? "sharp" : shapeMedian >= 999 ? "pill" : "rounded";
  const boxRadii = [...radii.card, ...radii.button].filter((value) => value < 999);
  const cornerSource = boxRadii.length ? boxRadii : radii.other.filter((value) => value < 999);
  const corner = median(cornerSource) ?? (shapes === "pill" ? 999 : 0);

  const radiusEvidence = radii.button.length + radii.card.length;
  const signals = (radiusEvidence >= 2 ? 1 : radiusEvidence ? 0.5 : 0) + (tally.count >= 3 ? 1 : tally.count ? 0.5 : 0);
  const confidence = signals >= 2 ? 0.75 : signals >= 1 ? 0.55 : 0.35;

  const guidelines = [styleGuideline(style, inlineSvgs), shapeGuideline(shapes, corner)];
  if (style !== "minimal" && tally.count) {
    guidelines.push(
      style === "photography"
        ? "Crop photos edge to edge or in the same rounded frames the site uses; avoid clip art."
        : "Keep illustrations flat and in the brand palette; avoid stock photos.",
    );
  }
  return { style, shapes, cornerRadiusPx: Math.round(corner * 10) / 10, guidelines, confidence };
}

function styleGuideline(style: Imagery["style"], inlineSvgs: number): string {
  switch (style) {
    case "photography":
      return "Use real photography: people and products in natural light.";
    case "illustration":
      return "Prefer vector illustrations and icons over photographs.";
    case "mixed":
      return "Mix product shots or photos with simple vector graphics.";
    case "minimal":
      return inlineSvgs
        ? "Keep visuals minimal: type, colour and simple line icons carry the design."
        : "Keep visuals minimal: type and colour carry the design.";
  }
}

function shapeGuideline(shapes: Imagery["shapes"], corner: number): string {
  if (shapes === "pill") return "Use fully rounded (pill) buttons and tags.";
  if (shapes === "rounded") return `Round corners of boxes and images at about ${Math.round(corner)}px.`;
  return "Keep corners square.";
}

const photoExtensions = new Set(["jpg", "jpeg", "webp", "avif", "heic", "jxl"]);
const photoHosts = ["unsplash.com", "pexels.com", "images.ctfassets.net", "cloudinary.com", "imgix.net"];

/** Adds one image's vote: jpg/webp read as photographs, svg as drawings, png/gif mostly as drawings. */
function voteForUrl(url: string, alt: string, tally: Tally, weight = 1): void {
  const lowerAlt = alt.toLowerCase();
  tally.count++;
  if (/illustration|icon|diagram|drawing|graphic/.test(lowerAlt)) {
    tally.illustration += weight;
    return;
  }
  if (/photo|portrait|headshot|team|people|customer/.test(lowerAlt)) {
    tally.photo += weight;
    return;
  }
  const extension = extensionOf(url);
  if (extension === "svg" || url.startsWith("data:image/svg")) tally.illustration += weight;
  else if (photoExtensions.has(extension) || url.startsWith("data:image/jpeg")) tally.photo += weight;
  else if (extension === "png") {
    tally.illustration += weight * 0.6;
    tally.photo += weight * 0.4;
  } else if (extension === "gif") tally.illustration += weight;
  else if (photoHosts.some((host) => url.includes(host))) tally.photo += weight;
  else {
    tally.photo += weight * 0.5;
    tally.illustration += weight * 0.5;
  }
}

function extensionOf(url: string): string {
  try {
    const path = new URL(url, "http://x/").pathname;
    const dot = path.lastIndexOf(".");
    return dot < 0 ? "" : path.slice(dot + 1).toLowerCase();
  } catch {
    return "";
  }
}

function countImages(document: Document, tally: Tally): void {
  for (const image of selectAll<AnyNode, Element>("img", document)) {
    const source =
      attribute(image, "src") || attribute(image, "data-src") || attribute(image, "srcset").split(/[\s,]/)[0] || "";
    if (!source) continue;
    const label = `${source} ${attribute(image, "alt")} ${attribute(image, "class")}`.toLowerCase();
    if (
      label.includes("logo") ||
      ancestors(image).some((element) => element.name === "header" || element.name === "nav")
    ) {
      continue;
    }
    const width = Number(attribute(image, "width")) || null;
    const height = Number(attribute(image, "height")) || null;
    if ((width ?? 99) <= 2 || (height ?? 99) <= 2) continue; // tracking pixels
    const isIcon = (width ?? 99) <= 48 && (height ?? 99) <= 48;
    voteForUrl(source, attribute(image, "alt"), tally, isIcon ? 0.25 : 1);
  }
  // Video is footage: it counts as photography.
  const videos = selectAll<AnyNode, Element>("video", document).length;
  tally.count += videos;
  tally.photo += videos;
}

function countBackgroundImages(model: CssModel, tally: Tally): void {
  for (const rule of model.rules) {
    if (rule.state) continue;
    for (const declaration of rule.declarations) {
      if (declaration.property !== "background" && declaration.property !== "background-image") continue;
      valueParser(declaration.value).walk((node) => {
        if (node.type !== "function" || node.value.toLowerCase() !== "url") return;
        const url = node.nodes[0]?.value ?? "";
        if (url) voteForUrl(url, "", tally, 0.75);
        return false;
      });
    }
  }
}

function countInlineSvgs(document: Document): number {
  return selectAll<AnyNode, Element>("svg", document).filter((svg) => {
    const chain = ancestors(svg);
    if (chain.some((element) => element.name === "svg" || element.name === "header" || element.name === "nav")) {
      return false;
    }
    return !`${attribute(svg, "class")} ${attribute(svg, "aria-label")}`.toLowerCase().includes("logo");
  }).length;
}

function readRadii(model: CssModel): { button: number[]; card: number[]; other: number[] } {
  const radii = { button: [] as number[], card: [] as number[], other: [] as number[] };
  for (const rule of model.rules) {
    if (rule.state || rule.targets.has("root")) continue;
    for (const declaration of rule.declarations) {
      if (
        declaration.property !== "border-radius" &&
        !/^border-(top|bottom|start|end)-(left|right|start|end)-radius$/.test(declaration.property)
      ) {
        continue;
      }
      const px = readRadius(declaration.value);
      if (px === null) continue;
      bucketOf(rule, radii).push(px);
    }
  }
  return radii;
}

function bucketOf(rule: CssRule, radii: { button: number[]; card: number[]; other: number[] }): number[] {
  if (rule.targets.has("button")) return radii.button;
  if (rule.targets.has("card")) return radii.card;
  return radii.other;
}

/** A radius in px; 50% and anything ≥ 999px mean "pill". */
function readRadius(value: string): number | null {
  const first = valueParser(value).nodes.find((node) => node.type !== "space" && node.type !== "comment");
  if (!first) return null;
  if (first.type === "word") {
    const dimension = valueParser.unit(first.value);
    if (dimension && dimension.unit === "%") return Number(dimension.number) >= 50 ? PILL : null;
  }
  const px = resolveLengthPx(valueParser.stringify(first), { remPx: 16, emPx: 16, percentPx: null });
  if (px === null || px < 0) return null;
  return px >= 999 ? PILL : px;
}

function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
