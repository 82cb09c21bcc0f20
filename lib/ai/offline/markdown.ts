// Markdown through unified/remark: CommonMark with GFM (tables, task lists, strikethrough, autolinks),
// YAML front matter, directives (`:::note`) and math. The offline generator reads the syntax tree, never
// the raw text, so markup cannot end up on a slide.

import type { Nodes, PhrasingContent, Root } from "mdast";
import type {} from "mdast-util-directive";
import type {} from "mdast-util-math";
import remarkDirective from "remark-directive";
import remarkFrontmatter from "remark-frontmatter";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import remarkParse from "remark-parse";
import { unified } from "unified";

const withoutMath = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ["yaml"]).use(remarkDirective);
const processor = withoutMath().use(remarkMath);

export function parseMarkdown(text: string): Root {
  const root = processor.parse(text);
  keepPricesAsText(root, text);
  return root;
}

// `$…$` is math by Pandoc's rule, as Marp reads it: the opening dollar is followed by a non-space, the
// closing one preceded by a non-space and not followed by a digit. What remark took for math against that
// rule ("$4M, up from $2M": two prices) is read again as the text it is.
function keepPricesAsText(node: Nodes, source: string): void {
  if (!("children" in node)) return;
  const children = node.children as Nodes[];
  for (let index = 0; index < children.length; index++) {
    const child = children[index]!;
    const start = child.position?.start.offset;
    const end = child.position?.end.offset;
    if (child.type !== "inlineMath" || start === undefined || end === undefined) {
      keepPricesAsText(child, source);
      continue;
    }
    const raw = source.slice(start, end);
    const math = raw.startsWith("$$") || (/^\$\S(?:[\s\S]*\S)?\$$/.test(raw) && !/^\d/.test(source.slice(end)));
    if (math) continue;
    const paragraph = withoutMath.parse(raw).children[0];
    const inline = paragraph?.type === "paragraph" ? paragraph.children : [{ type: "text" as const, value: raw }];
    children.splice(index, 1, ...(inline as Nodes[]));
    index += inline.length - 1;
  }
}

/**
 * Inline runs with the author's markup kept: emphasis, inline code, strikethrough, links (http, https and
 * mailto only) and inline math, for text that shows them (see nodes.ts: <strong>, <em>, <code>, <s>,
 * <Link>, <Formula>).
 */
export type Inline =
  | string
  | { tag: "strong" | "em" | "code" | "s"; children: Inline[] }
  | { tag: "a"; href: string; children: Inline[] }
  | { tag: "math"; tex: string };

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Raw HTML reduced to its text: comments and tags dropped, line breaks kept, entities decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?(?:-->|$)/g, " ")
    .replace(/<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, " ")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/?(?:p|div|li|h[1-6]|tr|section|blockquote)\b[^>]*>/gi, "\n")
    .replace(/<\/?[A-Za-z][^>]*>/g, " ")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith("#x") || name.startsWith("#X"))
        return safeCodePoint(Number.parseInt(name.slice(2), 16), whole);
      if (name.startsWith("#")) return safeCodePoint(Number.parseInt(name.slice(1), 10), whole);
      return entities[name.toLowerCase()] ?? whole;
    });
}

function safeCodePoint(code: number, fallback: string): string {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
    ? String.fromCodePoint(code)
    : fallback;
}

/**
 * The text of a node as a reader sees it: link text without the URL, image alt, HTML without tags. Text
 * directives (`:name`) are remark-directive's reading of colons in prose ("10:30", "Note:this"), so they are
 * given back as written in `source`.
 */
export function plainText(node: Nodes | Nodes[], source: string): string {
  if (Array.isArray(node)) return node.map((child) => plainText(child, source)).join("");
  switch (node.type) {
    case "text":
    case "inlineCode":
    case "inlineMath":
      return node.value;
    case "break":
      return "\n";
    case "html":
      return htmlToText(node.value);
    case "image":
    case "imageReference":
      return imageAlt(node, source);
    case "footnoteReference":
    case "yaml":
    case "definition":
    case "footnoteDefinition":
      return "";
    case "textDirective": {
      const start = node.position?.start.offset;
      const end = node.position?.end.offset;
      return start !== undefined && end !== undefined ? source.slice(start, end) : `:${node.name}`;
    }
    case "code":
    case "math":
      return node.value;
    default:
      return "children" in node ? plainText(node.children as Nodes[], source) : "";
  }
}

/** An image's alt text as written (remark drops what it read as directives, e.g. Marp's "w:900"). */
export function imageAlt(node: Nodes, source: string): string {
  const alt = "alt" in node && typeof node.alt === "string" ? node.alt : "";
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) return alt;
  const raw = /^!\[((?:\\.|[^\]\\])*)\]/.exec(source.slice(start, end))?.[1];
  return raw === undefined ? alt : raw.replace(/\\(.)/g, "$1");
}

/** Inline runs of phrasing content, the author's markup kept (see `Inline`), everything else as its text. */
export function inlineRuns(nodes: PhrasingContent[], source: string): Inline[] {
  const runs: Inline[] = [];
  const push = (run: Inline) => {
    const last = runs.at(-1);
    if (typeof run === "string" && typeof last === "string") runs[runs.length - 1] = last + run;
    else if (run !== "") runs.push(run);
  };
  const wrap = (tag: "strong" | "em" | "s", children: PhrasingContent[]) => {
    const inner = inlineRuns(children, source);
    if (inner.length > 0) push({ tag, children: inner });
  };
  for (const node of nodes) {
    if (node.type === "strong") wrap("strong", node.children);
    else if (node.type === "emphasis") wrap("em", node.children);
    else if (node.type === "delete") wrap("s", node.children);
    else if (node.type === "inlineCode") push(node.value ? { tag: "code", children: [node.value] } : "");
    else if (node.type === "inlineMath") push(node.value.trim() ? { tag: "math", tex: node.value.trim() } : "");
    else if (node.type === "link" && linkable(node.url)) {
      const inner = inlineRuns(node.children, source);
      push({ tag: "a", href: node.url.trim(), children: inner.length > 0 ? inner : [node.url.trim()] });
    } else push(plainText(node, source));
  }
  return runs;
}

/** Links a slide may carry: absolute http(s) and mailto addresses, nothing that runs or stays in the frame. */
function linkable(url: string): boolean {
  return /^(?:https?:\/\/[^\s<>"]+|mailto:[^\s<>"]+)$/i.test(url.trim()) && url.trim().length <= 2048;
}

export function runsText(runs: Inline[]): string {
  return runs
    .map((run) => (typeof run === "string" ? run : run.tag === "math" ? run.tex : runsText(run.children)))
    .join("");
}

/** Whether runs hold any markup (else they print as plain text). */
export function hasMarkup(runs: Inline[]): boolean {
  return runs.some((run) => typeof run !== "string");
}

/** Runs with white space collapsed and the ends trimmed, as one line of slide text. */
export function tidyRuns(runs: Inline[]): Inline[] {
  const flat = runs.map((run): Inline =>
    typeof run === "string"
      ? run.replace(/\s+/g, " ")
      : run.tag === "math"
        ? run
        : { ...run, children: tidyRuns(run.children) },
  );
  const trimEdge = (list: Inline[], edge: "start" | "end"): Inline[] => {
    const index = edge === "start" ? 0 : list.length - 1;
    const run = list[index];
    if (run === undefined) return list;
    const copy = [...list];
    if (typeof run === "string") {
      const trimmed = edge === "start" ? run.trimStart() : run.trimEnd();
      if (trimmed === "") {
        copy.splice(index, 1);
        return trimEdge(copy, edge);
      }
      copy[index] = trimmed;
    } else if (run.tag !== "math") {
      const children = trimEdge(run.children, edge);
      if (children.length === 0) {
        copy.splice(index, 1);
        return trimEdge(copy, edge);
      }
      copy[index] = { ...run, children };
    }
    return copy;
  };
  return trimEdge(trimEdge(flat, "start"), "end");
}
