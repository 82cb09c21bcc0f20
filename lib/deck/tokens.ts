// Validates a deck's theme tokens. tokensCss is inlined into a <style> element by the player, so it is
// parsed with postcss's real parser and held to a tiny grammar (font @imports, then one `:root` block
// of custom properties) instead of being pattern-matched: anything a parser might read differently
// from a browser is refused rather than cleaned up.

import postcss, { CssSyntaxError, type ChildNode, type Root } from "postcss";
import { ApiError } from "@/lib/api/errors";

export type ParsedTokens = {
  /** The input, trimmed; stored and served as is. */
  css: string;
  /** URLs of the `@import` rules, in order, as written. */
  imports: string[];
  /** Custom property name → value (without `!important`); a later duplicate wins, as in CSS. */
  properties: Record<string, string>;
};

export function parseTokensCss(css: string): ParsedTokens {
  const trimmed = css.trim();
  refuseHtmlBreakout(trimmed);
  const root = parseCss(trimmed);

  const imports: string[] = [];
  const properties: Record<string, string> = {};
  let sawRoot = false;

  for (const node of root.nodes) {
    if (node.type === "comment") continue;

    if (node.type === "atrule") {
      if (node.name.toLowerCase() !== "import") {
        refuse(node, `@${node.name} is not allowed in tokensCss; only font @import rules and one :root block are`);
      }
      if (sawRoot) {
        refuse(node, "@import must come before the :root block (browsers ignore an @import after other rules)");
      }
      imports.push(readImportUrl(node.params, node));
      continue;
    }

    if (node.type === "rule") {
      if (node.selector.trim() !== ":root") {
        refuse(
          node,
          `Selector "${node.selector}" is not allowed; tokensCss holds exactly one :root { --name: value; } block`,
        );
      }
      if (sawRoot) refuse(node, "A second :root block is not allowed; put every token in one :root block");
      sawRoot = true;
      readCustomProperties(node.nodes, properties);
      continue;
    }

    // Declarations at the top level (postcss accepts `color: red` outside any rule).
    refuse(node, `"${node.toString()}" must be inside the :root block`);
  }

  if (!sawRoot) {
    throw new ApiError("compile_failed", "tokensCss needs a :root { --name: value; } block with the theme tokens");
  }
  if (Object.keys(properties).length === 0) {
    throw new ApiError("compile_failed", "The :root block in tokensCss declares no custom properties (--name: value)");
  }

  return { css: trimmed, imports, properties };
}

function parseCss(css: string): Root {
  try {
    return postcss.parse(css);
  } catch (error) {
    if (error instanceof CssSyntaxError) {
      const where = error.line === undefined ? "" : `Line ${error.line}:${error.column ?? 1}: `;
      throw new ApiError("compile_failed", `tokensCss is not valid CSS. ${where}${error.reason}`, { cause: error });
    }
    throw error;
  }
}

// Checked on the raw text, not per node: comments and the raws between tokens are stored and inlined
// too, and a literal "<" anywhere could start `</style>`. No valid token value needs one.
function refuseHtmlBreakout(css: string): void {
  const index = css.indexOf("<");
  if (index === -1) return;
  const before = css.slice(0, index);
  const line = before.split("\n").length;
  const column = index - before.lastIndexOf("\n");
  throw new ApiError(
    "compile_failed",
    `tokensCss: Line ${line}:${column}: "<" is not allowed anywhere in tokensCss (it is inlined into a <style> element)`,
  );
}

function readCustomProperties(nodes: ChildNode[], properties: Record<string, string>): void {
  for (const node of nodes) {
    if (node.type === "comment") continue;
    if (node.type === "decl") {
      if (!node.prop.startsWith("--")) {
        refuse(
          node,
          `"${node.prop}" is not a custom property; :root may only declare tokens like --color-primary (the player applies them)`,
        );
      }
      properties[node.prop] = node.value.trim();
      continue;
    }
    const what = node.type === "atrule" ? `@${node.name}` : `nested rule "${node.selector}"`;
    refuse(node, `${what} is not allowed inside :root; it may only contain --name: value declarations`);
  }
}

const urlFunction = /^url\(\s*(?:"([^"]*)"|'([^']*)'|([^\s"'()]*))\s*\)$/i;
const quotedString = /^(?:"([^"]*)"|'([^']*)')$/;

function readImportUrl(params: string, node: ChildNode): string {
  const text = params.trim();
  const match = urlFunction.exec(text) ?? quotedString.exec(text);
  const url = match?.slice(1).find((group) => group !== undefined);
  if (url === undefined) {
    refuse(node, `@import ${text} is not allowed; write @import url("https://…"); with nothing after the URL`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    refuse(node, `@import URL "${url}" is not an absolute URL; use an https:// URL`);
  }
  if (parsed.protocol !== "https:") {
    refuse(node, `@import URL "${url}" must use https:`);
  }
  return url;
}

function refuse(node: ChildNode, message: string): never {
  const start = node.source?.start;
  const where = start ? `Line ${start.line}:${start.column}: ` : "";
  throw new ApiError("compile_failed", `tokensCss: ${where}${message}`);
}
