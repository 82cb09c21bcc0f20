// Builders for the components the offline generator uses, and the density rules of the authoring brief
// (lib/source/instructions.ts): at most about 40 words of body per slide, at most five bullets of about ten
// words; what does not fit goes to the notes.

import type { Block, Item, TableRuns } from "./blocks";
import { hasMarkup, type Inline, runsText, tidyRuns } from "./markdown";
import { type ChildNode, el, type ElementNode, Jsx } from "./print";
import { asSentence, countWords, shorten, squash, stripQuoteMarks } from "./text";

export const MAX_BULLETS = 5;
export const BULLET_WORDS = 12;
export const BODY_WORDS = 40;

export function heading(
  content: string | Inline[],
  options: { kicker?: string; level?: 2 | 3; align?: "center" } = {},
): ElementNode {
  const node = el(
    "Heading",
    [
      ["level", options.level],
      ["kicker", options.kicker],
      ["align", options.align],
    ],
    ...richChildren(content),
  );
  node.inline = typeof content !== "string" && hasMarkup(content);
  return node;
}

/** Text as children: plain (squashed) when it carries no markup, else its runs as inline JSX. */
function richChildren(content: string | Inline[]): ChildNode[] {
  if (typeof content === "string") return [squash(content)];
  if (!hasMarkup(content)) return [squash(runsText(content))];
  return tidyRuns(content).map(inlineNode);
}

export function title(
  text: string,
  options: { kicker?: string; subtitle?: string; align?: "center" } = {},
): ElementNode {
  return el(
    "Title",
    [
      ["kicker", options.kicker],
      ["subtitle", options.subtitle],
      ["align", options.align ?? "center"],
    ],
    squash(text),
  );
}

export function text(content: string | Inline[], options: { size?: "sm" | "lg"; tone?: "muted" } = {}): ElementNode {
  const children: ChildNode[] = typeof content === "string" ? [squash(content)] : content.map(inlineNode);
  const node = el(
    "Text",
    [
      ["size", options.size],
      ["tone", options.tone],
    ],
    ...children,
  );
  node.inline = typeof content !== "string";
  return node;
}

/** A run as JSX: <strong>, <em>, <code> and <s> as they are, a link as <Link>, math as an inline <Formula>. */
function inlineNode(run: Inline): ChildNode {
  if (typeof run === "string") return run;
  if (run.tag === "math") return { tag: "Formula", props: [["tex", run.tex]], children: [], inline: true };
  const children = run.children.map(inlineNode);
  if (run.tag === "a") return { tag: "Link", props: [["href", run.href]], children, inline: true };
  return { tag: run.tag, props: [], children, inline: true };
}

export function bullets(
  items: Array<string | Inline[]>,
  options: { numbered?: boolean; shorten?: boolean } = {},
): ElementNode {
  const marker: [string, string | undefined] = ["marker", options.numbered ? "number" : undefined];
  // Points with markup are <Text> children (their bold, code and links kept); plain points are `items`.
  if (items.some((item) => typeof item !== "string" && hasMarkup(item))) {
    const points = items.map((item) => (typeof item === "string" ? [item] : item));
    return el("Bullets", [marker], ...points.map((runs) => text(withoutFinalStop(tidyRuns(runs)))));
  }
  const shown = items.map((item) => {
    const clean = squash(typeof item === "string" ? item : runsText(item)).replace(/(?<![.])\.$/, "");
    return options.shorten ? shorten(clean, BULLET_WORDS, { ellipsis: true }) : clean;
  });
  return el("Bullets", [marker, ["items", shown]]);
}

/** A point's runs without the full stop that ends a sentence (as plain points lose it). */
function withoutFinalStop(runs: Inline[]): Inline[] {
  const last = runs.at(-1);
  if (typeof last !== "string" || !/(?<![.])\.$/.test(last)) return runs;
  return [...runs.slice(0, -1), last.replace(/\.$/, "")];
}

/** A list item's runs, its nested items after a colon (as `itemText` says them). */
function itemRuns(item: Item): Inline[] {
  return item.children.length > 0 ? [...item.runs, `: ${item.children.join("; ")}`] : item.runs;
}

export function quote(block: { text: string; by: string | null; role: string | null }): ElementNode {
  const words = countWords(block.text);
  return el(
    "Quote",
    [
      ["by", block.by ?? undefined],
      ["role", block.role ?? undefined],
      ["size", words > 25 ? "md" : undefined],
    ],
    stripQuoteMarks(squash(block.text)),
  );
}

function code(block: { language: string | null; code: string; highlight: number[] }): ElementNode {
  const lines = block.code.replace(/\n+$/, "").split("\n");
  return el("Code", [
    ["language", block.language ?? undefined],
    ["highlight", block.highlight.length > 0 ? block.highlight : undefined],
    ["size", lines.length > 15 ? "sm" : undefined],
    ["code", lines.join("\n") + (lines.length > 1 ? "\n" : "")],
  ]);
}

/** A formula set on its own line (`$$…$$`): a display <Formula>, its TeX as the alt text's source. */
export function formula(tex: string): ElementNode {
  return el("Formula", [
    ["display", true],
    ["tex", tex.trim()],
  ]);
}

/** A ```mermaid block, drawn by <Diagram> rather than shown as its source. */
function diagram(source: string): ElementNode {
  const lines = source.replace(/\n+$/, "").split("\n");
  return el("Diagram", [["code", lines.join("\n") + (lines.length > 1 ? "\n" : "")]]);
}

/** Code, or a diagram when its language is Mermaid. */
export function codeOrDiagram(block: { language: string | null; code: string; highlight: number[] }): ElementNode {
  return block.language?.toLowerCase() === "mermaid" ? diagram(block.code) : code(block);
}

export function table(block: { columns: string[]; rows: string[][]; runs?: TableRuns }): ElementNode {
  // A cell with markup is JSX (<strong>…</strong>, <code>…</code>); the others stay strings.
  const cell = (plain: string, runs: Inline[] | undefined) =>
    runs && hasMarkup(runs) ? new Jsx(tidyRuns(runs).map(inlineNode)) : plain;
  return el("Table", [
    ["columns", block.columns.map((column, index) => cell(column, block.runs?.columns[index]))],
    [
      "rows",
      block.rows.map((row, rowIndex) => row.map((value, index) => cell(value, block.runs?.rows[rowIndex]?.[index]))),
    ],
  ]);
}

export function image(
  src: string,
  alt: string,
  options: { fit?: "contain" | "cover"; width?: number; height?: number } = {},
): ElementNode {
  return el("Image", [
    ["src", src],
    ["alt", alt || "Image"],
    ["fit", options.fit],
    ["width", options.width],
    ["height", options.height],
  ]);
}

export function stat(value: string, label: string, detail?: string | null): ElementNode {
  return el("Stat", [
    ["value", value],
    ["label", label],
    ["detail", detail ?? undefined],
  ]);
}

export function box(...children: ElementNode[]): ElementNode {
  return el("Box", [["padding", "lg"]], ...children);
}

export function stack(...children: ElementNode[]): ElementNode {
  return children.length === 1 && children[0] ? children[0] : el("Stack", [["gap", "lg"]], ...children);
}

export function columns(children: ElementNode[], ratio?: string, align?: "center" | "start"): ElementNode {
  return el(
    "Columns",
    [
      ["ratio", ratio],
      ["gap", "xl"],
      ["align", align],
    ],
    ...children,
  );
}

export function grid(children: ElementNode[]): ElementNode {
  const count = Math.min(4, Math.max(2, children.length === 4 ? 4 : children.length > 4 ? 3 : children.length));
  return el(
    "Grid",
    [
      ["columns", count],
      ["gap", "lg"],
    ],
    ...children,
  );
}

/** Turns the blocks of a column or slide body into nodes, in source order (decks keep what they say). */
export function blockNodes(blocks: Block[], options: { headingLevel?: 2 | 3 } = {}): ElementNode[] {
  const nodes: ElementNode[] = [];
  for (const block of blocks) {
    switch (block.kind) {
      case "heading":
        nodes.push(heading(block.runs, { level: options.headingLevel ?? 2 }));
        break;
      case "paragraph":
        nodes.push(text(block.runs));
        break;
      case "list":
        nodes.push(bullets(block.items.map(itemRuns), { numbered: block.ordered }));
        break;
      case "code":
        nodes.push(codeOrDiagram(block));
        break;
      case "math":
        nodes.push(formula(block.tex));
        break;
      case "table":
        nodes.push(table(block));
        break;
      case "image":
        nodes.push(image(block.src, block.alt, { fit: "contain", width: block.width, height: block.height }));
        break;
      case "quote":
        nodes.push(quote(block));
        break;
      case "callout":
        nodes.push(box(...blockNodes(block.blocks, { headingLevel: 3 })));
        break;
      default:
        break;
    }
  }
  return nodes;
}

/** A list item with its nested items, as one line. */
export function itemText(item: { text: string; children: string[] }): string {
  return item.children.length > 0 ? `${item.text}: ${item.children.join("; ")}` : item.text;
}

/**
 * Speaker notes from blocks: full sentences, lists as sentences, quotes with who said them, tables row by
 * row, code and formulas described (what is shown, not the code itself), no markup.
 */
export function notesOf(blocks: Block[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    if (block.kind === "paragraph") parts.push(asSentence(block.text));
    else if (block.kind === "list") parts.push(...block.items.map((item) => asSentence(itemText(item))));
    else if (block.kind === "quote")
      parts.push(
        `"${stripQuoteMarks(block.text)}"${block.by ? ` (${[block.by, block.role].filter(Boolean).join(", ")})` : ""}`,
      );
    else if (block.kind === "table") parts.push(describeTable(block));
    else if (block.kind === "code")
      parts.push(block.language?.toLowerCase() === "mermaid" ? describeDiagram(block.code) : describeCode(block));
    else if (block.kind === "math") parts.push(`The formula, in LaTeX: ${shorten(block.tex, 20, { ellipsis: true })}.`);
    else if (block.kind === "callout") parts.push(notesOf(block.blocks));
  }
  return parts.filter(Boolean).join(" ");
}

/** A table told row by row: "Europe: Q2 $3.6M, Q3 $4.4M." */
export function describeTable(block: { columns: string[]; rows: string[][] }): string {
  return block.rows
    .map((row) => {
      const cells = block.columns
        .slice(1)
        .map((column, index) => squash(`${column} ${row[index + 1] ?? ""}`))
        .filter(Boolean)
        .join(", ");
      return asSentence([row[0], cells].filter(Boolean).join(": "));
    })
    .filter(Boolean)
    .join(" ");
}

/** "The flowchart on the slide: Change, Cached?, Reuse output." */
function describeDiagram(source: string): string {
  const kind = /^\s*(\w+)/.exec(source)?.[1] ?? "diagram";
  const name = /^(?:flowchart|graph)$/i.test(kind)
    ? "flowchart"
    : /^sequence/i.test(kind)
      ? "sequence diagram"
      : "diagram";
  const labels = [...source.matchAll(/\[([^\]]{1,60})\]|\{([^}]{1,60})\}|\(([^)]{1,60})\)/g)]
    .map((match) => squash(match[1] ?? match[2] ?? match[3] ?? ""))
    .filter(Boolean);
  const shown = [...new Set(labels)].slice(0, 8);
  return shown.length > 0 ? `The ${name} on the slide: ${shown.join(", ")}.` : `The ${name} on the slide.`;
}

/** "The ts code on the slide, 12 lines, lines 2–3 and 7 highlighted." */
function describeCode(block: { language: string | null; code: string; highlight: number[] }): string {
  const count = block.code.replace(/\n+$/, "").split("\n").length;
  const language = block.language ? `${block.language} ` : "";
  const marked = block.highlight.length > 0 ? `, ${lineNumbers(block.highlight)} highlighted` : "";
  return `The ${language}code on the slide, ${count === 1 ? "1 line" : `${count} lines`}${marked}.`;
}

/** [2, 3, 7] → "lines 2–3 and 7". */
function lineNumbers(lines: number[]): string {
  const runs: Array<[number, number]> = [];
  for (const line of lines) {
    const last = runs.at(-1);
    if (last && line === last[1] + 1) last[1] = line;
    else runs.push([line, line]);
  }
  const named = runs.map(([from, to]) => (from === to ? `${from}` : `${from}–${to}`));
  const list = named.length > 1 ? `${named.slice(0, -1).join(", ")} and ${named.at(-1)}` : (named[0] ?? "");
  return `${lines.length === 1 ? "line" : "lines"} ${list}`;
}

export function joinNotes(parts: Array<string | null | undefined>): string {
  return parts
    .map((part) => (part ? squash(part) : ""))
    .filter((part) => part.length > 0)
    .join("\n\n");
}
