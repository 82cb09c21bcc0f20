import { selectAll, selectOne } from "css-select";
import { type AnyNode, type Document, type Element, isTag } from "domhandler";
import { getAttributeValue } from "domutils";
import { parseDocument } from "htmlparser2";

// Small DOM helpers shared by resource discovery and extraction: one parse of the page, URLs resolved
// the way the browser resolves them (honouring <base href>), ancestry tests.

export function parseHtml(html: string): Document {
  return parseDocument(html);
}

const baseUrls = new WeakMap<Document, string>();

function baseUrlOf(document: Document, pageUrl: string): string {
  const cached = baseUrls.get(document);
  if (cached) return cached;
  const baseElement = selectOne<AnyNode, Element>("base[href]", document);
  const href = baseElement ? getAttributeValue(baseElement, "href") : undefined;
  let base = pageUrl;
  if (href) {
    try {
      base = new URL(href.trim(), pageUrl).toString();
    } catch {
      // a broken <base> is ignored by browsers too
    }
  }
  baseUrls.set(document, base);
  return base;
}

/** Absolute http(s) or data: URL of `href`, or null when it is neither. */
export function resolveUrl(href: string, pageUrl: string, document: Document): string | null {
  try {
    const url = new URL(href.trim(), baseUrlOf(document, pageUrl));
    return url.protocol === "http:" || url.protocol === "https:" || url.protocol === "data:" ? url.toString() : null;
  } catch {
    return null;
  }
}

export function relTokens(element: Element): string[] {
  return (getAttributeValue(element, "rel") ?? "").toLowerCase().split(/\s+/).filter(Boolean);
}

/** `<link rel=stylesheet>` and `<link rel=preload as=style>` that a screen would apply, in document order. */
export function stylesheetLinks(document: Document, pageUrl: string): { url: string }[] {
  const links: { url: string }[] = [];
  const seen = new Set<string>();
  for (const element of selectAll<AnyNode, Element>("link[href]", document)) {
    const rel = relTokens(element);
    const isSheet = rel.includes("stylesheet") && !rel.includes("alternate");
    const isPreload = rel.includes("preload") && (getAttributeValue(element, "as") ?? "").toLowerCase() === "style";
    if (!isSheet && !isPreload) continue;
    const media = (getAttributeValue(element, "media") ?? "").toLowerCase().trim();
    if (media === "print" || media.startsWith("print ") || media === "speech") continue;
    const url = resolveUrl(getAttributeValue(element, "href") ?? "", pageUrl, document);
    if (!url || url.startsWith("data:") || seen.has(url)) continue;
    seen.add(url);
    links.push({ url });
  }
  return links;
}

export function ancestors(element: Element): Element[] {
  const chain: Element[] = [];
  for (let node = element.parent; node; node = node.parent) {
    if (isTag(node)) chain.push(node);
  }
  return chain;
}

export function attribute(element: Element, name: string): string {
  return getAttributeValue(element, name) ?? "";
}
