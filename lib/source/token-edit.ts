import postcss, { type Declaration, type Root, type Rule } from "postcss";
import { AppError } from "@/lib/core/errors";
import { parseTokensCss } from "./tokens";

// The editor's theme panel writes one token at a time into the author's tokensCss: the smallest change to
// the text, so the saved tokens (and the diff in the history) differ only in that declaration. The value
// of the token's last declaration in the :root block (the one that wins, as in CSS) is replaced where it
// stands, keeping its `!important`, its spacing and every other byte; a token not declared yet is added
// as a line of its own at the end of the block, in the block's layout. The text is read with postcss and
// the result must pass parseTokensCss (lib/source/tokens.ts), the parser every save uses, so a control can
// never write tokens a save would refuse.

/** Where a declaration's value lies in the text: [start, end). */
function valueRange(css: string, declaration: Declaration): [number, number] {
  const start = declaration.source!.start!.offset + declaration.prop.length + (declaration.raws.between ?? ":").length;
  const raw = (declaration.raws as { value?: { raw: string } }).value?.raw ?? declaration.value;
  // A custom property's raw value may carry the whitespace before a missing final ";" or the "}".
  const text = css.slice(start, start + raw.length);
  return [start, start + text.trimEnd().length];
}

function rootRule(root: Root): Rule | undefined {
  return root.nodes.find((node): node is Rule => node.type === "rule" && node.selector.trim() === ":root");
}

/**
 * tokensCss with the token `name` set to `value` (see above). Throws the parser's AppError when the text
 * was not valid tokens to begin with, or when the value is not one a save accepts.
 */
export function setTokenValue(css: string, name: string, value: string): string {
  parseTokensCss(css); // the text must be valid tokens already: the panel edits nothing it cannot read
  if (!/^--[A-Za-z0-9_-]+$/.test(name)) throw new AppError("compile_failed", `"${name}" is not a token name`);
  const root = postcss.parse(css);
  const rule = rootRule(root)!;
  const declarations = rule.nodes.filter((node): node is Declaration => node.type === "decl" && node.prop === name);
  const last = declarations.at(-1);
  let next: string;
  if (last) {
    const [start, end] = valueRange(css, last);
    next = `${css.slice(0, start)}${value}${css.slice(end)}`;
  } else {
    const oneLine = !rule.toString().includes("\n");
    const lastChild = rule.nodes.at(-1);
    const insertAt = lastChild ? lastChild.source!.end!.offset : css.indexOf("{", rule.source!.start!.offset) + 1;
    const needsSemicolon = lastChild?.type === "decl" && !rule.raws.semicolon;
    const indent = oneLine ? " " : `\n${indentOf(rule)}`;
    next = `${css.slice(0, insertAt)}${needsSemicolon ? ";" : ""}${indent}${name}: ${value};${css.slice(insertAt)}`;
  }
  parseTokensCss(next);
  return next;
}

// The indentation of the block's declarations (two spaces when it has none yet).
function indentOf(rule: Rule): string {
  const first = rule.nodes.find((node) => node.type === "decl");
  const before = first?.raws.before ?? "";
  const indent = before.slice(before.lastIndexOf("\n") + 1);
  return indent !== "" && /^[ \t]*$/.test(indent) ? indent : "  ";
}
