import { parseExpression } from "@babel/parser";

// The value of a JSX attribute's expression when it is written as a literal (strings, numbers, booleans,
// null, arrays and plain objects of them), for the inspector's lists and grids; undefined for anything else
// (a variable, a call, a spread), which stays for the code editor.

type Node = { type: string } & Record<string, unknown>;

export function readLiteral(expression: string): unknown {
  let node: Node;
  try {
    node = parseExpression(expression, { plugins: ["typescript", "jsx"] }) as unknown as Node;
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

function valueOf(node: Node): unknown {
  const value = read(node);
  return value === NOT_LITERAL ? undefined : value;
}

function read(node: Node): unknown {
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
      const argument = read(node.argument as Node);
      return node.operator === "-" && typeof argument === "number" ? -argument : NOT_LITERAL;
    }
    case "TSAsExpression":
    case "TSSatisfiesExpression":
    case "ParenthesizedExpression":
      return read(node.expression as Node);
    case "ArrayExpression": {
      const items: unknown[] = [];
      for (const element of node.elements as (Node | null)[]) {
        if (!element || element.type === "SpreadElement") return NOT_LITERAL;
        const value = read(element);
        if (value === NOT_LITERAL) return NOT_LITERAL;
        items.push(value);
      }
      return items;
    }
    case "ObjectExpression": {
      const object: Record<string, unknown> = {};
      for (const property of node.properties as Node[]) {
        if (property.type !== "ObjectProperty" || property.computed) return NOT_LITERAL;
        const key = property.key as Node;
        const name =
          key.type === "Identifier"
            ? (key.name as string)
            : key.type === "StringLiteral"
              ? (key.value as string)
              : null;
        if (name === null) return NOT_LITERAL;
        const value = read(property.value as Node);
        if (value === NOT_LITERAL) return NOT_LITERAL;
        object[name] = value;
      }
      return object;
    }
    default:
      return NOT_LITERAL;
  }
}
