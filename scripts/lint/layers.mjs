import path from "node:path";

// The layers of the house, from the bottom up, and which folders each may import. A folder may import
// its own files, the layers below it and the folders it lists in `also`; nothing imports upward. A layer of
// `ranks` orders its own folders too (bottom → top): a folder imports the folders of the ranks below its own,
// never one beside it in its rank nor above, so a new folder's place says what it may use. The ESLint rule
// below enforces it on every import, export-from and import() of the product's code (type-only imports too:
// a type from a higher layer still ties the lower one to it), with two rules of the app layer's own (see
// `appRule`), and tests/unit/layers.test.ts checks the whole graph with it and that the folders of lib/ form
// no cycle. ARCHITECTURE.md draws the same table.

/** @typedef {{ name: string; units?: string[]; ranks?: string[][]; alone?: boolean; also?: string[] }} LayerSpec */
/** @typedef {LayerSpec & { units: string[] }} Layer */

/** @type {LayerSpec[]} */
const table = [
  // Pure data, types and functions shared by the server and the player: no DOM, no Node, no imports.
  { name: "contract", units: ["lib/contract"], alone: true },
  { name: "shared basics", units: ["lib/core"] },
  { name: "database", units: ["lib/db"] },
  { name: "deck code", units: ["lib/source"] },
  // Independent services: none uses another.
  { name: "services", ranks: [["lib/net", "lib/storage", "lib/limits", "lib/jobs"]] },
  {
    name: "domain",
    ranks: [
      ["lib/usage", "lib/app"], // allowances and features; the app's security headers
      ["lib/auth"], // accounts, keys, organizations, the caller
      ["lib/assets"], // the organization's images
      ["lib/viewer", "lib/brands"], // the documents a deck is shown in; brand books
      ["lib/decks"], // decks and versions (mints the viewer's preview tokens)
      ["lib/render", "lib/analytics"], // Chromium drawing decks; how shared decks are read
      ["lib/exports", "lib/ai"], // PDF and PPTX; generating and editing with a model
      ["lib/import"], // PowerPoint and Markdown import (Markdown through the model)
    ],
  },
  { name: "adapters", ranks: [["lib/api"], ["lib/mcp"]] },
  // Next.js glue that is not a route: sessions, the server-action wrapper and every server action.
  { name: "app server", units: ["server"] },
  { name: "app", units: ["app", "components/app", "components/ui", "components", "inngest", "(root)", "scripts"] },
  // The browser bundle: its own files and the contract, nothing of the server's.
  { name: "player", units: ["components/player"], alone: true, also: ["lib/contract"] },
  // The typed client is published for code outside this repository: it imports nothing of ours.
  // packages/client is its source (published as @deckhand/client); lib/client re-exports it for this repository.
  { name: "client", units: ["lib/client", "packages"], alone: true },
];

/** @type {Layer[]} */
export const layers = table.map((layer) => ({ ...layer, units: layer.units ?? layer.ranks?.flat() ?? [] }));

/** The folder a file belongs to: "lib/<name>" or "components/<name>", else its top-level folder. */
export function unitOf(file) {
  const parts = file.split("/");
  if (parts.length === 1) return "(root)";
  if ((parts[0] === "lib" || parts[0] === "components") && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts[0];
}

const layerIndex = new Map(layers.flatMap((layer, index) => layer.units.map((unit) => [unit, index])));
const rankIndex = new Map(
  layers.flatMap((layer) => (layer.ranks ?? []).flatMap((rank, index) => rank.map((unit) => [unit, index]))),
);

/** Why folder `from` may not import folder `to` ("upward" or "sideways"), or undefined when it may; units
 * outside the table (tests) are not checked. */
function whyNot(from, to) {
  if (from === to) return undefined;
  const a = layerIndex.get(from);
  const b = layerIndex.get(to);
  if (a === undefined || b === undefined) return undefined;
  if (a === b) {
    // A ranked layer: only the ranks below; a layer of plain units: each other freely.
    if (!layers[a].ranks) return undefined;
    return rankIndex.get(to) < rankIndex.get(from) ? undefined : "sideways";
  }
  if (layers[a].also?.includes(to)) return undefined;
  // The contract, the player and the client import nothing else; the player and the client are bundled
  // or published on their own, so nothing imports them either.
  if (layers[a].alone) return "upward";
  if (layers[b].alone && to !== "lib/contract") return "upward";
  return b <= a ? undefined : "upward";
}

function layerOf(unit) {
  const index = layerIndex.get(unit);
  return index === undefined ? undefined : layers[index].name;
}

/** Whether the file `from` may import the file `to` (paths from the repository root). */
export function mayImportFile(from, to) {
  return whyNotFile(from, to) === undefined;
}

// The files of a route folder that render it; only they import components.
const RENDERING_FILE = /^(page|layout|template|loading|error|global-error|not-found|default)\.tsx?$/;

// The app layer's own two rules, on files: Next.js loads app/ itself, so nothing outside app/ imports it
// (client components call server actions from server/actions/, never from a route folder); and inside
// app/ only the files that render a route import components (route handlers answer with lib/ and server/).
function whyNotFile(from, to) {
  const a = unitOf(from);
  const b = unitOf(to);
  if (b === "app" && a !== "app" && layerIndex.has(a)) return "intoApp";
  if (a === "app" && to.startsWith("components/") && !RENDERING_FILE.test(path.posix.basename(from))) {
    return "componentsOutsidePage";
  }
  return whyNot(a, b);
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
      sideways:
        "{{from}} may not import {{to}}: in the {{fromLayer}} layer a folder imports only the folders ranked below its own in scripts/lint/layers.mjs (move the shared code down, or the folder up).",
      intoApp:
        "{{fromFile}} may not import {{toFile}}: nothing outside app/ imports a route folder; server actions and the session live in server/ (scripts/lint/layers.mjs).",
      componentsOutsidePage:
        "{{fromFile}} may not import {{toFile}}: in app/ only the files that render a route (page, layout, error, …) import components (scripts/lint/layers.mjs).",
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
      const why = whyNotFile(file, target);
      if (why === undefined) return;
      context.report({
        node,
        messageId: why,
        data: {
          from,
          to,
          fromFile: file,
          toFile: target,
          fromLayer: layerOf(from),
          toLayer: layerOf(to) ?? "outside the layers",
        },
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
