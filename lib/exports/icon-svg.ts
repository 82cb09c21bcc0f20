import { DOMParser, type Element, type Node } from "@xmldom/xmldom";
import { slideModelLimits } from "@/lib/contract/slide-model";

// An icon's SVG goes into the PPTX as a vector picture (<asvg:svgBlip>) that Office draws itself: no
// rasteriser stands between it and the app, and the deck's code (so the deck's author) writes the markup.
// The general SVG allow-list (lib/assets/svg.ts) is meant to be followed by librsvg; this one is the only
// guard, so it is strict: line drawing only (the player's icons), every attribute value matched whole
// against what a geometry or paint value can be (no url(), no CSS, no escapes, no entities left, no
// references of any kind), and the file written afresh from the parsed tree. Anything else refuses the
// icon (null), which then goes into the file as its PNG screenshot only.

const SVG_NS = "http://www.w3.org/2000/svg";

const elements = new Set([
  "svg",
  "g",
  "path",
  "circle",
  "ellipse",
  "line",
  "polyline",
  "polygon",
  "rect",
  "title",
  "desc",
]);
// Elements whose text is kept (escaped); everywhere else only white space is allowed, and dropped.
const textElements = new Set(["title", "desc"]);

// A number as SVG writes one, without ambiguity between its parts (no catastrophic backtracking).
const num = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?`;
const whole = (pattern: string) => new RegExp(String.raw`^\s*(?:${pattern})\s*$`);

const length = whole(`${num}(?:px|%)?`);
const fraction = whole(`${num}%?`);
const numberList = (count: string) => whole(`${num}(?:[\\s,]+${num})${count}`);
const colour = whole(
  [
    "none",
    "currentColor",
    "#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})",
    // A named colour: letters only.
    "[a-zA-Z]{3,24}",
    `rgba?\\(\\s*${num}%?(?:(?:\\s*,\\s*|\\s+|\\s*/\\s*)${num}%?){2,3}\\s*\\)`,
  ].join("|"),
);
const transform = whole(`(?:(?:matrix|translate|scale|rotate)\\s*\\(\\s*${num}(?:[\\s,]+${num}){0,5}\\s*\\)[\\s,]*)*`);
const keyword = (...words: string[]) => whole(words.join("|"));

const attributes: Record<string, RegExp> = {
  viewBox: numberList("{3}"),
  width: length,
  height: length,
  x: length,
  y: length,
  x1: length,
  y1: length,
  x2: length,
  y2: length,
  cx: length,
  cy: length,
  r: length,
  rx: length,
  ry: length,
  // Path data: commands and numbers only.
  d: /^[MmZzLlHhVvCcSsQqTtAa0-9eE.,+\-\s]*$/,
  points: /^[0-9eE.,+\-\s]*$/,
  transform,
  fill: colour,
  stroke: colour,
  "stroke-width": length,
  "stroke-linecap": keyword("butt", "round", "square", "inherit"),
  "stroke-linejoin": keyword("miter", "round", "bevel", "inherit"),
  "stroke-miterlimit": whole(num),
  "stroke-dasharray": whole(`none|${num}(?:px|%)?(?:[\\s,]+${num}(?:px|%)?)*`),
  "stroke-dashoffset": length,
  opacity: fraction,
  "fill-opacity": fraction,
  "stroke-opacity": fraction,
  "fill-rule": keyword("nonzero", "evenodd", "inherit"),
  "clip-rule": keyword("nonzero", "evenodd", "inherit"),
};
// No value may hold any of these, whatever its pattern (a second check on the ones above).
const forbidden = /[\\&:;<>"'`@]|url\s*\(|image-set|\/\*/i;

class Refused extends Error {}

const escapeText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The icon's SVG written afresh from its allowed drawing, or null when it holds anything else. */
export function sanitiseIconSvg(input: unknown): string | null {
  if (typeof input !== "string" || input.length > slideModelLimits.svgCharacters) return null;
  // No DOCTYPE (entities), CDATA, comments or processing instructions (xml-stylesheet).
  if (input.includes("<!") || input.includes("<?")) return null;
  let problem = false;
  let root: Element | null;
  try {
    const doc = new DOMParser({ onError: () => void (problem = true) }).parseFromString(input, "image/svg+xml");
    root = doc.documentElement;
    if (!root || Array.from(doc.childNodes).some((node) => node !== root)) return null;
  } catch {
    return null;
  }
  if (problem || root.localName !== "svg") return null;
  try {
    const markup = write(root, true);
    return markup.length <= slideModelLimits.svgCharacters ? markup : null;
  } catch (error) {
    if (error instanceof Refused) return null;
    throw error;
  }
}

function write(element: Element, isRoot: boolean): string {
  const name = element.localName ?? "";
  if (element.namespaceURI !== SVG_NS || element.prefix || element.tagName !== name || !elements.has(name)) {
    throw new Refused();
  }
  if (isRoot !== (name === "svg")) throw new Refused();
  // The root declares SVG's namespace itself (the parser would take an svg without it as SVG too).
  if (isRoot && element.getAttribute("xmlns") !== SVG_NS) throw new Refused();
  let out = `<${name}`;
  for (const attribute of Array.from(element.attributes)) {
    const { name: attributeName, value } = attribute;
    if (attributeName === "xmlns") {
      // The default namespace declaration, only SVG's (the parser has put the element in it).
      if (value !== SVG_NS) throw new Refused();
    } else {
      const pattern = Object.hasOwn(attributes, attributeName) ? attributes[attributeName] : undefined;
      if (
        !pattern ||
        attribute.namespaceURI !== null ||
        attribute.prefix ||
        attribute.localName !== attributeName ||
        forbidden.test(value) ||
        !pattern.test(value)
      ) {
        throw new Refused();
      }
    }
    out += ` ${attributeName}="${value}"`;
  }
  let inner = "";
  for (const child of Array.from(element.childNodes) as Node[]) {
    if (child.nodeType === child.ELEMENT_NODE && !textElements.has(name)) {
      inner += write(child as Element, false);
    } else if (child.nodeType === child.TEXT_NODE) {
      const text = child.nodeValue ?? "";
      if (textElements.has(name)) inner += escapeText(text);
      else if (text.trim() !== "") throw new Refused();
    } else {
      throw new Refused();
    }
  }
  // The root is always closed with </svg> (the slide model's check of an icon expects it).
  return inner || isRoot ? `${out}>${inner}</${name}>` : `${out}/>`;
}
