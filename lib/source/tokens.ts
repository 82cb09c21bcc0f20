// Validates a deck's theme tokens and writes them out again. tokensCss is inlined into a <style> element
// by the player, so it is parsed with postcss's real parser and held to a tiny grammar (font @imports,
// then one `:root` block of custom properties) instead of being pattern-matched.
//
// postcss is more lenient than a browser (it lets a quoted string run across a line break, where a
// browser ends the string at the newline and reads what follows as new rules), so postcss's model alone
// is not trusted: every value is checked again with the browser's own tokenizing rules (CSS Syntax 3)
// and refused unless it is one self-contained value, and the stylesheet that is stored and served is
// never the author's text but a re-serialisation of the validated model:
//
//   @import url("https://…");          (one line per validated import, in order)
//   :root { --name: value; … }          (every validated declaration, in order, duplicates kept)
//
// Comments are dropped by this re-serialisation (top-level ones, ones between declarations and ones
// inside values): they mean nothing to the player, and re-emitting author text is exactly what this
// module avoids. Whitespace in values outside quoted strings is collapsed to single spaces. Layout is
// the one thing kept: a :root block written on one line stays on one line, any other gets one
// declaration per line, indented by two spaces (the form of the default theme and the brand synthesiser).

import postcss, { CssSyntaxError, type ChildNode, type Declaration, type Root } from "postcss";
import { AppError, type ErrorCode } from "@/lib/core/errors";

// The error every refusal of tokensCss uses: the API's path for tokens that do not compile (422), which
// the editor's live preview also shows as a problem next to the tokens.
const TOKENS_ERROR: ErrorCode = "compile_failed";

type TokenDeclaration = { name: string; value: string; important: boolean };

export type ParsedTokens = {
  /** The re-serialised stylesheet (see above): what is stored and served, never the input text. */
  css: string;
  /** URLs of the `@import` rules, in order, as written. */
  imports: string[];
  /** Every declaration of the :root block in order, values normalised as serialised. */
  declarations: TokenDeclaration[];
  /** Custom property name → value (without `!important`); a later duplicate wins, as in CSS. */
  properties: Record<string, string>;
};

/** Strict: the first problem is a 422 naming the line, the token and what to change. */
export function parseTokensCss(css: string): ParsedTokens {
  const trimmed = css.trim();
  refuseHtmlBreakout(trimmed);
  const model = readTokens(parseCss(trimmed), (node, message) => refuse(node, message));
  if (!model.sawRoot) {
    throw new AppError(TOKENS_ERROR, "tokensCss needs a :root { --name: value; } block with the theme tokens");
  }
  if (model.declarations.length === 0) {
    throw new AppError(TOKENS_ERROR, "The :root block in tokensCss declares no custom properties (--name: value)");
  }
  return finish(model);
}

/**
 * Lenient, for tokens stored before values were checked like a browser reads them (or written by code
 * rather than a person): the valid imports and declarations re-serialised, anything else dropped; null
 * when nothing valid is left. Never throws. Whatever it returns is built from validated parts only.
 */
export function reserializeStoredTokensCss(css: string | null | undefined): string | null {
  if (!css) return null;
  let root: Root;
  try {
    root = postcss.parse(css.trim());
  } catch {
    return null;
  }
  const model = readTokens(root, () => undefined);
  return model.declarations.length === 0 ? null : finish(model).css;
}

type Model = { imports: string[]; declarations: TokenDeclaration[]; sawRoot: boolean; oneLine: boolean };

// Walks postcss's tree. `problem` either throws (strict) or returns, and the node is then skipped.
function readTokens(root: Root, problem: (node: ChildNode, message: string) => void): Model {
  const model: Model = { imports: [], declarations: [], sawRoot: false, oneLine: false };

  for (const node of root.nodes) {
    if (node.type === "comment") continue;

    if (node.type === "atrule") {
      if (node.name.toLowerCase() !== "import") {
        problem(node, `@${node.name} is not allowed in tokensCss; only font @import rules and one :root block are`);
        continue;
      }
      if (model.sawRoot) {
        problem(node, "@import must come before the :root block (browsers ignore an @import after other rules)");
        continue;
      }
      const url = readImportUrl(node.params);
      if (typeof url === "string") model.imports.push(url);
      else problem(node, url.problem);
      continue;
    }

    if (node.type === "rule") {
      if (node.selector.trim() !== ":root") {
        problem(
          node,
          `Selector "${node.selector}" is not allowed; tokensCss holds exactly one :root { --name: value; } block`,
        );
        continue;
      }
      if (model.sawRoot) {
        problem(node, "A second :root block is not allowed; put every token in one :root block");
        continue;
      }
      model.sawRoot = true;
      model.oneLine = !node.toString().includes("\n");
      for (const child of node.nodes) {
        if (child.type === "comment") continue;
        if (child.type !== "decl") {
          const what = child.type === "atrule" ? `@${child.name}` : `nested rule "${child.selector}"`;
          problem(child, `${what} is not allowed inside :root; it may only contain --name: value declarations`);
          continue;
        }
        const declaration = readDeclaration(child);
        if ("problem" in declaration) problem(child, declaration.problem);
        else model.declarations.push(declaration);
      }
      continue;
    }

    // Declarations at the top level (postcss accepts `color: red` outside any rule).
    problem(node, `"${node.toString()}" must be inside the :root block`);
  }
  return model;
}

function finish(model: Model): ParsedTokens {
  const properties: Record<string, string> = {};
  for (const { name, value } of model.declarations) properties[name] = value;
  return { css: serializeTokens(model), imports: model.imports, declarations: model.declarations, properties };
}

function serializeTokens(model: Pick<Model, "imports" | "declarations" | "oneLine">): string {
  const lines = model.imports.map((url) => `@import url("${url}");`);
  const declarations = model.declarations.map(
    ({ name, value, important }) => `${name}: ${value}${important ? " !important" : ""};`,
  );
  lines.push(
    model.oneLine
      ? `:root { ${declarations.join(" ")} }`
      : [":root {", ...declarations.map((declaration) => `  ${declaration}`), "}"].join("\n"),
  );
  return lines.join("\n");
}

function parseCss(css: string): Root {
  try {
    return postcss.parse(css);
  } catch (error) {
    if (error instanceof CssSyntaxError) {
      const where = error.line === undefined ? "" : `Line ${error.line}:${error.column ?? 1}: `;
      throw new AppError(TOKENS_ERROR, `tokensCss is not valid CSS. ${where}${error.reason}`, { cause: error });
    }
    throw error;
  }
}

// Checked on the raw text first, for a precise position: a literal "<" anywhere could start `</style>`
// if the tokens are ever inlined by something that does not escape them. No valid token value needs one.
// (Values are checked for it again below, which is what the lenient path relies on.)
function refuseHtmlBreakout(css: string): void {
  const index = css.indexOf("<");
  if (index === -1) return;
  const before = css.slice(0, index);
  const line = before.split("\n").length;
  const column = index - before.lastIndexOf("\n");
  throw new AppError(
    TOKENS_ERROR,
    `tokensCss: Line ${line}:${column}: "<" is not allowed anywhere in tokensCss (it is inlined into a <style> element)`,
  );
}

// ASCII only, no escapes: the name is written out as is.
const customPropertyName = /^--[A-Za-z0-9_-]+$/;

function readDeclaration(node: Declaration): TokenDeclaration | { problem: string } {
  const name = node.prop;
  if (!name.startsWith("--")) {
    return {
      problem: `"${name}" is not a custom property; :root may only declare tokens like --color-primary (the player applies them)`,
    };
  }
  if (!customPropertyName.test(name)) {
    return {
      problem: `${JSON.stringify(name)} is not a valid token name; use letters, digits, "-" and "_" after the leading "--"`,
    };
  }
  try {
    return { name, value: normaliseValue(node.value), important: node.important === true };
  } catch (error) {
    if (error instanceof ValueProblem) return { problem: `${name}: ${error.message}` };
    throw error;
  }
}

class ValueProblem extends Error {}

// Characters no token needs and a browser treats specially: C0 controls other than CSS whitespace
// (NUL is read as U+FFFD), vertical tab, DEL.
const controlCharacter = /[\u0000-\u0008\u000B\u000E-\u001F\u007F]/; // eslint-disable-line no-control-regex
const cssWhitespace = /[ \t\n\r\f]/;
const newline = /[\n\r\f]/;
const nameCharacter = /[A-Za-z0-9_\-\u0080-\uFFFF]/;

/**
 * Reads a custom property's value with a browser's tokenizing rules and answers it with whitespace runs
 * outside quoted strings collapsed and comments removed, or throws ValueProblem. Accepted values are
 * self-contained: no character in them can end the declaration, the :root block or the <style> element
 * they are written into, and brackets are balanced, so `--name: value;` is one declaration to a browser.
 */
function normaliseValue(value: string): string {
  const control = controlCharacter.exec(value);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
    throw new ValueProblem(`the value contains the control character U+${code}; remove it`);
  }
  if (value.includes("<")) {
    throw new ValueProblem(`"<" is not allowed in a token value (tokensCss is inlined into a <style> element)`);
  }

  let out = "";
  const closers: string[] = [];
  const space = () => {
    if (out !== "" && !out.endsWith(" ")) out += " ";
  };
  let i = 0;
  while (i < value.length) {
    const c = value[i]!;

    if (cssWhitespace.test(c)) {
      space();
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = readString(value, i);
      out += value.slice(i, end);
      i = end;
      continue;
    }
    if (c === "/" && value[i + 1] === "*") {
      const end = value.indexOf("*/", i + 2);
      if (end === -1) {
        throw new ValueProblem('the value opens a comment "/*" that is never closed; close it with "*/" or remove it');
      }
      // A comment separates what is around it; a space keeps `a/**/b` two words.
      space();
      i = end + 2;
      continue;
    }
    if (c === "\\") {
      throw new ValueProblem(
        "the value has a backslash outside quotes; escapes are only allowed inside a quoted string",
      );
    }
    if (c === ";" || c === "{" || c === "}") {
      throw new ValueProblem(
        `the value has "${c}" outside quotes, which would end the token${c === ";" ? "" : " or the :root block"}; put it inside a quoted string or remove it`,
      );
    }
    if (c === "(" || c === "[") {
      closers.push(c === "(" ? ")" : "]");
      out += c;
      i++;
      continue;
    }
    if (c === ")" || c === "]") {
      const expected = closers.pop();
      if (expected !== c) {
        throw new ValueProblem(
          expected
            ? `the value closes with "${c}" where "${expected}" is expected; balance the brackets`
            : `the value has a "${c}" that closes nothing; balance the brackets`,
        );
      }
      out += c;
      i++;
      continue;
    }
    if (c === "#" || c === "@" || nameCharacter.test(c)) {
      // A name (an identifier, a number with its unit, a hash or at-keyword), read whole so that only a
      // bare `url(` starts a URL, as in a browser (`#url(` and `myurl(` do not).
      let end = i + 1;
      while (end < value.length && nameCharacter.test(value[end]!)) end++;
      const word = value.slice(i, end);
      if (word.toLowerCase() === "url" && value[end] === "(") {
        const url = readUrl(value, end + 1);
        if (url) {
          out += `${word}(${url.content})`;
          i = url.end;
          continue;
        }
        // url( followed by a quoted string is an ordinary function; its "(" is read next.
      }
      out += word;
      i = end;
      continue;
    }
    out += c;
    i++;
  }

  if (closers.length > 0) {
    throw new ValueProblem(`the value leaves "${closers.at(-1)}" unclosed; balance the brackets`);
  }
  return out.trimEnd();
}

// A quoted string from its opening quote; answers the index after its closing quote. A browser ends a
// string at a line break (and reads the rest as new CSS) or at the end of the text, so both are refused
// rather than repaired, as is a line break after a backslash (a line continuation postcss does not know).
function readString(value: string, start: number): number {
  const quote = value[start]!;
  let i = start + 1;
  while (i < value.length) {
    const c = value[i]!;
    if (c === quote) return i + 1;
    if (newline.test(c)) {
      throw new ValueProblem(
        `the quoted string ${preview(value.slice(start, i))} has a line break in it; CSS strings end at the line break, so close the quote on the same line`,
      );
    }
    if (c === "\\") {
      const next = value[i + 1];
      if (next === undefined) break;
      if (newline.test(next)) {
        throw new ValueProblem(
          `the quoted string ${preview(value.slice(start, i))} has a backslash before a line break; keep the string on one line`,
        );
      }
      i += 2;
      continue;
    }
    i++;
  }
  throw new ValueProblem(
    `the quoted string ${preview(value.slice(start))} is never closed; add the closing ${quote === '"' ? "double" : "single"} quote`,
  );
}

// An unquoted url(…) (a browser reads it as one URL token, so ";" inside it is part of the URL, as in
// `url(data:image/png;base64,…)`). Answers null when a quote follows: then it is a url() function.
function readUrl(value: string, start: number): { content: string; end: number } | null {
  let i = start;
  while (i < value.length && cssWhitespace.test(value[i]!)) i++;
  if (value[i] === '"' || value[i] === "'") return null;
  const from = i;
  while (i < value.length) {
    const c = value[i]!;
    if (c === ")") return { content: value.slice(from, i), end: i + 1 };
    if (cssWhitespace.test(c)) {
      const content = value.slice(from, i);
      while (i < value.length && cssWhitespace.test(value[i]!)) i++;
      if (value[i] === ")") return { content, end: i + 1 };
      throw new ValueProblem("the url(…) has a space inside it; percent-encode it (%20) or quote the URL");
    }
    if (c === '"' || c === "'" || c === "(" || c === "\\" || c === "{" || c === "}") {
      throw new ValueProblem(
        `the unquoted url(…) contains "${c}"; quote the URL (url("…")) or percent-encode the character`,
      );
    }
    i++;
  }
  throw new ValueProblem('the url(…) is never closed; add the ")"');
}

function preview(text: string): string {
  const line = text.split(/[\n\r\f]/)[0]!;
  return line.length > 40 ? `${line.slice(0, 40)}…` : line;
}

const urlFunction = /^url\(\s*(?:"([^"]*)"|'([^']*)'|([^\s"'()]*))\s*\)$/i;
const quotedString = /^(?:"([^"]*)"|'([^']*)')$/;
// Written back as url("…"): nothing in the URL may end or escape that string.
const unsafeInUrl = /[\s"\\<>\u0000-\u001F\u007F]/; // eslint-disable-line no-control-regex

function readImportUrl(params: string): string | { problem: string } {
  const text = params.trim();
  const match = urlFunction.exec(text) ?? quotedString.exec(text);
  const url = match?.slice(1).find((group) => group !== undefined);
  if (url === undefined) {
    return { problem: `@import ${text} is not allowed; write @import url("https://…"); with nothing after the URL` };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: `@import URL "${url}" is not an absolute URL; use an https:// URL` };
  }
  if (parsed.protocol !== "https:") {
    return { problem: `@import URL "${url}" must use https:` };
  }
  if (unsafeInUrl.test(url)) {
    return {
      problem: `@import URL ${JSON.stringify(url)} contains a space, quote, backslash, "<", ">" or control character; percent-encode it`,
    };
  }
  return url;
}

function refuse(node: ChildNode, message: string): never {
  const start = node.source?.start;
  const where = start ? `Line ${start.line}:${start.column}: ` : "";
  throw new AppError(TOKENS_ERROR, `tokensCss: ${where}${message}`);
}
