import { parse } from "@babel/parser";
import type * as t from "@babel/types";

// Reads a generated deck module back with @babel/parser: each slide's label, notes and the components in
// it with their literal props, so tests assert what a deck shows without matching its source text.

type ReadElement = { name: string; props: Record<string, unknown>; text: string };
export type ReadSlide = { label: string; notes: string; props: Record<string, unknown>; elements: ReadElement[] };

function literal(node: t.Node | null | undefined): unknown {
  if (!node) return true;
  switch (node.type) {
    case "StringLiteral":
      return node.value;
    case "NumericLiteral":
      return node.value;
    case "BooleanLiteral":
      return node.value;
    case "TemplateLiteral":
      return node.quasis.map((quasi) => quasi.value.cooked).join("");
    case "ArrayExpression":
      return node.elements.map((element) => literal(element as t.Node));
    case "ObjectExpression":
      return Object.fromEntries(
        node.properties.map((property) => {
          if (property.type !== "ObjectProperty") throw new Error("unexpected object member");
          const key = property.key.type === "Identifier" ? property.key.name : String(literal(property.key));
          return [key, literal(property.value)];
        }),
      );
    case "JSXExpressionContainer":
      return literal(node.expression as t.Node);
    // JSX as a value (a table cell with markup): its text.
    case "JSXElement":
    case "JSXFragment":
      return textOf(node);
    default:
      throw new Error(`not a literal: ${node.type}`);
  }
}

function textOf(node: t.JSXElement | t.JSXFragment): string {
  return node.children
    .map((child) => {
      if (child.type === "JSXText") return child.value;
      if (child.type === "JSXElement" || child.type === "JSXFragment") return textOf(child);
      if (child.type === "JSXExpressionContainer" && child.expression.type !== "JSXEmptyExpression") {
        return String(literal(child.expression));
      }
      return "";
    })
    .join("")
    .replace(/\s+/g, " ")
    .trim();
}

function propsOf(node: t.JSXElement): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const attribute of node.openingElement.attributes) {
    if (attribute.type === "JSXAttribute" && attribute.name.type === "JSXIdentifier") {
      props[attribute.name.name] = literal(attribute.value);
    }
  }
  return props;
}

function nameOf(node: t.JSXElement): string {
  const name = node.openingElement.name;
  return name.type === "JSXIdentifier" ? name.name : "";
}

export function readDeck(source: string): ReadSlide[] {
  const file = parse(source, { sourceType: "module", plugins: ["typescript", "jsx"] });
  const slides: ReadSlide[] = [];
  const visit = (node: unknown, slide: ReadSlide | null): void => {
    if (Array.isArray(node)) return node.forEach((child) => visit(child, slide));
    if (!node || typeof node !== "object" || !("type" in node)) return;
    let current = slide;
    if ((node as t.Node).type === "JSXElement") {
      const element = node as t.JSXElement;
      const name = nameOf(element);
      if (name === "Slide" || name === "Beat") {
        const props = propsOf(element);
        current = { label: String(props.label ?? ""), notes: String(props.notes ?? ""), props, elements: [] };
        slides.push(current);
      } else if (current) current.elements.push({ name, props: propsOf(element), text: textOf(element) });
    }
    for (const [key, value] of Object.entries(node)) {
      if (key !== "loc" && value && typeof value === "object") visit(value, current);
    }
  };
  visit(file.program, null);
  return slides;
}
