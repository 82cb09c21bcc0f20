import { selectAll } from "css-select";
import { type AnyNode, type Document, type Element, isTag } from "domhandler";
import { getOuterHTML, removeElement, textContent } from "domutils";
import { nameWords } from "./css-selector";
import { isFontServiceUrl } from "./font-services";
import { ancestors, attribute, parseHtml, relTokens, resolveUrl, stylesheetLinks } from "./html-document";

// What a page points at that the brand extractor needs: stylesheets to fetch, font-service links (read
// for their family names, never fetched), logo candidates best first, and the site's name.

export type LogoCandidate =
  | { kind: "svg"; svg: string; source: "inline-svg" }
  | {
      kind: "image";
      url: string;
      source: "header-image" | "icon" | "og-image" | "apple-touch-icon";
      width?: number;
      height?: number;
    };

export type DiscoveredResources = {
  stylesheets: string[];
  fontStylesheets: string[];
  logoCandidates: LogoCandidate[];
  siteName: string | null;
};

export function discoverResources(html: string, pageUrl: string): DiscoveredResources {
  return discoverInDocument(parseHtml(html), pageUrl);
}

export function discoverInDocument(document: Document, pageUrl: string): DiscoveredResources {
  const stylesheets: string[] = [];
  const fontStylesheets: string[] = [];
  for (const link of stylesheetLinks(document, pageUrl)) {
    (isFontServiceUrl(link.url) ? fontStylesheets : stylesheets).push(link.url);
  }
  return {
    stylesheets,
    fontStylesheets,
    logoCandidates: findLogoCandidates(document, pageUrl),
    siteName: readSiteName(document, pageUrl),
  };
}

type Scored<T> = { candidate: T; score: number; order: number };

function findLogoCandidates(document: Document, pageUrl: string): LogoCandidate[] {
  const svgs = rankByScore(
    selectAll<AnyNode, Element>("svg", document).flatMap((svg, order) => {
      if (ancestors(svg).some((element) => element.name === "svg")) return [];
      const score = logoScore(svg, pageUrl, document);
      if (score <= 0 || !hasDrawing(svg)) return [];
      // Chrome without a logo signal holds menu and search icons too; those are small.
      if (score < 2 && Math.max(numberAttribute(svg, "width") ?? 99, numberAttribute(svg, "height") ?? 99) <= 24) {
        return [];
      }
      return [
        { candidate: { kind: "svg", svg: serializeSvg(svg), source: "inline-svg" } as LogoCandidate, score, order },
      ];
    }),
  );

  const images = rankByScore(
    selectAll<AnyNode, Element>("img", document).flatMap((image, order) => {
      const source = attribute(image, "src") || attribute(image, "data-src") || firstSrcset(attribute(image, "srcset"));
      const url = source ? resolveUrl(source, pageUrl, document) : null;
      if (!url) return [];
      const placement = logoScore(image, pageUrl, document);
      if (placement < 0) return [];
      const score = placement + (mentionsLogo(`${source} ${attribute(image, "alt")}`) ? 4 : 0);
      if (score <= 0) return [];
      const candidate: LogoCandidate = { kind: "image", url, source: "header-image", ...imageSize(image) };
      return [{ candidate, score, order }];
    }),
  );

  const icons: { candidate: LogoCandidate; quality: number }[] = [];
  const touchIcons: { candidate: LogoCandidate; quality: number }[] = [];
  for (const link of selectAll<AnyNode, Element>("link[href]", document)) {
    const rel = relTokens(link);
    const isTouch = rel.includes("apple-touch-icon") || rel.includes("apple-touch-icon-precomposed");
    if (!isTouch && !rel.includes("icon")) continue;
    const url = resolveUrl(attribute(link, "href"), pageUrl, document);
    if (!url) continue;
    const isSvg = attribute(link, "type").toLowerCase().includes("svg") || new URL(url).pathname.endsWith(".svg");
    const size = largestSize(attribute(link, "sizes")) ?? (isTouch ? 180 : isSvg ? null : 16);
    const candidate: LogoCandidate = {
      kind: "image",
      url,
      source: isTouch ? "apple-touch-icon" : "icon",
      ...(size ? { width: size, height: size } : {}),
    };
    (isTouch ? touchIcons : icons).push({ candidate, quality: isSvg ? 10_000 : (size ?? 0) });
  }
  const byQuality = (a: { quality: number }, b: { quality: number }) => b.quality - a.quality;
  icons.sort(byQuality);
  touchIcons.sort(byQuality);
  // A 16px favicon is a worse logo than a 180px touch icon; a vector or large icon is a better one.
  const goodIcons = icons.filter((icon) => icon.quality >= 96);
  const smallIcons = icons.filter((icon) => icon.quality < 96);

  const ogImages: LogoCandidate[] = [];
  for (const meta of selectAll<AnyNode, Element>(
    'meta[property="og:image"], meta[property="og:image:url"]',
    document,
  )) {
    const url = resolveUrl(attribute(meta, "content"), pageUrl, document);
    if (!url) continue;
    const width = numberText(metaContent(document, "og:image:width"));
    const height = numberText(metaContent(document, "og:image:height"));
    ogImages.push({
      kind: "image",
      url,
      source: "og-image",
      ...(width ? { width } : {}),
      ...(height ? { height } : {}),
    });
  }

  const all = [
    ...svgs,
    ...images,
    ...goodIcons.map((icon) => icon.candidate),
    ...touchIcons.map((icon) => icon.candidate),
    ...smallIcons.map((icon) => icon.candidate),
    ...ogImages,
  ];
  const seen = new Set<string>();
  return all.filter((candidate) => {
    const key = candidate.kind === "svg" ? candidate.svg : candidate.url;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function rankByScore<T>(items: Scored<T>[]): T[] {
  return items.sort((a, b) => b.score - a.score || a.order - b.order).map((item) => item.candidate);
}

const logoCollectionWords = ["logos", "customers", "clients", "partners", "sponsors", "trusted", "cloud", "press"];

// 4: the element (or its link/wrapper) says "logo"; 2: it sits in the link home; 1: in the header/nav;
// -1: it is one of a row of customer or partner logos.
function logoScore(element: Element, pageUrl: string, document: Document): number {
  const chain = [element, ...ancestors(element)];
  const inChrome = chain.some(
    (node) => node.name === "header" || node.name === "nav" || attribute(node, "role") === "banner",
  );
  const inCollection = chain.some((node) => logoCollectionWords.some((word) => describe(node).words.has(word)));
  if (inCollection && !inChrome) return -1;
  const near = chain.slice(0, 4);
  let score = 0;
  if (near.some((node) => describe(node).mentionsLogo) || mentionsLogo(svgTitle(element))) score += 4;
  if (chain.some((node) => node.name === "a" && isHomeLink(attribute(node, "href"), pageUrl, document))) score += 2;
  if (inChrome) score += 1;
  return score;
}

function describe(element: Element): { words: Set<string>; mentionsLogo: boolean } {
  const words = nameWords([attribute(element, "class"), attribute(element, "id")]);
  const labels = `${attribute(element, "aria-label")} ${attribute(element, "title")}`;
  return { words, mentionsLogo: words.has("logo") || words.has("logotype") || mentionsLogo(labels) };
}

function mentionsLogo(text: string): boolean {
  return text.toLowerCase().includes("logo");
}

function svgTitle(element: Element): string {
  if (element.name !== "svg") return "";
  const title = element.children.find((child) => isTag(child) && child.name === "title");
  return title ? textContent(title) : "";
}

function isHomeLink(href: string, pageUrl: string, document: Document): boolean {
  if (!href || href.startsWith("#")) return false;
  const target = resolveUrl(href, pageUrl, document);
  if (!target) return false;
  const url = new URL(target);
  const page = new URL(pageUrl);
  if (url.origin !== page.origin || url.search) return false;
  const path = url.pathname.replace(/index\.html?$/, "");
  // Sites served below a path (fixtures, previews) link home relative to their own folder.
  const folder = page.pathname.slice(0, page.pathname.lastIndexOf("/") + 1);
  return path === "/" || path === folder;
}

const drawingTags = new Set(["path", "rect", "circle", "ellipse", "polygon", "polyline", "line", "text", "image"]);

function hasDrawing(svg: Element): boolean {
  return selectAll<AnyNode, Element>("*", svg).some((element) => drawingTags.has(element.name.toLowerCase()));
}

const SVG_NAMESPACE = "http://www.w3.org/2000/svg";

// The stored copy is served as an image file: scripts, handlers, embedded HTML, outside references and
// animations (which can rewrite an href to javascript:) go.
function serializeSvg(svg: Element): string {
  const copy = svg.cloneNode(true);
  for (const element of selectAll<AnyNode, Element>(
    "script, foreignobject, set, animate, animatemotion, animatetransform",
    copy,
  )) {
    removeElement(element);
  }
  for (const element of [copy, ...selectAll<AnyNode, Element>("*", copy)]) {
    for (const [name, value] of Object.entries(element.attribs)) {
      const lower = name.toLowerCase();
      const isReference = lower === "href" || lower === "xlink:href" || lower === "src";
      const safeReference = value.trim().startsWith("#") || value.trim().toLowerCase().startsWith("data:image/");
      if (lower.startsWith("on") || (isReference && !safeReference)) delete element.attribs[name];
    }
  }
  if (!copy.attribs.xmlns) copy.attribs.xmlns = SVG_NAMESPACE;
  return getOuterHTML(copy);
}

function firstSrcset(srcset: string): string {
  return srcset.split(",")[0]?.trim().split(/\s+/)[0] ?? "";
}

function numberAttribute(element: Element, name: string): number | null {
  return numberText(attribute(element, name));
}

function numberText(text: string | null): number | null {
  if (!text) return null;
  const value = Number.parseFloat(text);
  return Number.isFinite(value) && value > 0 ? value : null;
}

function imageSize(image: Element): { width?: number; height?: number } {
  const width = numberAttribute(image, "width");
  const height = numberAttribute(image, "height");
  return { ...(width ? { width } : {}), ...(height ? { height } : {}) };
}

function largestSize(sizes: string): number | null {
  let largest: number | null = null;
  for (const size of sizes.toLowerCase().split(/\s+/)) {
    if (size === "any") return 512;
    const [width, height] = size.split("x").map(Number);
    if (width && height) largest = Math.max(largest ?? 0, width, height);
  }
  return largest;
}

function metaContent(document: Document, key: string): string | null {
  for (const meta of selectAll<AnyNode, Element>("meta[content]", document)) {
    if (attribute(meta, "property").toLowerCase() === key || attribute(meta, "name").toLowerCase() === key) {
      const content = attribute(meta, "content").trim();
      if (content) return content;
    }
  }
  return null;
}

const titleSeparators = [" | ", " — ", " – ", " - ", " · ", " • ", " :: ", " » ", ": "];
const genericTitleParts = new Set(["home", "homepage", "home page", "welcome", "official site", "official website"]);

function readSiteName(document: Document, pageUrl: string): string | null {
  const declared = metaContent(document, "og:site_name") ?? metaContent(document, "application-name");
  if (declared) return declared.slice(0, 120);
  const title = selectAll<AnyNode, Element>("title", document)[0];
  return title ? cleanTitle(textContent(title), pageUrl) : null;
}

/**
 * "Acme — Home" → "Acme"; "Pricing | Acme" on acme.com → "Acme": the part named like the host, else
 * the shortest part that is not a generic page name.
 */
export function cleanTitle(title: string, pageUrl?: string): string | null {
  let parts = [title.replace(/\s+/g, " ").trim()];
  for (const separator of titleSeparators) parts = parts.flatMap((part) => part.split(separator));
  const named = parts.map((part) => part.trim()).filter((part) => part && !genericTitleParts.has(part.toLowerCase()));
  if (!named.length) return null;
  const host = hostnameOf(pageUrl);
  const compact = (part: string) => part.toLowerCase().replace(/[^a-z0-9]/g, "");
  const matching = named.find((part) => compact(part).length >= 2 && host.includes(compact(part)));
  if (matching) return matching.slice(0, 120);
  const wordCount = (part: string) => part.split(" ").length;
  const best = named.reduce((shortest, part) => (wordCount(part) < wordCount(shortest) ? part : shortest));
  return best.slice(0, 120);
}

function hostnameOf(pageUrl: string | undefined): string {
  try {
    return pageUrl ? new URL(pageUrl).hostname.toLowerCase().replace(/[^a-z0-9.]/g, "") : "";
  } catch {
    return "";
  }
}
