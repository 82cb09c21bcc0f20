// The offline generator builds slides as a small element tree and prints it as a deck-tsx module, so every
// string from the input passes through one escaping path: JSX text only when it needs no escaping, JSON
// string literals otherwise, template literals for code.

import type { DeckFormat } from "@/lib/contract/deck";
import { vocabulary } from "@/lib/source/component-specs";

/** JSX as a prop's value (a table cell with markup), printed as the element or a fragment. */
export class Jsx {
  constructor(readonly children: ChildNode[]) {}
}

export type PropValue = string | number | boolean | Jsx | PropValue[] | { [key: string]: PropValue };
export type ElementNode = {
  tag: string;
  props: Array<[string, PropValue | undefined]>;
  children: ChildNode[];
  /** Children printed on one line (text with <strong> and <em>), where JSX keeps spaces as written. */
  inline?: boolean;
};
export type ChildNode = ElementNode | string;

export type SlidePlan = {
  label: string;
  notes: string;
  layout?: "center" | "full-bleed";
  background?: "primary" | "accent" | "surface" | "invert";
  image?: string;
  /** The image beside the content (a split slide): its side, its share of the width, fit and alt text. */
  imageSide?: { side: "left" | "right"; width?: number; fit?: "contain"; alt?: string };
  /** Colours of the slide's own (Marp's backgroundColor and color), as hex. */
  colors?: { background?: string; text?: string };
  paginate?: boolean;
  children: ElementNode[];
};

const PRINT_WIDTH = 120;

export function el(tag: string, props: Array<[string, PropValue | undefined]>, ...children: ChildNode[]): ElementNode {
  return { tag, props, children };
}

export function printModule(title: string, plans: SlidePlan[], format: DeckFormat): string {
  const section = format === "slides" ? "Slide" : "Beat";
  const slides = plans.map((plan, index) =>
    el(
      section,
      [
        ["label", plan.label],
        ["layout", plan.layout],
        ["height", format === "webpage" && index === 0 ? "screen" : undefined],
        ["background", plan.background],
        ["backgroundColor", plan.colors?.background],
        ["color", plan.colors?.text],
        ["image", plan.image],
        // A beat has no split: its image is behind its content.
        ["imageSide", format === "slides" ? plan.imageSide?.side : undefined],
        ["imageWidth", format === "slides" ? plan.imageSide?.width : undefined],
        ["imageFit", format === "slides" ? plan.imageSide?.fit : undefined],
        ["imageAlt", format === "slides" ? plan.imageSide?.alt : undefined],
        ["paginate", format === "slides" && plan.paginate ? true : undefined],
        // <Beat> has no notes; a webpage shows the full text instead.
        ["notes", format === "slides" && plan.notes ? plan.notes : undefined],
      ],
      ...plan.children,
    ),
  );
  const deck = el("Deck", [["title", title]], ...slides);
  const used = new Set<string>();
  const collect = (node: ElementNode) => {
    used.add(node.tag);
    for (const child of node.children) if (typeof child !== "string") collect(child);
  };
  collect(deck);
  const names = vocabulary.map((component) => component.name).filter((name) => used.has(name));
  const lines = printElement(deck, 4).flatMap((line, index) =>
    // A blank line between slides, as people write them.
    index > 1 && /^ {6}<(?:Slide|Beat)\b/.test(line) ? ["", line] : [line],
  );
  return [
    printImport(names),
    "",
    `export default function ${componentName(title)}() {`,
    "  return (",
    ...lines,
    "  );",
    "}",
    "",
  ].join("\n");
}

function printImport(names: string[]): string {
  const line = `import { ${names.join(", ")} } from "@deckhand/player";`;
  if (line.length <= PRINT_WIDTH) return line;
  return ["import {", ...names.map((name) => `  ${name},`), '} from "@deckhand/player";'].join("\n");
}

function componentName(title: string): string {
  const words = title
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9\s]/g, " ")
    .split(/\s+/)
    .filter((word) => word.length > 0)
    .slice(0, 4)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase());
  const joined = words.join("").replace(/^\d+/, "");
  if (!joined) return "GeneratedDeck";
  return joined.endsWith("Deck") && joined !== "Deck" ? joined : `${joined}Deck`;
}

function printElement(node: ElementNode, indent: number): string[] {
  const pad = " ".repeat(indent);
  const props = node.props.filter((prop): prop is [string, PropValue] => prop[1] !== undefined && prop[1] !== false);
  const inlineProps = props.map(([name, value]) => ` ${printProp(name, value)}`).join("");
  const openInline = `${pad}<${node.tag}${inlineProps}`;
  const fitsInline = !inlineProps.includes("\n") && openInline.length + 2 <= PRINT_WIDTH;
  const multiline = () => props.flatMap(([name, value]) => printPropLines(name, value, indent + 2));

  if (node.children.length === 0) {
    return fitsInline ? [`${openInline} />`] : [`${pad}<${node.tag}`, ...multiline(), `${pad}/>`];
  }
  const open = fitsInline ? [`${openInline}>`] : [`${pad}<${node.tag}`, ...multiline(), `${pad}>`];
  const close = `${pad}</${node.tag}>`;
  if (node.inline || (node.children.length === 1 && typeof node.children[0] === "string")) {
    const text = printInline(node.children, node.inline === true);
    const single = `${open[0] ?? ""}${text}</${node.tag}>`;
    if (open.length === 1 && single.length <= PRINT_WIDTH) return [single];
    return [...open, `${pad}  ${text}`, close];
  }
  const inner = node.children.flatMap((child) =>
    typeof child === "string" ? [`${pad}  ${printText(child, false)}`] : printElement(child, indent + 2),
  );
  return [...open, ...inner, close];
}

function printInline(children: ChildNode[], keepSpaces: boolean): string {
  return children
    .map((child) => (typeof child === "string" ? printText(child, keepSpaces) : printInlineElement(child)))
    .join("");
}

function printInlineElement(node: ElementNode): string {
  const props = node.props
    .filter((prop): prop is [string, PropValue] => prop[1] !== undefined && prop[1] !== false)
    .map(([name, value]) => ` ${printProp(name, value)}`)
    .join("");
  if (node.children.length === 0) return `<${node.tag}${props} />`;
  return `<${node.tag}${props}>${printInline(node.children, true)}</${node.tag}>`;
}

function printProp(name: string, value: PropValue): string {
  if (value === true) return name;
  if (typeof value === "string" && /^[^"&\\\n\r{}<>]*$/.test(value)) return `${name}="${value}"`;
  return `${name}={${printValue(value)}}`;
}

function printPropLines(name: string, value: PropValue, indent: number): string[] {
  const pad = " ".repeat(indent);
  const inline = `${pad}${printProp(name, value)}`;
  if (inline.length <= PRINT_WIDTH || !Array.isArray(value)) return [inline];
  return [`${pad}${name}={[`, ...value.map((item) => `${pad}  ${printValue(item)},`), `${pad}]}`];
}

function printValue(value: PropValue): string {
  if (typeof value === "string") return value.includes("\n") ? printTemplate(value) : JSON.stringify(value);
  if (value instanceof Jsx) {
    const [only] = value.children;
    return value.children.length === 1 && only !== undefined && typeof only !== "string"
      ? printInlineElement(only)
      : `<>${printInline(value.children, true)}</>`;
  }
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(printValue).join(", ")}]`;
  const entries = Object.entries(value).map(
    ([key, item]) => `${/^[A-Za-z_]\w*$/.test(key) ? key : JSON.stringify(key)}: ${printValue(item)}`,
  );
  return `{ ${entries.join(", ")} }`;
}

/** Multi-line strings (code) as template literals, the way people write them. */
function printTemplate(text: string): string {
  return `\`${text.replace(/\\/g, "\\\\").replace(/`/g, "\\`").replace(/\$\{/g, "\\${")}\``;
}

// JSX text that needs no escaping is written as is; anything else goes through a string expression.
function printText(text: string, keepSpaces: boolean): string {
  const plain = /^[^{}<>&\\\n\r`]+$/.test(text) && (keepSpaces || (text === text.trim() && !text.includes("  ")));
  if (plain && !(keepSpaces && /^\s|\s$/.test(text) && text.trim() === "")) return text;
  return `{${JSON.stringify(text)}}`;
}

/** One element as module text at the left margin (the editor indents it where it goes). */
export function printElementText(node: ElementNode): string {
  return printElement(node, 0).join("\n");
}
