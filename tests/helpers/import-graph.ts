import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { unitOf } from "../../scripts/lint/layers.mjs";

// The import graph of the source, read with TypeScript's own pre-processor (every import, export-from,
// dynamic import() and require of a file), resolved the way tsconfig resolves it: "@/…" from the root,
// "./…" from the file, "@deckhand/player" to the player's runtime. Packages are kept as bare names.

export const ROOT = path.resolve(import.meta.dirname, "../..");
const SOURCE_DIRS = ["app", "components", "inngest", "lib", "scripts", "server"];
const EXTENSIONS = [".ts", ".tsx", ".mts", ".mjs", ".js"];

/** `local`: a file of this repository (not a package), `to` being its path from the root. */
export type ImportEdge = { from: string; to: string; specifier: string; typeOnly: boolean; local: boolean };

export function sourceFiles(dirs = SOURCE_DIRS): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (EXTENSIONS.some((ext) => name.endsWith(ext)) && !name.endsWith(".d.ts")) files.push(full);
    }
  };
  for (const dir of dirs) walk(path.join(ROOT, dir));
  for (const name of readdirSync(ROOT)) {
    if (EXTENSIONS.some((ext) => name.endsWith(ext)) && !name.endsWith(".d.ts")) files.push(path.join(ROOT, name));
  }
  return files.map((file) => path.relative(ROOT, file));
}

function resolveFile(base: string): string | undefined {
  for (const candidate of [
    base,
    ...EXTENSIONS.map((ext) => base + ext),
    ...EXTENSIONS.map((ext) => `${base}/index${ext}`),
  ]) {
    try {
      if (statSync(path.join(ROOT, candidate)).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return undefined;
}

function resolveSpecifier(from: string, specifier: string): string {
  if (specifier === "@deckhand/player") return "components/player/runtime.ts";
  if (specifier.startsWith("@/")) return resolveFile(specifier.slice(2)) ?? specifier;
  if (specifier.startsWith(".")) return resolveFile(path.join(path.dirname(from), specifier)) ?? specifier;
  return specifier;
}

// True when every import clause of the statement is type-only (erased at runtime).
function typeOnlyImports(source: string): Map<string, boolean> {
  const result = new Map<string, boolean>();
  const file = ts.createSourceFile("x.tsx", source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      const name = statement.moduleSpecifier.text;
      result.set(name, (result.get(name) ?? true) && typeOnly);
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      const name = statement.moduleSpecifier.text;
      result.set(name, (result.get(name) ?? true) && statement.isTypeOnly);
    }
  }
  return result;
}

export function importEdges(files = sourceFiles()): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const from of files) {
    const source = readFileSync(path.join(ROOT, from), "utf8");
    const typeOnly = typeOnlyImports(source);
    for (const reference of ts.preProcessFile(source, true, true).importedFiles) {
      const specifier = reference.fileName;
      edges.push({
        from,
        to: resolveSpecifier(from, specifier),
        specifier,
        typeOnly: typeOnly.get(specifier) ?? false,
        local: specifier.startsWith(".") || specifier.startsWith("@/") || specifier === "@deckhand/player",
      });
    }
  }
  return edges;
}

// Cycles between units, as lists of unit names (Tarjan's strongly connected components of size > 1).
export function unitCycles(edges: Array<{ from: string; to: string }>): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    const a = unitOf(from);
    const b = unitOf(to);
    if (a === b) continue;
    if (!graph.has(a)) graph.set(a, new Set());
    if (!graph.has(b)) graph.set(b, new Set());
    graph.get(a)!.add(b);
  }
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (node: string) => {
    indices.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indices.get(next)!));
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) connect(node);
  return components;
}
