import { DOMParser, XMLSerializer, type Element, type Node } from "@xmldom/xmldom";
import { AppError } from "@/lib/core/errors";

// An SVG from an upload, a web page or a brand's site is a document that could run script and load other
// files. It is never stored or served as SVG: it is parsed here with a real XML parser, reduced to an
// allow-list of drawing elements and attributes with every reference outside the file removed, and then
// rasterised by librsvg (./image.ts), which runs no script in any case. Two independent guards: what this
// allow-list misses, the rasteriser cannot run, and a PNG cannot be anything but an image.

const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";

const allowedElements = new Set([
  "svg",
  "g",
  "defs",
  "symbol",
  "use",
  "title",
  "desc",
  "path",
  "rect",
  "circle",
  "ellipse",
  "line",
  "polyline",
  "polygon",
  "text",
  "tspan",
  "textPath",
  "linearGradient",
  "radialGradient",
  "stop",
  "pattern",
  "clipPath",
  "mask",
  "marker",
  "image",
  "filter",
  "feBlend",
  "feColorMatrix",
  "feComponentTransfer",
  "feComposite",
  "feFlood",
  "feGaussianBlur",
  "feMerge",
  "feMergeNode",
  "feOffset",
  "feFuncA",
  "feFuncB",
  "feFuncG",
  "feFuncR",
  "feDropShadow",
  "style",
]);

// Images embedded in the file itself are kept; a link to anything else is removed.
const inlineImage = /^data:image\/(png|jpeg|gif|webp);base64,[a-z0-9+/=\s]*$/i;
// url(...) that points anywhere but inside this file.
const outsideUrl = /url\(\s*(?!['"]?#)/i;

function refused(message: string): AppError {
  return new AppError("invalid_request", message);
}

/** The SVG text with only drawing left in it; throws 422 for text that is not a well-formed SVG document. */
export function sanitizeSvg(input: Buffer, what = "The image"): string {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(input).replace(/^\uFEFF/, "");
  } catch {
    throw refused(`${what} is an SVG that is not valid UTF-8 text.`);
  }
  // Entities (the "billion laughs", external entities) come only with a DOCTYPE: none is accepted.
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw refused(`${what} is an SVG with a DOCTYPE, which is not accepted.`);
  let problem: string | null = null;
  let doc;
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        if (level !== "warning") problem ??= String(message).split("\n")[0]!;
      },
    }).parseFromString(text, "image/svg+xml");
  } catch (error) {
    // xmldom throws on a fatal error (after reporting it).
    problem ??= (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
    throw refused(`${what} is not a well-formed SVG document (${problem}).`);
  }
  const root = doc.documentElement;
  if (problem || !root || root.localName !== "svg" || root.namespaceURI !== SVG_NS) {
    throw refused(`${what} is not a well-formed SVG document${problem ? ` (${problem})` : ""}.`);
  }
  clean(root);
  // Processing instructions (xml-stylesheet) and comments go too.
  for (const node of Array.from(doc.childNodes)) if (node !== root) doc.removeChild(node);
  return new XMLSerializer().serializeToString(doc);
}

function clean(element: Element): void {
  for (const attribute of Array.from(element.attributes)) {
    const name = attribute.localName ?? attribute.name;
    const value = attribute.value;
    const isHref = name === "href" && (attribute.namespaceURI === null || attribute.namespaceURI === XLINK_NS);
    const keep =
      !/^on/i.test(name) &&
      (isHref ? value.startsWith("#") || inlineImage.test(value) : !outsideUrl.test(value)) &&
      // Attributes of other namespaces than SVG's and xlink's (and xmlns declarations) carry nothing drawn.
      (attribute.namespaceURI === null ||
        attribute.namespaceURI === XLINK_NS ||
        attribute.namespaceURI === "http://www.w3.org/2000/xmlns/");
    if (!keep) element.removeAttributeNode(attribute);
  }
  for (const child of Array.from(element.childNodes) as Node[]) {
    if (child.nodeType === child.ELEMENT_NODE) {
      const el = child as Element;
      if (el.namespaceURI !== SVG_NS || !allowedElements.has(el.localName ?? "")) {
        element.removeChild(el);
      } else if (
        el.localName === "style" &&
        (/@import/i.test(el.textContent ?? "") || outsideUrl.test(el.textContent ?? ""))
      ) {
        element.removeChild(el);
      } else {
        clean(el);
      }
    } else if (child.nodeType !== child.TEXT_NODE && child.nodeType !== child.CDATA_SECTION_NODE) {
      element.removeChild(child);
    }
  }
}
