// Reads a deck module with @babel/parser (TypeScript + JSX) for the editors that change its source (the
// offline AI editor, the visual editor): the top-level <Slide> (or <Beat>) elements of <Deck> with their
// source positions and labels, and every piece of text a person sees or writes (JSX text, attribute
// strings, string literals, template chunks). Edits splice new text into those positions only, so every
// other byte of the module stays as its author wrote it.

import { parse } from "@babel/parser";
import type * as t from "@babel/types";
import { AppError } from "@/lib/core/errors";
import type { DeckFormat } from "@/lib/contract/deck";

export type TextRegion = {
  kind: "jsx-text" | "jsx-attr" | "string" | "template";
  /** Content span, without quotes. */
  start: number;
  end: number;
  quote?: string;
};

export type AttributeValue =
  | { kind: "string"; start: number; end: number; quote: string }
  | { kind: "expression"; start: number; end: number; literal: string | null; quote: string | null }
  | { kind: "element"; start: number; end: number };

export type JsxAttribute = { name: string; start: number; end: number; value: AttributeValue | null };

export type LocatedSlide = {
  number: number;
  start: number;
  end: number;
  text: string;
  label: string | null;
  /** Where the opening tag's name ends, to add an attribute after it. */
  nameEnd: number;
  attributes: JsxAttribute[];
};

export type LocatedDeck = {
  slides: LocatedSlide[];
  /** Slides made some other way (mapped, wrapped, conditional): numbering them offline is ambiguous. */
  hiddenSlides: boolean;
  regions: TextRegion[];
  elements: Array<{ name: string; start: number; end: number; attributes: JsxAttribute[] }>;
};

type AnyNode = t.Node & Record<string, unknown>;

/** A module that does not parse: callers that know what the person was doing say so (unreadableSource). */
export class SourceSyntaxError extends AppError {
  readonly reason: string;

  constructor(reason: string, cause: unknown) {
    super("invalid_request", `This deck's source is not valid TSX (${reason}); fix it in the code editor first.`, {
      cause,
    });
    this.reason = reason;
  }
}

export function parseModule(source: string): t.File {
  try {
    return parse(source, { sourceType: "module", plugins: ["typescript", "jsx"] });
  } catch (error) {
    throw new SourceSyntaxError(error instanceof Error ? error.message : String(error), error);
  }
}

/** Visits every node of the tree in source order. */
function walk(
  node: unknown,
  visit: (node: AnyNode, parent: AnyNode | null) => void,
  parent: AnyNode | null = null,
): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit, parent);
    return;
  }
  if (!node || typeof node !== "object" || typeof (node as { type?: unknown }).type !== "string") return;
  const current = node as AnyNode;
  visit(current, parent);
  for (const [key, value] of Object.entries(current)) {
    if (
      key === "loc" ||
      key === "extra" ||
      key === "leadingComments" ||
      key === "trailingComments" ||
      key === "innerComments"
    )
      continue;
    if (value && typeof value === "object") walk(value, visit, current);
  }
}

function elementName(element: t.JSXElement): string | null {
  const name = element.openingElement.name;
  return name.type === "JSXIdentifier" ? name.name : null;
}

function readAttributes(source: string, element: t.JSXElement): JsxAttribute[] {
  const attributes: JsxAttribute[] = [];
  for (const attribute of element.openingElement.attributes) {
    if (attribute.type !== "JSXAttribute" || attribute.name.type !== "JSXIdentifier") continue;
    const value = attribute.value;
    let read: AttributeValue | null = null;
    if (value?.type === "StringLiteral") {
      read = {
        kind: "string",
        start: (value.start ?? 0) + 1,
        end: (value.end ?? 0) - 1,
        quote: source[value.start ?? 0] ?? '"',
      };
    } else if (value?.type === "JSXExpressionContainer") {
      const expression = value.expression;
      let literal: string | null = null;
      let quote: string | null = null;
      if (expression.type === "StringLiteral") {
        literal = expression.value;
        quote = source[expression.start ?? 0] ?? '"';
      } else if (expression.type === "TemplateLiteral" && expression.expressions.length === 0) {
        literal = expression.quasis[0]?.value.cooked ?? null;
        quote = "`";
      }
      read = { kind: "expression", start: value.start ?? 0, end: value.end ?? 0, literal, quote };
    } else if (value) read = { kind: "element", start: value.start ?? 0, end: value.end ?? 0 };
    attributes.push({ name: attribute.name.name, start: attribute.start ?? 0, end: attribute.end ?? 0, value: read });
  }
  return attributes;
}

export function findAttribute(attributes: JsxAttribute[], name: string): JsxAttribute | undefined {
  // The last one wins, as it does at runtime.
  return attributes.filter((attribute) => attribute.name === name).at(-1);
}

export function attributeText(source: string, value: AttributeValue): string | null {
  if (value.kind === "string") return decodeEntities(source.slice(value.start, value.end));
  return value.kind === "expression" ? value.literal : null;
}

/** The last modules read, newest last: the visual editor reads the same source several times for one edit
 * (the edit itself, the code view's selection, the outline, the inspector, the rail), each a full parse. */
const recentlyLocated = new Map<string, LocatedDeck>();
const RECENT_MAX = 4;

/**
 * The top-level <Slide> (or <Beat>) elements inside <Deck>, in source order, and the module's text. The
 * answer is shared with the next callers asking about the same source, so it is frozen: read it, never change it.
 */
export function locateSlides(source: string, format: DeckFormat): LocatedDeck {
  const key = `${format}\n${source}`;
  const recent = recentlyLocated.get(key);
  if (recent) {
    recentlyLocated.delete(key);
    recentlyLocated.set(key, recent);
    return recent;
  }
  const located = freezeDeep(readDeck(source, format));
  recentlyLocated.set(key, located);
  if (recentlyLocated.size > RECENT_MAX) recentlyLocated.delete(recentlyLocated.keys().next().value!);
  return located;
}

function freezeDeep<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) freezeDeep(child);
    Object.freeze(value);
  }
  return value;
}

function readDeck(source: string, format: DeckFormat): LocatedDeck {
  const file = parseModule(source);
  const section = format === "slides" ? "Slide" : "Beat";
  const aliases: Record<string, Set<string>> = { [section]: new Set([section]), Deck: new Set(["Deck"]) };
  const regions: TextRegion[] = [];
  const elements: LocatedDeck["elements"] = [];
  let deck: t.JSXElement | null = null;
  const sectionElements: t.JSXElement[] = [];

  walk(file.program, (node, parent) => {
    switch (node.type) {
      case "ImportSpecifier": {
        const specifier = node as unknown as t.ImportSpecifier;
        const imported = specifier.imported.type === "Identifier" ? specifier.imported.name : specifier.imported.value;
        aliases[imported]?.add(specifier.local.name);
        break;
      }
      case "JSXElement": {
        const element = node as unknown as t.JSXElement;
        const name = elementName(element);
        elements.push({
          name: name ?? "",
          start: element.start ?? 0,
          end: element.end ?? 0,
          attributes: readAttributes(source, element),
        });
        if (name && aliases.Deck?.has(name) && !deck) deck = element;
        if (name && aliases[section]?.has(name)) sectionElements.push(element);
        break;
      }
      case "JSXText":
        if ((node.end as number) > (node.start as number))
          regions.push({ kind: "jsx-text", start: node.start as number, end: node.end as number });
        break;
      case "StringLiteral": {
        const inModule =
          parent?.type === "ImportDeclaration" ||
          parent?.type === "ExportNamedDeclaration" ||
          parent?.type === "ExportAllDeclaration";
        if (inModule || parent?.type === "TSLiteralType" || parent?.type === "TSExternalModuleReference") break;
        const start = node.start as number;
        regions.push({
          kind: parent?.type === "JSXAttribute" ? "jsx-attr" : "string",
          start: start + 1,
          end: (node.end as number) - 1,
          quote: source[start] ?? '"',
        });
        break;
      }
      case "TemplateElement":
        regions.push({ kind: "template", start: node.start as number, end: node.end as number });
        break;
    }
  });

  const slides: LocatedSlide[] = [];
  let hiddenSlides = false;
  const found = deck as t.JSXElement | null;
  if (found) {
    for (const child of found.children) {
      if (child.type === "JSXElement" && sectionElements.includes(child)) {
        const attributes = readAttributes(source, child);
        const label = findAttribute(attributes, "label")?.value;
        const text = label ? attributeText(source, label)?.replace(/\s+/g, " ").trim() : null;
        slides.push({
          number: slides.length + 1,
          start: child.start ?? 0,
          end: child.end ?? 0,
          text: source.slice(child.start ?? 0, child.end ?? 0),
          label: text ? text : null,
          nameEnd: child.openingElement.name.end ?? 0,
          attributes,
        });
      } else if (child.type === "JSXElement" || child.type === "JSXFragment" || child.type === "JSXSpreadChild") {
        hiddenSlides = true;
      } else if (child.type === "JSXExpressionContainer" && child.expression.type !== "JSXEmptyExpression") {
        hiddenSlides = true;
      }
    }
  }
  if (sectionElements.length !== slides.length) hiddenSlides = true;
  regions.sort((a, b) => a.start - b.start);
  return { slides, hiddenSlides, regions, elements };
}

// ---------------------------------------------------------------------------------------------
// Decoding and encoding text in its syntactic context, keeping the raw offset of every character.

export type Decoded = { text: string; /** Raw offset of each decoded character, plus the end. */ offsets: number[] };

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

function decodeEntities(raw: string): string {
  return decodeRegion(raw, { kind: "jsx-attr", start: 0, end: raw.length }).text;
}

export function decodeRegion(source: string, region: TextRegion): Decoded {
  let text = "";
  const offsets: number[] = [];
  const push = (value: string, at: number) => {
    for (const unit of value.split("")) {
      text += unit;
      offsets.push(at);
    }
  };
  let pos = region.start;
  while (pos < region.end) {
    const char = source[pos] ?? "";
    if ((region.kind === "jsx-text" || region.kind === "jsx-attr") && char === "&") {
      const entity = /^&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/i.exec(source.slice(pos, pos + 12));
      const name = entity?.[1];
      const value = name
        ? name.startsWith("#x") || name.startsWith("#X")
          ? String.fromCodePoint(Number.parseInt(name.slice(2), 16))
          : name.startsWith("#")
            ? String.fromCodePoint(Number.parseInt(name.slice(1), 10))
            : entities[name.toLowerCase()]
        : undefined;
      if (entity && value !== undefined) {
        push(value, pos);
        pos += entity[0].length;
        continue;
      }
    }
    if ((region.kind === "string" || region.kind === "template") && char === "\\") {
      const { value, length } = decodeEscape(source, pos);
      push(value, pos);
      pos += length;
      continue;
    }
    push(char, pos);
    pos++;
  }
  offsets.push(region.end);
  return { text, offsets };
}

function decodeEscape(source: string, pos: number): { value: string; length: number } {
  const next = source[pos + 1] ?? "";
  const simple: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f", v: "\v", "0": "\0" };
  if (next in simple && !(next === "0" && /[0-9]/.test(source[pos + 2] ?? "")))
    return { value: simple[next] ?? "", length: 2 };
  if (next === "x")
    return { value: String.fromCharCode(Number.parseInt(source.slice(pos + 2, pos + 4), 16)), length: 4 };
  if (next === "u" && source[pos + 2] === "{") {
    const close = source.indexOf("}", pos);
    return { value: String.fromCodePoint(Number.parseInt(source.slice(pos + 3, close), 16)), length: close - pos + 1 };
  }
  if (next === "u")
    return { value: String.fromCharCode(Number.parseInt(source.slice(pos + 2, pos + 6), 16)), length: 6 };
  if (next === "\r" && source[pos + 2] === "\n") return { value: "", length: 3 };
  if (next === "\n" || next === "\r" || next === "\u2028" || next === "\u2029") return { value: "", length: 2 };
  return { value: next, length: 2 };
}

export function encodeJsString(value: string, quote: string): string {
  const json = JSON.stringify(value).slice(1, -1);
  if (quote === '"') return json;
  return json.replace(/\\.|'/g, (match) => (match === '\\"' ? '"' : match === "'" ? "\\'" : match));
}

export function encodeTemplate(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/`/g, "\\`").replace(/\$\{/g, "\\${");
}

export function encodeFor(region: TextRegion, value: string): string {
  switch (region.kind) {
    case "string":
      return encodeJsString(value, region.quote ?? '"');
    case "template":
      return encodeTemplate(value);
    case "jsx-attr":
      return value;
    case "jsx-text":
      return /^[^{}<>&\n\r]*$/.test(value) ? value : `{${JSON.stringify(value)}}`;
  }
}
