// Adds names to a deck module's `import { … } from "@deckhand/player"`, in the style the import is written
// in (one line, or one name per line with or without a trailing comma), so a slide the visual editor adds
// compiles without touching anything else at the top of the module.

import type * as t from "@babel/types";
import { AppError } from "@/lib/core/errors";
import { parseModule } from "./tsx-module";

const PLAYER = "@deckhand/player";

function importedName(specifier: t.ImportSpecifier): string {
  return specifier.imported.type === "Identifier" ? specifier.imported.name : specifier.imported.value;
}

export function addPlayerImports(source: string, names: readonly string[]): string {
  const file = parseModule(source);
  const declaration = file.program.body.find(
    (node): node is t.ImportDeclaration =>
      node.type === "ImportDeclaration" && node.source.value === PLAYER && node.importKind !== "type",
  );
  const specifiers = (declaration?.specifiers ?? []).filter(
    (specifier): specifier is t.ImportSpecifier => specifier.type === "ImportSpecifier",
  );
  const missing = [...new Set(names)].filter((name) => {
    const local = specifiers.find((specifier) => specifier.local.name === name);
    if (local && importedName(local) !== name) {
      throw new AppError(
        "invalid_request",
        `This module imports ${importedName(local)} as ${name}, so the new slide's <${name}> would not be the player's; rename that import in the code editor first.`,
      );
    }
    return !local;
  });
  if (missing.length === 0) return source;
  const newline = source.includes("\r\n") ? "\r\n" : "\n";
  const last = specifiers.at(-1);
  if (!declaration || !last) {
    // No named import from the player yet: a line of its own at the top, after any other imports.
    const after = file.program.body.filter((node) => node.type === "ImportDeclaration").at(-1)?.end ?? null;
    const line = `import { ${missing.join(", ")} } from "${PLAYER}";`;
    if (after === null) return `${line}${newline}${source}`;
    return `${source.slice(0, after)}${newline}${line}${source.slice(after)}`;
  }
  const lastEnd = last.end ?? 0;
  const braceEnd = source.indexOf("}", lastEnd);
  const between = source.slice(lastEnd, braceEnd);
  const trailingComma = between.includes(",");
  const lead = /\n([ \t]*)$/.exec(source.slice(declaration.start ?? 0, last.start ?? 0));
  if (lead) {
    // One name per line: each added name gets its own line with the same indentation.
    const indent = lead[1] ?? "";
    const lines = missing.map((name) => `${newline}${indent}${name}`).join(",");
    if (trailingComma) {
      const comma = lastEnd + between.indexOf(",") + 1;
      return `${source.slice(0, comma)}${lines},${source.slice(comma)}`;
    }
    return `${source.slice(0, lastEnd)},${lines}${source.slice(lastEnd)}`;
  }
  return `${source.slice(0, lastEnd)}${missing.map((name) => `, ${name}`).join("")}${source.slice(lastEnd)}`;
}
