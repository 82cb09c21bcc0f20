// Compiles a deck module (TSX) into the single ES module the player runs, and reads its outline.
//
// Two layers, because each sees what the other cannot:
// 1. esbuild bundles the source with a plugin that answers every import. `@deckhand/player` becomes a
//    virtual module re-exporting exactly the vocabulary, so esbuild itself rejects unknown names; the
//    automatic JSX runtime resolves to another virtual module re-exporting jsx/jsxs/Fragment from
//    `@deckhand/player`. Anything else is refused where it is imported, with its line.
// 2. The output is parsed with acorn and walked, because esbuild leaves `import(variable)`,
//    `import.meta` and dynamic `require` untouched and invisible to plugins.
// This is a contract check that keeps decks portable and their outline honest; it is not a sandbox.
// Deck code is contained by the player's sandboxed iframe (see DESIGN.md, "Trust boundaries").
// Nesting is bounded (MAX_NESTING): acorn and acorn-walk recurse once per level of the syntax tree, so a module
// nested deeply enough (3,000 `[`, 1,500 template literals, a long chain of calls) would overflow the stack; it
// is refused as compile_failed like any other module that does not compile, never a crash of the compile.

import * as esbuild from "esbuild";
import {
  Parser,
  type AnyNode,
  type CallExpression,
  type Expression,
  type Program,
  type Property,
  type SpreadElement,
} from "acorn";
import { simple } from "acorn-walk";
import { ImportType, init as lexerReady, parse as lexImports } from "es-module-lexer";
import { AppError } from "@/lib/core/errors";
import { vocabulary } from "@/lib/source/component-specs";
import type { DeckFormat } from "@/lib/contract/deck";
import { componentList, describeMessage, ENTRY, formatMessages, PLAYER, SOURCE_NAMESPACE } from "./compile-messages";

export type CompiledDeck = {
  compiledJs: string;
  /** Slide (or Beat) labels in source order. */
  outline: string[];
  /**
   * Image URLs written as static strings in `<Image src>` and `<Slide image>` / `<Beat image>`: where each
   * literal stands in `compiledJs` (start inclusive, end exclusive), so a write can import remote images
   * and point the module at the stored copies (`replaceImageUrls`) while the source keeps what was written.
   */
  images: ImageReference[];
};

export type ImageReference = { url: string; start: number; end: number };

const JSX_RUNTIME = `${PLAYER}/jsx-runtime`;
const PLAYER_NAMESPACE = "deckhand-player";
/** Levels of the compiled module's syntax tree (an element is three or four: call, props, children). */
export const MAX_NESTING = 500;
// Brackets nested in the source past which it is refused before esbuild reads it (see compileDeck).
const MAX_SOURCE_BRACKETS = 20 * MAX_NESTING;

const knownComponents = new Set(vocabulary.map((component) => component.name));
const playerModuleSource = `export { ${componentList} } from "${PLAYER}";\n`;
const jsxRuntimeModuleSource = `export { jsx, jsxs, Fragment } from "${PLAYER}";\n`;

const sectionComponent: Record<DeckFormat, "Slide" | "Beat"> = { slides: "Slide", webpage: "Beat" };

export async function compileDeck(input: { source: string; format: DeckFormat }): Promise<CompiledDeck> {
  const { source, format } = input;
  // esbuild's parser recurses too (in Go): around 200,000 nested brackets, which fit in a 1 MB source,
  // overflow its stack and stop its service. Such a source is refused before it gets there.
  if (deepestBrackets(source).depth > MAX_SOURCE_BRACKETS) throw nestedTooDeeply(source);
  // Both esbuild calls start at once: each is a round trip to esbuild's process that waits on a busy event
  // loop under load. The import check's verdict is still given after the bundle's (awaited below).
  const importCheck = refuseUnusedUnknownImports(source);
  importCheck.catch(() => {});
  const result = await bundleDeck(source);

  const compiledJs = result.outputFiles[0]?.text;
  const outputMeta = Object.values(result.metafile.outputs)[0];
  if (compiledJs === undefined || outputMeta === undefined) {
    throw new Error("esbuild produced no output for the deck module");
  }

  const program = parseCompiled(compiledJs, source);
  refuseEscapeHatches(program, source);
  await importCheck;

  if (!outputMeta.exports.includes("default")) {
    throw new AppError(
      "compile_failed",
      "The module has no default export. End it with: export default function MyDeck() { return <Deck>…</Deck>; }",
    );
  }

  const outline = extractOutline(program, sectionComponent[format]);
  if (outline.length === 0) {
    throw new AppError("compile_failed", describeMissingSections(format));
  }
  return { compiledJs, outline, images: extractImages(program, sectionComponent[format]) };
}

/**
 * The compiled module with image URLs replaced: each reference whose URL `replacements` maps is written
 * as the new URL (a JSON string literal, valid JavaScript). Other references stay as they are.
 */
export function replaceImageUrls(
  compiledJs: string,
  images: ImageReference[],
  replacements: ReadonlyMap<string, string>,
): string {
  let result = compiledJs;
  for (const image of [...images].sort((a, b) => b.start - a.start)) {
    const replacement = replacements.get(image.url);
    if (replacement === undefined) continue;
    result = `${result.slice(0, image.start)}${JSON.stringify(replacement)}${result.slice(image.end)}`;
  }
  return result;
}

// An esbuild call that survives esbuild's service stopping (a crash on a module nested deeper than the
// source check saw: brackets hidden from it, or nesting without brackets). The service is restarted and the
// call made once more, so a compile that only ran beside the crash goes through; a module that stops it
// again is refused as nested too deeply, and the next compile finds esbuild running.
async function withEsbuild<T>(source: string, call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof Error) || !/^The service (was stopped|is no longer running)/.test(error.message)) {
        throw error;
      }
      await esbuild.stop();
      if (attempt === 2) throw nestedTooDeeply(source, error);
    }
  }
}

async function bundleDeck(source: string): Promise<esbuild.BuildResult<{ write: false; metafile: true }>> {
  try {
    return await withEsbuild(source, () =>
      esbuild.build({
        entryPoints: [ENTRY],
        bundle: true,
        write: false,
        metafile: true,
        format: "esm",
        target: "es2022",
        platform: "browser",
        jsx: "automatic",
        jsxImportSource: PLAYER,
        // Preserve value imports the source never uses, so `import React from "react"` is refused even
        // when unused; `import type` still vanishes, which is how type-only imports stay harmless.
        // Being explicit also keeps the repo's own tsconfig.json out of deck compilation.
        tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
        logLevel: "silent",
        minify: false,
        plugins: [createDeckImportsPlugin(source)],
      }),
    );
  } catch (error) {
    if (isBuildFailure(error)) {
      throw new AppError("compile_failed", formatMessages(error.errors), { cause: error });
    }
    throw error;
  }
}

function createDeckImportsPlugin(source: string): esbuild.Plugin {
  return {
    name: "deckhand-imports",
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === "entry-point") return { path: ENTRY, namespace: SOURCE_NAMESPACE };

        // The virtual modules' own re-exports are what the output imports; the player provides them.
        if (args.namespace === PLAYER_NAMESPACE && args.path === PLAYER) return { path: PLAYER, external: true };

        if (args.kind === "dynamic-import")
          return refuseImport(`import("${args.path}")`, "Dynamic import() is not allowed");
        if (args.kind === "require-call" || args.kind === "require-resolve") {
          return refuseImport(`require("${args.path}")`, "require() is not allowed");
        }
        if (args.kind !== "import-statement") return refuseImport(args.path, "This kind of import is not allowed");

        // jsx-runtime is what the automatic JSX transform imports; accepting it when written by hand
        // too is harmless since it maps to the same player exports.
        if (args.path === PLAYER || args.path === JSX_RUNTIME) return { path: args.path, namespace: PLAYER_NAMESPACE };
        return { errors: [{ text: describeForbiddenSpecifier(args.path) }] };
      });

      build.onLoad({ filter: /.*/, namespace: SOURCE_NAMESPACE }, () => ({ contents: source, loader: "tsx" }));
      build.onLoad({ filter: /.*/, namespace: PLAYER_NAMESPACE }, (args) => ({
        contents: args.path === JSX_RUNTIME ? jsxRuntimeModuleSource : playerModuleSource,
        loader: "js",
      }));
    },
  };
}

// Bundling drops imports that are never used before esbuild checks their names, so an unknown but unused
// name would slip through. A plain transform keeps every value import as written (verbatimModuleSyntax);
// its import declarations are checked against the vocabulary here. es-module-lexer finds them, and only
// they are parsed: a whole parse of the transform cost about a third of a compile's CPU.
async function refuseUnusedUnknownImports(source: string): Promise<void> {
  const [{ code }] = await Promise.all([
    withEsbuild(source, () =>
      esbuild.transform(source, {
        loader: "tsx",
        format: "esm",
        jsx: "automatic",
        jsxImportSource: PLAYER,
        tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
        logLevel: "silent",
      }),
    ),
    lexerReady,
  ]);
  for (const statement of playerImportStatements(code, source)) {
    if (statement.type !== "ImportDeclaration" || statement.source.value !== PLAYER) continue;
    for (const specifier of statement.specifiers) {
      if (specifier.type !== "ImportSpecifier") continue;
      const name =
        specifier.imported.type === "Identifier" ? specifier.imported.name : String(specifier.imported.value);
      if (!knownComponents.has(name)) {
        const message = [...describeMessage(`No matching export in "${PLAYER}" for import "${name}"`, [])].join(" ");
        throw new AppError(
          "compile_failed",
          `${locateInSource(source, new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))}${message}`,
        );
      }
    }
  }
}

// The module's top-level statements that import from the player: es-module-lexer finds them and only they are
// parsed. The lexer gives up on what it cannot follow (brackets or template literals nested over 1,024 levels:
// "Parse error"); then the whole module is parsed, which refuses what is nested too deeply as compile_failed.
function playerImportStatements(code: string, source: string): Program["body"] {
  let imports: ReturnType<typeof lexImports>[0];
  try {
    [imports] = lexImports(code);
  } catch {
    return parseCompiled(code, source).body;
  }
  return imports
    .filter((entry) => entry.t === ImportType.Static && entry.n === PLAYER)
    .flatMap((entry) => parseCompiled(code.slice(entry.ss, entry.se), source).body);
}

function refuseImport(what: string, reason: string): esbuild.OnResolveResult {
  return {
    errors: [
      {
        text: `${reason}: ${what}. A deck is one static module; import components at the top with import { … } from "${PLAYER}"`,
      },
    ],
  };
}

function describeForbiddenSpecifier(specifier: string): string {
  const base = `Cannot import "${specifier}": a deck module may import only from "${PLAYER}"`;
  if (specifier.startsWith(`${PLAYER}/`)) {
    return `${base} itself; it has no subpaths. Write import { … } from "${PLAYER}"`;
  }
  if (specifier === "react" || specifier.startsWith("react/") || specifier.startsWith("react-dom")) {
    return `${base}. JSX works without importing React; components come from "${PLAYER}"`;
  }
  if (specifier.startsWith(".") || specifier.startsWith("/")) {
    return `${base}. A deck is a single file: define helper components and data in the same module`;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(specifier)) {
    return `${base}. Decks cannot load code from URLs or built-in modules`;
  }
  return `${base}. Use the vocabulary (${componentList}) and plain TypeScript in the same file`;
}

function isBuildFailure(error: unknown): error is esbuild.BuildFailure {
  return error instanceof Error && Array.isArray((error as Partial<esbuild.BuildFailure>).errors);
}

// acorn catches a stack overflow inside each nested expression and tests the error's message with a regular
// expression there, at the bottom of the stack; V8 compiling that expression with no stack left aborts the
// whole process ("RegExpCompiler Allocation failed"), which deep template literals reached. This parser lets
// the RangeError rise to parseCompiled instead, which refuses the module.
class DeckParser extends Parser {
  catchStackOverflow<T>(parse: () => T): T {
    return parse();
  }
}

// Parses the compiled module (or a part of it) and checks its nesting, so that every tree handed to the walks
// below (acorn-walk recurses) is shallow enough for them. `source` is the deck's own, for the message.
function parseCompiled(compiledJs: string, source: string): Program {
  let program: Program;
  try {
    program = DeckParser.parse(compiledJs, { ecmaVersion: "latest", sourceType: "module" });
  } catch (error) {
    if (error instanceof RangeError) throw nestedTooDeeply(source, error);
    // esbuild's output is valid JavaScript, so this means a construct acorn does not know yet; refuse
    // rather than skip the checks below.
    const reason = error instanceof Error ? error.message : String(error);
    throw new AppError(
      "compile_failed",
      `The compiled module could not be checked (${reason}); simplify the construct`,
      {
        cause: error,
      },
    );
  }
  if (treeDepth(program) > MAX_NESTING) throw nestedTooDeeply(source);
  return program;
}

/** The syntax tree's depth, counted with a stack of its own (no recursion, whatever the depth). */
function treeDepth(program: Program): number {
  let deepest = 0;
  const stack: Array<{ node: object; depth: number }> = [{ node: program, depth: 1 }];
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    deepest = Math.max(deepest, visit.depth);
    for (const value of Object.values(visit.node)) {
      for (const child of Array.isArray(value) ? value : [value]) {
        if (isNode(child)) stack.push({ node: child, depth: visit.depth + 1 });
      }
    }
  }
  return deepest;
}

function isNode(value: unknown): value is AnyNode {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}

function nestedTooDeeply(source: string, cause?: unknown): AppError {
  return new AppError(
    "compile_failed",
    `${locateDeepestNesting(source)}The module nests too deeply: more than ${MAX_NESTING} levels of brackets, template literals, elements, calls or functions inside each other. Flatten it: put parts in variables or helper components`,
    { cause },
  );
}

// Where the source nests its brackets deepest ((, [, { and a template literal's ${), strings and comments
// skipped: "Line L:C: " when that is deep enough to be the reason (elements and operators nest without
// brackets), "" otherwise. A pointer for the author, like locateInSource.
function locateDeepestNesting(source: string): string {
  const { depth, at } = deepestBrackets(source);
  if (depth < 100) return "";
  const before = source.slice(0, at);
  return `Line ${before.split("\n").length}:${at - before.lastIndexOf("\n")}: `;
}

// The depth of the source's deepest bracket and its index, read without a parser (in one pass, no recursion):
// quotes in JSX text or a regular expression can mislead it, so it bounds what esbuild is given and points
// at the deepest place; the checks of the compiled module decide the rest.
function deepestBrackets(source: string): { depth: number; at: number } {
  const open: string[] = [];
  let deepest = 0;
  let at = 0;
  let i = 0;
  const endOf = (index: number) => (index === -1 ? source.length : index);
  // Inside a template literal's text: up to its end or its next ${.
  const skipTemplateText = () => {
    while (i < source.length && source[i] !== "`" && !(source[i] === "$" && source[i + 1] === "{")) {
      i += source[i] === "\\" ? 2 : 1;
    }
    if (source[i] === "`") return;
    open.push("${");
    i++;
  };
  for (; i < source.length; i++) {
    const char = source[i]!;
    if (char === "/" && source[i + 1] === "/") i = endOf(source.indexOf("\n", i));
    else if (char === "/" && source[i + 1] === "*") i = endOf(source.indexOf("*/", i + 2)) + 1;
    else if (char === '"' || char === "'") {
      for (i++; i < source.length && source[i] !== char && source[i] !== "\n"; i++) if (source[i] === "\\") i++;
    } else if (char === "`") {
      i++;
      skipTemplateText();
    } else if (char === "(" || char === "[" || char === "{") open.push(char);
    else if (char === ")" || char === "]") open.pop();
    else if (char === "}" && open.pop() === "${") {
      i++;
      skipTemplateText();
    }
    if (open.length > deepest) {
      deepest = open.length;
      at = i;
    }
  }
  return { depth: deepest, at };
}

// esbuild rewrites the source, so the compiled AST has no source positions; the first textual
// occurrence is a good enough pointer for the author, and the AST has already decided.
function refuseEscapeHatches(program: Program, source: string): void {
  const refusals: string[] = [];
  const refuseOnce = (message: string, sourcePattern: RegExp) => {
    const located = `${locateInSource(source, sourcePattern)}${message}`;
    if (!refusals.includes(located)) refusals.push(located);
  };
  const checkSource = (node: { source?: AnyNode | null | undefined }) => {
    const specifier = node.source?.type === "Literal" ? node.source.value : undefined;
    if (node.source && specifier !== PLAYER) {
      refuseOnce(describeForbiddenSpecifier(String(specifier)), /\bimport\b|\bexport\b/);
    }
  };

  simple(program, {
    ImportExpression() {
      refuseOnce(
        `Dynamic import() is not allowed. A deck is one static module; import components at the top with import { … } from "${PLAYER}"`,
        /\bimport\s*\(/,
      );
    },
    MetaProperty(node) {
      if (node.meta.name === "import") {
        refuseOnce("import.meta is not available in a deck module", /\bimport\s*\.\s*meta\b/);
      }
    },
    Identifier(node) {
      // Any reference, not just calls: esbuild turns require(variable) into a __require shim that
      // reads the global `require`.
      if (node.name === "require") refuseOnce("require() is not allowed in a deck module", /\brequire\b/);
    },
    ImportDeclaration: checkSource,
    ExportNamedDeclaration: checkSource,
    ExportAllDeclaration: checkSource,
  });

  if (refusals.length > 0) throw new AppError("compile_failed", refusals.join("\n"));
}

function locateInSource(source: string, pattern: RegExp): string {
  const match = pattern.exec(source);
  if (!match) return "";
  const before = source.slice(0, match.index);
  const line = before.split("\n").length;
  const column = match.index - before.lastIndexOf("\n");
  return `Line ${line}:${column}: `;
}

type PlayerBindings = {
  /** Local names of `jsx` and `jsxs` (esbuild renames them on collisions). */
  jsx: Set<string>;
  /** Local names of the section component (renamed imports included). */
  section: Set<string>;
  /** Local names of `import * as ns from "@deckhand/player"`, kept by esbuild for dynamic access. */
  namespaces: Set<string>;
};

function extractOutline(program: Program, component: "Slide" | "Beat"): string[] {
  const bindings = readPlayerBindings(program, component);
  const sections: Array<{ start: number; label: string | undefined }> = [];

  simple(program, {
    CallExpression(node) {
      if (!isSectionElement(node, component, bindings)) return;
      sections.push({ start: node.start, label: readLiteralLabel(node.arguments[1]) });
    },
  });

  // simple() visits children before parents; source order is what authors expect.
  sections.sort((a, b) => a.start - b.start);
  return sections.map((section, index) => section.label ?? `${component} ${index + 1}`);
}

// `src` of Image and `image` of the section component, when the value is a static string.
function extractImages(program: Program, section: "Slide" | "Beat"): ImageReference[] {
  const image = readPlayerBindings(program, "Image");
  const sections = readPlayerBindings(program, section);
  const images: ImageReference[] = [];
  simple(program, {
    CallExpression(node) {
      const prop = isSectionElement(node, "Image", image)
        ? "src"
        : isSectionElement(node, section, sections)
          ? "image"
          : null;
      const props = node.arguments[1];
      if (!prop || props?.type !== "ObjectExpression") return;
      for (const property of props.properties) {
        if (property.type !== "Property" || property.computed) continue;
        if (propertyName(property) !== prop) continue;
        const url = readStaticString(property.value)?.trim();
        if (url) images.push({ url, start: property.value.start, end: property.value.end });
      }
    },
  });
  return images.sort((a, b) => a.start - b.start);
}

function readPlayerBindings(program: Program, component: string): PlayerBindings {
  const bindings: PlayerBindings = { jsx: new Set(), section: new Set(), namespaces: new Set() };
  for (const statement of program.body) {
    if (statement.type !== "ImportDeclaration" || statement.source.value !== PLAYER) continue;
    for (const specifier of statement.specifiers) {
      if (specifier.type === "ImportNamespaceSpecifier") {
        bindings.namespaces.add(specifier.local.name);
        continue;
      }
      if (specifier.type !== "ImportSpecifier") continue;
      const imported = specifier.imported.type === "Identifier" ? specifier.imported.name : specifier.imported.value;
      if (imported === "jsx" || imported === "jsxs") bindings.jsx.add(specifier.local.name);
      if (imported === component) bindings.section.add(specifier.local.name);
    }
  }
  return bindings;
}

function isSectionElement(node: CallExpression, component: string, bindings: PlayerBindings): boolean {
  if (node.callee.type !== "Identifier" || !bindings.jsx.has(node.callee.name)) return false;
  const type = node.arguments[0];
  if (type?.type === "Identifier") return bindings.section.has(type.name);
  return (
    type?.type === "MemberExpression" &&
    type.object.type === "Identifier" &&
    bindings.namespaces.has(type.object.name) &&
    !type.computed &&
    type.property.type === "Identifier" &&
    type.property.name === component
  );
}

/** An object property's name as written (`label` or `"label"`); undefined for other keys. */
function propertyName(property: Property): unknown {
  return property.key.type === "Identifier"
    ? property.key.name
    : property.key.type === "Literal"
      ? property.key.value
      : undefined;
}

/** The `label` prop when it is static text; undefined for expressions, which only run in the player. */
function readLiteralLabel(props: Expression | SpreadElement | undefined): string | undefined {
  if (props?.type !== "ObjectExpression") return undefined;
  let label: string | undefined;
  for (const property of props.properties) {
    if (property.type !== "Property" || property.computed) continue;
    if (propertyName(property) !== "label") continue;
    // The last `label` wins, as it does at runtime.
    label = readStaticString(property.value);
  }
  const normalized = label?.replace(/\s+/g, " ").trim();
  return normalized ? normalized : undefined;
}

function readStaticString(node: Expression): string | undefined {
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral" && node.expressions.length === 0)
    return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

function describeMissingSections(format: DeckFormat): string {
  if (format === "slides") {
    return `A slides deck needs at least one <Slide> inside <Deck>. Import Slide from "${PLAYER}" and write each <Slide label="…"> directly in the module; the outline is read from them.`;
  }
  return `A webpage deck needs at least one <Beat> inside <Deck>. Import Beat from "${PLAYER}" and write each <Beat label="…"> directly in the module; the outline is read from them.`;
}
