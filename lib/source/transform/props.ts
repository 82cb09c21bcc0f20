// The visual editor's property panel over deck source: the vocabulary elements of a slide with their
// attributes as values, and edits of one attribute at a time. An edit rewrites that attribute only (or
// adds it beside the others, or removes it with the space before it), in the style a person would write:
// plain "…" strings where they can be, bare boolean attributes, arrays laid out one item per line when
// they do not fit on one.

import { parseExpression } from "@babel/parser";
import type { DeckFormat } from "@/lib/contract/deck";
import { AppError } from "@/lib/core/errors";
import { vocabularyNames } from "@/lib/source/component-specs";
import { editableSlides, slideAt } from "./slides";
import { attributeText, findAttribute, type JsxAttribute, locateSlides } from "./tsx-module";

export type PropValue = string | number | boolean | null;

export type ElementProp = {
  name: string;
  kind: "string" | "number" | "boolean" | "expression";
  /** The value when it is a literal; null for any other expression. */
  value: PropValue;
  /** The whole attribute, name to the end of its value. */
  start: number;
  end: number;
};

export type SlideElement = { name: string; start: number; end: number; props: ElementProp[] };

type Element = { name: string; start: number; end: number; attributes: JsxAttribute[] };

/** Lines longer than this are written one array item per line. */
const LINE_WIDTH = 100;

/** The vocabulary elements inside slide `index` (not the slide itself), in source order. */
export function elementsOfSlide(source: string, format: DeckFormat, index: number): SlideElement[] {
  const deck = editableSlides(source, format);
  const slide = slideAt(deck, index, format);
  return deck.elements
    .filter((element) => element.start > slide.start && element.end <= slide.end && vocabularyNames.has(element.name))
    .map((element) => ({
      name: element.name,
      start: element.start,
      end: element.end,
      props: element.attributes.map((attribute) => readProp(source, attribute)),
    }));
}

function readProp(source: string, attribute: JsxAttribute): ElementProp {
  const base = { name: attribute.name, start: attribute.start, end: attribute.end };
  const value = attribute.value;
  if (!value) return { ...base, kind: "boolean", value: true };
  if (value.kind === "string") return { ...base, kind: "string", value: attributeText(source, value) };
  if (value.kind === "expression") {
    if (value.literal !== null) return { ...base, kind: "string", value: value.literal };
    const expression = source.slice(value.start + 1, value.end - 1).trim();
    if (expression === "true" || expression === "false")
      return { ...base, kind: "boolean", value: expression === "true" };
    if (/^-?(\d+\.?\d*|\.\d+)$/.test(expression)) return { ...base, kind: "number", value: Number(expression) };
  }
  return { ...base, kind: "expression", value: null };
}

function elementAt(source: string, start: number): Element {
  const element = locateSlides(source, "slides").elements.find((candidate) => candidate.start === start);
  if (!element) {
    throw new AppError(
      "invalid_request",
      `No element starts at offset ${start} of this source; it changed since it was read. Read the slide's elements again.`,
    );
  }
  return element;
}

function checkName(name: string): void {
  if (!/^[A-Za-z_][\w-]*$/.test(name)) {
    throw new AppError("invalid_request", `"${name}" is not a prop name; a prop name is a word such as "label".`);
  }
}

/**
 * Sets one attribute of the element that starts at `start`: null removes it, true writes it bare, a
 * string keeps the quote the attribute was written with when it can. `first` adds a missing attribute
 * right after the element's name instead of after its other attributes (a slide's label reads first).
 */
export function setProp(
  source: string,
  edit: { start: number; name: string; value: PropValue; first?: boolean },
): string {
  checkName(edit.name);
  const element = elementAt(source, edit.start);
  const attribute = findAttribute(element.attributes, edit.name);
  if (edit.value === null) return attribute ? removeAttribute(source, attribute) : source;
  const quote = attribute?.value?.kind === "string" ? attribute.value.quote : '"';
  return writeAttribute(source, element, attribute, `${edit.name}${encodeValue(edit.value, quote)}`, edit.first);
}

/** Sets an array prop (Bullets items, Table rows and columns, Chart data…) to a literal laid out for reading. */
export function setArrayProp(source: string, edit: { start: number; name: string; value: unknown[] }): string {
  checkName(edit.name);
  if (!Array.isArray(edit.value)) {
    throw new AppError("invalid_request", `The value of ${edit.name} must be an array.`);
  }
  const element = elementAt(source, edit.start);
  const attribute = findAttribute(element.attributes, edit.name);
  const at = attribute?.start ?? element.start;
  const lineStart = source.lastIndexOf("\n", at - 1) + 1;
  const indent = /^[ \t]*/.exec(source.slice(lineStart))?.[0] ?? "";
  const items = edit.value.map((item) => printLiteral(item, edit.name));
  const oneLine = `${edit.name}={[${items.join(", ")}]}`;
  // A new attribute goes at the end of the opening tag; its length is a fair guess at the column.
  const column = attribute ? at - lineStart : source.indexOf(">", edit.start) - lineStart + 1;
  const newline = source.includes("\r\n") ? "\r\n" : "\n";
  const text =
    items.length === 0 || column + oneLine.length <= LINE_WIDTH
      ? oneLine
      : `${edit.name}={[${items.map((item) => `${newline}${indent}  ${item},`).join("")}${newline}${indent}]}`;
  return writeAttribute(source, element, attribute, text, false);
}

function encodeValue(value: Exclude<PropValue, null>, quote: string): string {
  if (value === true) return "";
  if (value === false) return "={false}";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new AppError("invalid_request", "A number prop must be a finite number.");
    return `={${value}}`;
  }
  // A JSX attribute string has no escapes: a quote, a line break or an entity needs a string expression.
  if (!value.includes(quote) && !/[\n\r]/.test(value) && !/&(#x?[0-9a-f]+|[a-z]+);/i.test(value))
    return `=${quote}${value}${quote}`;
  return `={${JSON.stringify(value)}}`;
}

/** A JSON-like value as TSX literal text on one line: objects with bare keys, strings in double quotes. */
export function printLiteral(value: unknown, prop: string): string {
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (Array.isArray(value)) return `[${value.map((item) => printLiteral(item, prop)).join(", ")}]`;
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    if (entries.length === 0) return "{}";
    const fields = entries.map(
      ([key, item]) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${printLiteral(item, prop)}`,
    );
    return `{ ${fields.join(", ")} }`;
  }
  throw new AppError(
    "invalid_request",
    `The value of ${prop} can hold only strings, finite numbers, booleans, null, arrays and plain objects.`,
  );
}

function removeAttribute(source: string, attribute: JsxAttribute): string {
  let start = attribute.start;
  while (start > 0 && /\s/.test(source[start - 1] ?? "")) start--;
  return source.slice(0, start) + source.slice(attribute.end);
}

function writeAttribute(
  source: string,
  element: Element,
  attribute: JsxAttribute | undefined,
  text: string,
  first: boolean | undefined,
): string {
  if (attribute) return source.slice(0, attribute.start) + text + source.slice(attribute.end);
  const nameEnd = element.start + (/^<\s*[\w$.:-]+/.exec(source.slice(element.start))?.[0].length ?? 1);
  const last = first ? undefined : element.attributes.at(-1);
  if (!last) return `${source.slice(0, nameEnd)} ${text}${source.slice(nameEnd)}`;
  // Attributes written one per line get one more line with the same indentation.
  const lead = /\n[ \t]*$/.exec(source.slice(0, last.start))?.[0];
  return source.slice(0, last.end) + (lead ?? " ") + text + source.slice(last.end);
}

// ---------------------------------------------------------------------------------------------

// Reading props for the inspector's lists and grids: the value of a JSX attribute's expression when it is
// written as a literal (strings, numbers, booleans, null, arrays and plain objects of them); undefined for
// anything else (a variable, a call, a spread), which stays for the code editor.

type LiteralNode = { type: string } & Record<string, unknown>;

export function readLiteral(expression: string): unknown {
  let node: LiteralNode;
  try {
    node = parseExpression(expression, { plugins: ["typescript", "jsx"] }) as unknown as LiteralNode;
  } catch {
    return undefined;
  }
  return valueOf(node);
}

/** The attribute `name={…}`'s value text: what lies inside its braces. */
export function attributeExpression(attribute: string): string | null {
  const open = attribute.indexOf("{");
  return open >= 0 && attribute.endsWith("}") ? attribute.slice(open + 1, -1) : null;
}

const NOT_LITERAL = Symbol("not a literal");

function valueOf(node: LiteralNode): unknown {
  const value = read(node);
  return value === NOT_LITERAL ? undefined : value;
}

function read(node: LiteralNode): unknown {
  switch (node.type) {
    case "StringLiteral":
    case "NumericLiteral":
    case "BooleanLiteral":
      return node.value;
    case "NullLiteral":
      return null;
    case "TemplateLiteral": {
      const quasis = node.quasis as { value: { cooked: string | null } }[];
      return (node.expressions as unknown[]).length === 0 ? (quasis[0]?.value.cooked ?? "") : NOT_LITERAL;
    }
    case "UnaryExpression": {
      const argument = read(node.argument as LiteralNode);
      return node.operator === "-" && typeof argument === "number" ? -argument : NOT_LITERAL;
    }
    case "TSAsExpression":
    case "TSSatisfiesExpression":
    case "ParenthesizedExpression":
      return read(node.expression as LiteralNode);
    case "ArrayExpression": {
      const items: unknown[] = [];
      for (const element of node.elements as (LiteralNode | null)[]) {
        if (!element || element.type === "SpreadElement") return NOT_LITERAL;
        const value = read(element);
        if (value === NOT_LITERAL) return NOT_LITERAL;
        items.push(value);
      }
      return items;
    }
    case "ObjectExpression": {
      const object: Record<string, unknown> = {};
      for (const property of node.properties as LiteralNode[]) {
        if (property.type !== "ObjectProperty" || property.computed) return NOT_LITERAL;
        const key = property.key as LiteralNode;
        const name =
          key.type === "Identifier"
            ? (key.name as string)
            : key.type === "StringLiteral"
              ? (key.value as string)
              : null;
        if (name === null) return NOT_LITERAL;
        const value = read(property.value as LiteralNode);
        if (value === NOT_LITERAL) return NOT_LITERAL;
        object[name] = value;
      }
      return object;
    }
    default:
      return NOT_LITERAL;
  }
}

/**
 * Points the <Image> that starts at `start` at another image (the inspector's picker): its `src` is
 * rewritten in place, and `alt` is written too when given and the element has none (or an empty one), so a
 * described image keeps its author's words.
 */
export function setImageSource(source: string, edit: { start: number; src: string; alt?: string }): string {
  const element = elementAt(source, edit.start);
  if (element.name !== "Image") {
    throw new AppError(
      "invalid_request",
      `The element at offset ${edit.start} is a <${element.name}>, not an <Image>.`,
    );
  }
  const src = edit.src.trim();
  if (!src || /[\s"'<>{}]/.test(src)) {
    throw new AppError("invalid_request", "An image's src is a URL without spaces, quotes or braces.");
  }
  let next = setProp(source, { start: edit.start, name: "src", value: src });
  const alt = findAttribute(elementAt(next, edit.start).attributes, "alt");
  const written = alt?.value ? attributeText(next, alt.value) : null;
  const wanted = edit.alt?.replace(/\s+/g, " ").trim();
  if (wanted && (!alt || written === "")) next = setProp(next, { start: edit.start, name: "alt", value: wanted });
  return next;
}
