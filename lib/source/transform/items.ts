// Text edits of data items from the visual editor: a chart's category labels, series names and values, and
// the titles, dates and details of Timeline and Steps items, which the player draws from a literal written
// in a prop (`data={[{ label: "Q1", value: 3 }]}`), not from text of the slide's JSX. The player names such
// a text by where it comes from: the component, which of that component's elements on the slide it is (and
// how many the slide shows), and the path into the prop's value (["data", 1, "label"]). This parses that
// prop's expression with @babel/parser, follows the path through array and object literals, and writes the
// new text (or number) at the literal's position, encoded for it, so the module changes by those characters
// only. A value that is not written as a literal there (a variable, a call, a spread, a .map) is refused.

import { parseExpression } from "@babel/parser";
import type * as t from "@babel/types";
import type { DeckFormat } from "@/lib/contract/deck";
import { AppError } from "@/lib/core/errors";
import { locateElement } from "./elements";
import { lineAt, sectionNoun } from "./slides";
import { encodeJsString, encodeTemplate, findAttribute } from "./tsx-module";

type ItemPath = readonly (string | number)[];

export type ItemQuery = {
  slide: number;
  /** The vocabulary component the text belongs to ("Chart", "Timeline", "Steps"). */
  component: string;
  /** Which of that component's elements on the slide, 0-based in document order, and how many it shows. */
  index: number;
  count: number;
  /** The prop, then array indexes and object keys down to the text. */
  path: ItemPath;
  /** The text as the player had it (the value, unformatted): checked, so a stale edit is not misplaced. */
  text: string;
};

export type ItemMatch = { kind: "string" | "template" | "number"; start: number; end: number; line: number };

type Located = ItemMatch & { node: t.Node; quote: string; value: string | number };

/** Where the text a path names is written. */
export function findItem(source: string, format: DeckFormat, query: ItemQuery): ItemMatch {
  const { kind, start, end, line } = locate(source, format, query);
  return { kind, start, end, line };
}

/** Writes `next` in place of the literal a path names; every other byte stays. */
export function replaceItemText(source: string, format: DeckFormat, edit: ItemQuery & { next: string }): string {
  const found = locate(source, format, edit);
  const next = edit.next.replace(/\s+/g, " ").trim();
  if (found.kind === "number") {
    const number = readNumber(next);
    if (number === null) {
      const hint =
        edit.component === "Chart"
          ? "Type digits (a unit such as % is shown by the chart's unit prop)."
          : "Type digits, or write it as a string in the code editor.";
      throw new AppError(
        "invalid_request",
        `"${next}" is not a number, and ${describePath(edit)} is written as one. ${hint}`,
      );
    }
    return source.slice(0, found.start) + String(number) + source.slice(found.end);
  }
  if (next === "") throw new AppError("invalid_request", "The new text is empty; delete the item in the inspector.");
  const encoded = found.kind === "template" ? encodeTemplate(next) : encodeJsString(next, found.quote);
  return source.slice(0, found.start) + encoded + source.slice(found.end);
}

/** Digits as a person types them over a value label: a unit, spaces and thousands separators are dropped. */
function readNumber(text: string): number | null {
  const cleaned = text
    .replace(/\u2212/g, "-")
    .replace(/(\d),(?=\d{3}\b)/g, "$1")
    .replace(/[^\d.+-]/g, "");
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(cleaned)) return null;
  const number = Number(cleaned);
  return Number.isFinite(number) ? number : null;
}

function describePath(query: ItemQuery): string {
  const [prop, ...rest] = query.path;
  const steps = rest.map((step) => (typeof step === "number" ? `[${step}]` : `.${step}`)).join("");
  return `${query.component}'s ${String(prop)}${steps}`;
}

function refuse(message: string): never {
  throw new AppError("invalid_request", message);
}

function locate(source: string, format: DeckFormat, query: ItemQuery): Located {
  const where = `${sectionNoun(format)} ${query.slide + 1}`;
  const [prop, ...steps] = query.path;
  if (typeof prop !== "string" || !/^[A-Za-z_$][\w$]*$/.test(prop)) {
    refuse(`The path of the text must start with a prop name; ${JSON.stringify(query.path)} does not.`);
  }
  const element = locateElement(source, format, query);
  const attribute = findAttribute(element.attributes, prop);
  if (!attribute?.value) refuse(`The ${query.component} on ${where} has no ${prop} prop written in its code.`);
  if (attribute.value.kind !== "expression") {
    refuse(`The ${query.component}'s ${prop} on ${where} is not an array or object written in the code.`);
  }
  // The expression inside the braces, parsed on its own; its positions are shifted back into the module.
  const offset = attribute.value.start + 1;
  let node: t.Node;
  try {
    node = parseExpression(source.slice(offset, attribute.value.end - 1), { plugins: ["typescript", "jsx"] });
  } catch {
    refuse(`The ${query.component}'s ${prop} on ${where} is not an expression the visual editor can read.`);
  }
  const line = lineAt(source, attribute.start);
  let walked = prop;
  for (const step of steps) {
    node = unwrap(node);
    if (typeof step === "number") {
      if (node.type !== "ArrayExpression") notLiteral(node, walked, line, "an array");
      const before = node.elements.slice(0, step + 1);
      if (before.some((item) => item?.type === "SpreadElement"))
        notLiteral(node, walked, line, "an array without spreads");
      const item = node.elements[step];
      if (!Number.isInteger(step) || step < 0 || !item) {
        refuse(`${walked} (line ${line}) has no item ${step + 1} written in the code.`);
      }
      node = item;
      walked += `[${step}]`;
    } else {
      if (node.type !== "ObjectExpression") notLiteral(node, walked, line, "an object");
      if (node.properties.some((property) => property.type !== "ObjectProperty" || property.computed)) {
        notLiteral(node, walked, line, "an object of plain fields");
      }
      const property = (node.properties as t.ObjectProperty[])
        .filter((candidate) => keyName(candidate.key) === step)
        .at(-1);
      if (!property) refuse(`${walked} (line ${line}) has no ${step} written in the code; add it in the inspector.`);
      node = property.value;
      walked += `.${step}`;
    }
  }
  node = unwrap(node);
  const located = literalAt(node, offset, source);
  if (!located) notLiteral(node, walked, line, "a string or a number");
  const expected = query.text.replace(/\s+/g, " ").trim();
  // A chart reads a value written as a string ("12.50") as the number it shows (12.5).
  const written = typeof located.value === "number" ? null : located.value.replace(/\s+/g, " ").trim();
  const same =
    written === null
      ? readNumber(expected) === located.value
      : written === expected || (readNumber(written) !== null && readNumber(written) === readNumber(expected));
  if (!same) {
    refuse(
      `${walked} (line ${line}) reads ${JSON.stringify(String(located.value))} in the code, not "${expected}": the code changed since the preview was drawn. Try again once the preview is up to date.`,
    );
  }
  return located;
}

function keyName(key: t.ObjectProperty["key"]): string | null {
  if (key.type === "Identifier") return key.name;
  if (key.type === "StringLiteral") return key.value;
  if (key.type === "NumericLiteral") return String(key.value);
  return null;
}

function unwrap(node: t.Node): t.Node {
  let current = node;
  while (
    current.type === "TSAsExpression" ||
    current.type === "TSSatisfiesExpression" ||
    current.type === "TSNonNullExpression" ||
    current.type === "ParenthesizedExpression"
  ) {
    current = current.expression;
  }
  return current;
}

function literalAt(node: t.Node, offset: number, source: string): Located | null {
  const start = offset + (node.start ?? 0);
  const end = offset + (node.end ?? 0);
  const line = lineAt(source, start);
  if (node.type === "StringLiteral") {
    return {
      kind: "string",
      start: start + 1,
      end: end - 1,
      line,
      node,
      quote: source[start] ?? '"',
      value: node.value,
    };
  }
  if (node.type === "TemplateLiteral" && node.expressions.length === 0) {
    const cooked = node.quasis[0]?.value.cooked;
    if (cooked === null || cooked === undefined) return null;
    return { kind: "template", start: start + 1, end: end - 1, line, node, quote: "`", value: cooked };
  }
  if (node.type === "NumericLiteral") return { kind: "number", start, end, line, node, quote: "", value: node.value };
  if (node.type === "UnaryExpression" && node.operator === "-" && node.argument.type === "NumericLiteral") {
    return { kind: "number", start, end, line, node, quote: "", value: -node.argument.value };
  }
  return null;
}

function notLiteral(node: t.Node, walked: string, line: number, wanted: string): never {
  const what =
    node.type === "Identifier"
      ? `the variable ${node.name}`
      : node.type === "CallExpression" || node.type === "OptionalCallExpression"
        ? "a call (a .map or a helper)"
        : node.type === "TemplateLiteral"
          ? "a template with ${…} in it"
          : node.type === "MemberExpression"
            ? "a field of a variable"
            : `code (${node.type})`;
  refuse(
    `${walked} (line ${line}) is ${what}, not ${wanted} written in place, so the visual editor cannot tell where this text is written. Edit it in the code editor.`,
  );
}
