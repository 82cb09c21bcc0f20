// The Markdown syntax tree as the offline generator's blocks: headings, paragraphs (with their emphasis and
// their lines), lists, code with its language and highlighted lines, tables with their cells, images with
// their alt text, quotes with their attribution, math, comments (speaker notes) and callouts. Raw HTML is
// reduced to its text and only ever becomes a paragraph marked `html`: body text and notes, never a
// heading, a title line or a metric.

import type { BlockContent, DefinitionContent, List, ListItem, Nodes, Paragraph, Root, RootContent } from "mdast";
import { htmlToText, imageAlt, type Inline, inlineRuns, plainText, runsText, tidyRuns } from "./markdown";
import { capitalize, squash, stripQuoteMarks } from "./text";

export type Block =
  | { kind: "heading"; depth: number; text: string; runs: Inline[]; line: number }
  | { kind: "paragraph"; text: string; runs: Inline[]; lines: string[]; line: number; html?: true }
  | { kind: "list"; ordered: boolean; items: Item[]; line: number }
  | { kind: "code"; language: string | null; code: string; highlight: number[]; line: number }
  | { kind: "table"; columns: string[]; rows: string[][]; runs: TableRuns; line: number }
  | { kind: "image"; src: string; alt: string; line: number; width?: number; height?: number }
  | { kind: "quote"; text: string; by: string | null; role: string | null; line: number }
  | { kind: "math"; tex: string; line: number }
  | { kind: "comment"; text: string; line: number }
  | { kind: "callout"; name: string; blocks: Block[]; line: number }
  | { kind: "yaml"; value: string; line: number };

/** An item's text, its nested items' texts, and its own text with the author's markup. */
export type Item = { text: string; children: string[]; runs: Inline[] };

/** A table's cells with the author's markup: the header's, then each body row's. */
export type TableRuns = { columns: Inline[][]; rows: Inline[][][] };

/** Blocks of a parsed document; `lineOffset` is added to every line so slices of a file name its lines. */
export function toBlocks(root: Root, source: string, lineOffset = 0): Block[] {
  const blocks: Block[] = [];
  const context: Context = { source, offset: lineOffset };
  for (const node of root.children) readNode(node, blocks, context);
  return blocks;
}

type Context = { source: string; offset: number };

function lineOf(node: Nodes, context: Context): number {
  return (node.position?.start.line ?? 1) + context.offset;
}

function readNode(node: RootContent | BlockContent | DefinitionContent, out: Block[], context: Context): void {
  const line = lineOf(node, context);
  const { source } = context;
  switch (node.type) {
    case "heading": {
      const text = squash(plainText(node.children, source));
      if (text)
        out.push({ kind: "heading", depth: node.depth, text, runs: tidyRuns(inlineRuns(node.children, source)), line });
      return;
    }
    case "paragraph":
      readParagraph(node, out, line, source);
      return;
    case "list":
      out.push({ kind: "list", ordered: node.ordered === true, items: readItems(node, source), line });
      return;
    case "code": {
      const { language, highlight } = readFenceInfo(node.lang ?? null, node.meta ?? null);
      if (node.value.trim()) out.push({ kind: "code", language, code: node.value, highlight, line });
      return;
    }
    case "math":
      if (node.value.trim()) out.push({ kind: "math", tex: node.value, line });
      return;
    case "table": {
      const [head, ...body] = node.children.map((row) =>
        row.children.map((cell) => squash(plainText(cell.children, source))),
      );
      const [headRuns = [], ...bodyRuns] = node.children.map((row) =>
        row.children.map((cell) => tidyRuns(inlineRuns(cell.children, source))),
      );
      if (!head) return;
      const width = head.length;
      const pad = <T>(row: T[], empty: T) => Array.from({ length: width }, (_, index) => row[index] ?? empty);
      const rows = body.map((row) => pad(row, ""));
      const runs = { columns: headRuns, rows: bodyRuns.map((row) => pad(row, [])) };
      out.push({ kind: "table", columns: head, rows, runs, line });
      return;
    }
    case "blockquote":
      readQuote(node.children, out, line, context);
      return;
    case "html":
      readHtml(node.value, out, line);
      return;
    case "containerDirective": {
      const inner: Block[] = [];
      for (const child of node.children) {
        // The directive's [label] is a paragraph marked as such; it reads as the callout's heading.
        if (child.type === "paragraph" && child.data?.directiveLabel) {
          const text = squash(plainText(child.children, source));
          const runs = tidyRuns(inlineRuns(child.children, source));
          if (text) inner.push({ kind: "heading", depth: 3, text, runs, line: lineOf(child, context) });
        } else readNode(child, inner, context);
      }
      if (inner.length > 0) out.push({ kind: "callout", name: node.name, blocks: inner, line });
      return;
    }
    case "leafDirective": {
      const text = squash(plainText(node.children, source));
      if (text) out.push({ kind: "paragraph", text, runs: [text], lines: [text], line });
      return;
    }
    case "yaml":
      out.push({ kind: "yaml", value: node.value, line });
      return;
    default:
      // Thematic breaks, definitions and footnote definitions show nothing on a slide.
      return;
  }
}

function readParagraph(node: Paragraph, out: Block[], line: number, source: string): void {
  // Images stand as blocks of their own; the text around them stays a paragraph.
  const rest = node.children.filter((child) => child.type !== "image");
  for (const child of node.children) {
    if (child.type === "image" && child.url.trim()) {
      out.push({ kind: "image", src: child.url.trim(), alt: squash(imageAlt(child, source)), line });
    }
  }
  // Comments inside a paragraph are notes too.
  for (const child of rest) {
    if (child.type === "html")
      for (const comment of child.value.matchAll(/<!--([\s\S]*?)(?:-->|$)/g)) pushComment(comment[1] ?? "", out, line);
  }
  const raw = runsText(inlineRuns(rest, source));
  const lines = raw
    .split("\n")
    .map(squash)
    .filter((text) => text.length > 0);
  const text = lines.join(" ");
  if (!text) return;
  out.push({ kind: "paragraph", text, runs: tidyRuns(inlineRuns(rest, source)), lines, line });
}

function pushComment(text: string, out: Block[], line: number): void {
  const clean = text.trim();
  if (clean) out.push({ kind: "comment", text: clean, line });
}

function readHtml(html: string, out: Block[], line: number): void {
  for (const comment of html.matchAll(/<!--([\s\S]*?)(?:-->|$)/g)) pushComment(comment[1] ?? "", out, line);
  const text = htmlToText(html);
  const lines = text
    .split("\n")
    .map(squash)
    .filter((part) => part.length > 0);
  if (lines.length === 0) return;
  const joined = lines.join(" ");
  out.push({ kind: "paragraph", text: joined, runs: [joined], lines, line, html: true });
}

function readItems(list: List, source: string): Item[] {
  const items: Item[] = [];
  for (const item of list.children) {
    const text = squash(itemText(item, source));
    const children = item.children
      .filter((child): child is List => child.type === "list")
      .flatMap((child) => child.children.map((nested) => squash(itemText(nested, source))))
      .filter((child) => child.length > 0);
    const runs = text ? itemRuns(item, source) : [children[0] ?? ""];
    if (text || children.length > 0) items.push({ text: text || (children.shift() ?? ""), children, runs });
  }
  return items;
}

function itemRuns(item: ListItem, source: string): Inline[] {
  const runs: Inline[] = [];
  for (const child of item.children) {
    if (child.type === "list") continue;
    if (runs.length > 0) runs.push(" ");
    if (child.type === "paragraph") runs.push(...inlineRuns(child.children, source));
    else runs.push(plainText(child, source));
  }
  return tidyRuns(runs);
}

function itemText(item: ListItem, source: string): string {
  return item.children
    .filter((child) => child.type !== "list")
    .map((child) => plainText(child, source))
    .join(" ");
}

/** "ts {2,3}", "sql{3-5}", "js {1|3-4}": the language and the highlighted lines (1-based) at the end. */
function readFenceInfo(lang: string | null, meta: string | null): { language: string | null; highlight: number[] } {
  const info = `${lang ?? ""} ${meta ?? ""}`;
  const language = /^\s*([\w#+.-]+)/.exec(lang ?? "")?.[1]?.replace(/\{.*$/, "") || null;
  const braces = /\{([^}]*)\}/.exec(info)?.[1] ?? "";
  const highlight = new Set<number>();
  // Click steps ("{1|2-3|all}") end on their last group: a slide drawn once shows that final state, so no
  // line stays dimmed that the talk ends up showing in full.
  const last = braces.split("|").at(-1)?.trim() ?? "";
  const group = last === "all" || last === "*" ? "" : last;
  for (const part of group.split(",")) {
    const range = /^\s*(\d{1,4})\s*(?:-\s*(\d{1,4}))?\s*$/.exec(part);
    if (!range) continue;
    const from = Number(range[1]);
    const to = Math.min(Number(range[2] ?? range[1]), from + 500);
    for (let value = from; value <= to; value++) if (value > 0) highlight.add(value);
  }
  return { language, highlight: [...highlight].sort((a, b) => a - b) };
}

const attributionLine = /^(?:[—–~]|--|-)\s*(\S.*)$/;

function readQuote(
  children: Array<BlockContent | DefinitionContent>,
  out: Block[],
  line: number,
  context: Context,
): void {
  const inner: Block[] = [];
  for (const child of children) readNode(child, inner, context);
  const paragraphs = inner.filter((block) => block.kind === "paragraph");
  // A quote holding lists, code or tables is a callout, not a pull quote.
  if (paragraphs.length !== inner.filter((block) => block.kind !== "comment").length) {
    out.push(...inner);
    return;
  }
  const lines = paragraphs.flatMap((block) => block.lines);
  let who: string | null = null;
  const last = lines.at(-1);
  const dashed = last !== undefined && lines.length > 1 ? attributionLine.exec(last) : null;
  if (dashed) {
    who = dashed[1] ?? null;
    lines.pop();
  }
  let text = lines.join(" ");
  if (!who) {
    const trailing = /^([\s\S]*?["”.!?])\s*(?:[—–~]|--)\s*([^—–"”]{2,140})$/.exec(text);
    if (trailing) {
      text = trailing[1] ?? text;
      who = trailing[2] ?? null;
    }
  }
  const { by, role } = splitAttribution(who ?? "");
  text = stripQuoteMarks(text);
  if (text) out.push({ kind: "quote", text, by, role, line });
  out.push(...inner.filter((block) => block.kind === "comment"));
}

/** "Dana Okafor, CFO at Globex" → by and role. */
export function splitAttribution(text: string): { by: string | null; role: string | null } {
  const clean = squash(text).replace(/[.;]+$/, "");
  if (!clean) return { by: null, role: null };
  const comma = clean.indexOf(",");
  if (comma < 0) return { by: capitalize(clean), role: null };
  const role = clean.slice(comma + 1).trim();
  return { by: capitalize(clean.slice(0, comma).trim()), role: role || null };
}
