import path from "node:path";

// The layers of the house, from the bottom up, and which folders each may import. A folder may import
// its own files, the layers below it and the folders it lists in `also`; nothing imports upward. The ESLint
// rule below enforces it on every import, export-from and import() of the product's code (type-only
// imports too: a type from a higher layer still ties the lower one to it), and
// tests/unit/layers.test.ts checks the whole graph with it and that the folders of lib/ form no cycle.
// ARCHITECTURE.md draws the same table.

/** @typedef {{ name: string; units: string[]; alone?: boolean; also?: string[] }} Layer */

/** @type {Layer[]} */
export const layers = [
  // Pure data, types and functions shared by the server and the player: no DOM, no Node, no imports.
  { name: "contract", units: ["lib/contract"], alone: true },
  { name: "shared basics", units: ["lib/core"] },
  { name: "database", units: ["lib/db"] },
  { name: "deck code", units: ["lib/deck"] },
  { name: "services", units: ["lib/net", "lib/storage", "lib/limits", "lib/jobs"] },
  {
    name: "domain",
    units: [
      "lib/auth",
      "lib/usage",
      "lib/decks",
      "lib/brands",
      "lib/assets",
      "lib/viewer",
      "lib/analytics",
      "lib/render",
      "lib/exports",
      "lib/ai",
      "lib/import",
      "lib/app",
    ],
  },
  { name: "adapters", units: ["lib/api", "lib/mcp"] },
  { name: "app", units: ["app", "components/app", "components/ui", "components", "inngest", "(root)", "scripts"] },
  // The browser bundle: its own files and the contract, nothing of the server's.
  { name: "player", units: ["components/player"], alone: true, also: ["lib/contract"] },
  // The typed client is published for code outside this repository: it imports nothing of ours.
  // packages/client is its source (published as @deckhand/client); lib/client re-exports it for this repository.
  { name: "client", units: ["lib/client", "packages"], alone: true },
];

/** The folder a file belongs to: "lib/<name>" or "components/<name>", else its top-level folder. */
export function unitOf(file) {
  const parts = file.split("/");
  if (parts.length === 1) return "(root)";
  if ((parts[0] === "lib" || parts[0] === "components") && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts[0];
}

const layerIndex = new Map(layers.flatMap((layer, index) => layer.units.map((unit) => [unit, index])));

/** Whether code in folder `from` may import folder `to`; units outside the table (tests) are not checked. */
export function mayImport(from, to) {
  if (from === to) return true;
  const a = layerIndex.get(from);
  const b = layerIndex.get(to);
  if (a === undefined || b === undefined) return true;
  if (a === b) return true;
  if (layers[a].also?.includes(to)) return true;
  // The contract, the player and the client import nothing else; the player and the client are bundled
  // or published on their own, so nothing imports them either.
  if (layers[a].alone) return false;
  if (layers[b].alone && to !== "lib/contract") return false;
  return b <= a;
}

function layerOf(unit) {
  const index = layerIndex.get(unit);
  return index === undefined ? undefined : layers[index].name;
}

/** A specifier as a path from the repository root ("@/lib/x" → "lib/x"), or undefined for packages. */
function specifierPath(fromFile, specifier) {
  if (specifier === "@deckhand/player") return "components/player/runtime.ts";
  if (specifier.startsWith("@/")) return specifier.slice(2);
  if (specifier.startsWith(".")) return path.posix.join(path.posix.dirname(fromFile), specifier);
  return undefined;
}

/** @type {import("eslint").Rule.RuleModule} */
const layersRule = {
  meta: {
    type: "problem",
    docs: { description: "Keep imports within the layers of scripts/lint/layers.mjs" },
    messages: {
      upward:
        "{{from}} ({{fromLayer}}) may not import {{to}} ({{toLayer}}): imports go down the layers of scripts/lint/layers.mjs, never up or sideways into the player, the contract or the client.",
    },
    schema: [],
  },
  create(context) {
    const file = path.relative(context.cwd, context.filename).split(path.sep).join("/");
    const from = unitOf(file);
    if (layerIndex.get(from) === undefined) return {};
    const check = (node, source) => {
      if (!source || typeof source.value !== "string") return;
      const target = specifierPath(file, source.value);
      if (target === undefined) return;
      const to = unitOf(target);
      if (mayImport(from, to)) return;
      context.report({
        node,
        messageId: "upward",
        data: { from, to, fromLayer: layerOf(from), toLayer: layerOf(to) ?? "outside the layers" },
      });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};

export const layersPlugin = { rules: { layers: layersRule } };
