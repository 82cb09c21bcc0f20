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

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkFrontmatter, ["yaml"])
  .use(remarkDirective)
  .use(remarkMath, { singleDollarTextMath: false });

export function parseMarkdown(text: string): Root {
  return processor.parse(text);
}

/** Inline runs with emphasis kept, for body text that shows <strong> and <em>. */
export type Inline = string | { tag: "strong" | "em"; children: Inline[] };

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

/** Inline runs of phrasing content, emphasis kept as <strong>/<em>, everything else as its text. */
export function inlineRuns(nodes: PhrasingContent[], source: string): Inline[] {
  const runs: Inline[] = [];
  const push = (run: Inline) => {
    const last = runs.at(-1);
    if (typeof run === "string" && typeof last === "string") runs[runs.length - 1] = last + run;
    else if (run !== "") runs.push(run);
  };
  for (const node of nodes) {
    if (node.type === "strong" || node.type === "emphasis") {
      const children = inlineRuns(node.children, source);
      if (children.length > 0) push({ tag: node.type === "strong" ? "strong" : "em", children });
    } else push(plainText(node, source));
  }
  return runs;
}

export function runsText(runs: Inline[]): string {
  return runs.map((run) => (typeof run === "string" ? run : runsText(run.children))).join("");
}

/** Runs with white space collapsed and the ends trimmed, as one line of slide text. */
export function tidyRuns(runs: Inline[]): Inline[] {
  const flat = runs.map((run) =>
    typeof run === "string" ? run.replace(/\s+/g, " ") : { ...run, children: tidyRuns(run.children) },
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
    } else {
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
