import valueParser from "postcss-value-parser";

// CSS lengths to px for the few places the extractor needs numbers (font sizes, corner radii), as a
// desktop browser would compute them: a 1280×800 viewport, clamp()/min()/max()/calc() evaluated.

type ValueNode = valueParser.Node;

export type LengthContext = {
  /** Root font size (what 1rem is). */
  remPx: number;
  /** The element's inherited font size (what 1em and % of a font size are). */
  emPx: number;
  /** What 100% is; null when a percentage cannot be resolved to px. */
  percentPx?: number | null;
};

const VIEWPORT = { width: 1280, height: 800 };

const fontSizeKeywords: Record<string, number> = {
  "xx-small": 9,
  "x-small": 10,
  small: 13,
  medium: 16,
  large: 18,
  "x-large": 24,
  "xx-large": 32,
  "xxx-large": 48,
};

export function resolveLengthPx(value: string, context: LengthContext): number | null {
  const nodes = valueParser(value.trim()).nodes.filter((node) => node.type !== "space" && node.type !== "comment");
  const first = nodes[0];
  if (!first) return null;
  return evaluateNode(first, context);
}

export function resolveFontSizePx(value: string, context: LengthContext): number | null {
  const keyword = fontSizeKeywords[value.trim().toLowerCase()];
  if (keyword !== undefined) return keyword * (context.remPx / 16);
  return resolveLengthPx(value, { ...context, percentPx: context.emPx });
}

function evaluateNode(node: ValueNode, context: LengthContext): number | null {
  if (node.type === "word") return evaluateWord(node.value, context);
  if (node.type !== "function") return null;
  const name = node.value.toLowerCase();
  const args = splitArguments(node.nodes);
  if (name === "calc" || name === "") return evaluateExpression(node.nodes, context);
  const values = args.map((arg) => evaluateExpression(arg, context));
  if (values.some((item) => item === null)) return null;
  const numbers = values as number[];
  if (name === "min" && numbers.length) return Math.min(...numbers);
  if (name === "max" && numbers.length) return Math.max(...numbers);
  if (name === "clamp" && numbers.length === 3) {
    const [low, preferred, high] = numbers as [number, number, number];
    return Math.max(low, Math.min(preferred, high));
  }
  return null;
}

function evaluateWord(word: string, context: LengthContext): number | null {
  const dimension = valueParser.unit(word);
  if (!dimension) return null;
  const number = Number(dimension.number);
  if (!Number.isFinite(number)) return null;
  switch (dimension.unit.toLowerCase()) {
    case "":
    case "px":
      return number;
    case "rem":
      return number * context.remPx;
    case "em":
      return number * context.emPx;
    case "ex":
    case "ch":
      return number * context.emPx * 0.5;
    case "pt":
      return (number * 4) / 3;
    case "pc":
      return number * 16;
    case "in":
      return number * 96;
    case "cm":
      return (number * 96) / 2.54;
    case "mm":
      return (number * 96) / 25.4;
    case "vw":
    case "vi":
      return (number / 100) * VIEWPORT.width;
    case "vh":
    case "vb":
    case "svh":
    case "lvh":
    case "dvh":
      return (number / 100) * VIEWPORT.height;
    case "vmin":
      return (number / 100) * Math.min(VIEWPORT.width, VIEWPORT.height);
    case "vmax":
      return (number / 100) * Math.max(VIEWPORT.width, VIEWPORT.height);
    case "%":
      return context.percentPx == null ? null : (number / 100) * context.percentPx;
    default:
      return null;
  }
}

function splitArguments(nodes: ValueNode[]): ValueNode[][] {
  const args: ValueNode[][] = [[]];
  for (const node of nodes) {
    if (node.type === "div" && node.value === ",") args.push([]);
    else args[args.length - 1]!.push(node);
  }
  return args;
}

// calc() grammar: sums of products; "/" arrives as a div node, the other operators as words.
function evaluateExpression(nodes: ValueNode[], context: LengthContext): number | null {
  const tokens: (number | string)[] = [];
  for (const node of nodes) {
    if (node.type === "space" || node.type === "comment") continue;
    if (node.type === "div") {
      if (node.value !== "/") return null;
      tokens.push("/");
      continue;
    }
    if (node.type === "word" && ["+", "-", "*"].includes(node.value)) {
      tokens.push(node.value);
      continue;
    }
    const value = evaluateNode(node, context);
    if (value === null) return null;
    tokens.push(value);
  }
  let position = 0;
  const readProduct = (): number | null => {
    const first = tokens[position++];
    if (typeof first !== "number") return null;
    let product = first;
    while (tokens[position] === "*" || tokens[position] === "/") {
      const operator = tokens[position++];
      const right = tokens[position++];
      if (typeof right !== "number" || (operator === "/" && right === 0)) return null;
      product = operator === "*" ? product * right : product / right;
    }
    return product;
  };
  let total = readProduct();
  while (total !== null && (tokens[position] === "+" || tokens[position] === "-")) {
    const operator = tokens[position++];
    const right = readProduct();
    if (right === null) return null;
    total = operator === "+" ? total + right : total - right;
  }
  return total !== null && position === tokens.length ? total : null;
}
