// Builds the player's browser assets into public/player/ (content-hashed, immutable) and writes
// public/player/manifest.json, which the server reads to link them:
//   runtime   the `@deckhand/player` ES module (vocabulary, JSX runtime, React, mountPlayer)
//   boot      the frame document's script; imports "@deckhand/player" through the import map
//   viewer    the share page's script around the sandboxed frame
//   presenter the presenter window's script
//   css       player chrome + vocabulary styles;  fonts  @font-face rules of the shipped fonts
//   extract   the PPTX exporter's DOM walker, evaluated in the renderer's page
//   check     the deck check's measurements, evaluated the same way
//   diagram   the Diagram renderer (mermaid), split into chunks under diagram/; the player imports it
//             only for decks that draw a <Diagram>, so the runtime never grows with it
//   formula   the Formula renderer (KaTeX), imported the same way for decks that draw a <Formula>; its
//             stylesheet is part of css and its fonts (woff2) are copied under assets/
// and, for the server, dist/compile-worker.mjs, dist/brand-worker.mjs, dist/offline-worker.mjs and
// dist/pptx-worker.mjs: the deck compiler (lib/source/compile-pool.ts), the brand extractor
// (lib/brands/extract/off-thread.ts), the offline generator (lib/ai/offline/off-thread.ts) and the PowerPoint
// reader (lib/import/pptx/off-thread.ts) as worker threads.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import postcss from "postcss";
import { emojiFont, shippedFonts } from "../lib/contract/fonts";

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
// Everything is built into a staging folder first and then published file by file (see publish()).
const staging = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-player-"));
const outdir = path.join(staging, "player");
const production = process.env.NODE_ENV !== "development";

async function buildScripts() {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: {
      runtime: "components/player/runtime.ts",
      boot: "components/player/boot.ts",
      viewer: "components/player/viewer.ts",
      presenter: "components/player/presenter.ts",
      player: "components/player/player.css",
    },
    outdir,
    entryNames: "[name]-[hash]",
    assetNames: "assets/[name]-[hash]",
    bundle: true,
    format: "esm",
    target: ["es2022", "chrome111", "firefox113", "safari16.4"],
    platform: "browser",
    jsx: "automatic",
    minify: production,
    sourcemap: false,
    legalComments: "none",
    external: ["@deckhand/player"],
    define: { "process.env.NODE_ENV": JSON.stringify(production ? "production" : "development") },
    // KaTeX's stylesheet (vocabulary/formula/formula.css) names its fonts in three formats; every browser
    // the player supports reads woff2, so only those are copied.
    loader: { ".woff2": "file" },
    plugins: [woff2Only],
    metafile: true,
    logLevel: "warning",
  });
  const files: Record<string, string> = {};
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    if (!output.entryPoint) continue;
    const name = path.basename(file).replace(/-[A-Z0-9]+\.(js|css)$/, "");
    files[name] = `/player/${path.relative(outdir, path.join(root, file))}`;
  }
  // The PPTX extractor and the deck check's measurements are evaluated by the renderer as classic
  // scripts, so they are built on their own.
  const extract = await esbuild.build({
    absWorkingDir: root,
    entryPoints: {
      extract: "components/player/export/extract-slides.ts",
      check: "components/player/export/check-slides.ts",
    },
    outdir,
    entryNames: "[name]-[hash]",
    bundle: true,
    format: "iife",
    target: ["es2022", "chrome111"],
    minify: production,
    legalComments: "none",
    metafile: true,
    logLevel: "warning",
  });
  for (const file of Object.keys(extract.metafile.outputs)) {
    const name = path.basename(file).replace(/-[A-Z0-9]+\.js$/, "");
    files[name] = `/player/${path.basename(file)}`;
  }
  // The Diagram renderer is a build of its own (esbuild splits only within one build, and splitting the
  // runtime's build would move its code into shared chunks): an ES module entry whose diagram types are
  // chunks it imports on demand, relative to itself, all under /player/ where the frame's CSP allows them.
  const diagram = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { diagram: "components/player/diagram/render.ts" },
    outdir,
    entryNames: "[name]-[hash]",
    chunkNames: "diagram/[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    target: ["es2022", "chrome111", "firefox113", "safari16.4"],
    platform: "browser",
    minify: production,
    legalComments: "none",
    define: { "process.env.NODE_ENV": JSON.stringify(production ? "production" : "development") },
    metafile: true,
    logLevel: "warning",
  });
  for (const [file, output] of Object.entries(diagram.metafile.outputs)) {
    // Chunks that are targets of import() name an entry point too: only the build's own entry counts.
    if (output.entryPoint === "components/player/diagram/render.ts") {
      files.diagram = `/player/${path.relative(outdir, path.join(root, file))}`;
    }
  }
  // The Formula renderer: KaTeX in one ES module of its own, imported by the player only when needed.
  const formula = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { formula: "components/player/vocabulary/formula/render.ts" },
    outdir,
    entryNames: "[name]-[hash]",
    bundle: true,
    format: "esm",
    target: ["es2022", "chrome111", "firefox113", "safari16.4"],
    platform: "browser",
    minify: production,
    legalComments: "none",
    metafile: true,
    logLevel: "warning",
  });
  for (const file of Object.keys(formula.metafile.outputs)) files.formula = `/player/${path.basename(file)}`;
  return files;
}

// KaTeX's @font-face rules list woff2, woff and ttf files; the woff and ttf ones are dropped from them.
const woff2Only: esbuild.Plugin = {
  name: "woff2-only",
  setup(build) {
    build.onLoad({ filter: /katex(\.min)?\.css$/ }, (args) => ({
      contents: fs
        .readFileSync(args.path, "utf8")
        .replace(/,\s*url\([^)]*\.(?:woff|ttf)\)\s*format\("(?:woff|truetype)"\)/g, ""),
      loader: "css",
    }));
  },
};

// @font-face rules for the shipped fonts, latin and latin-ext subsets, woff2 only, files copied locally.
// The rules come from each weight's stylesheet, which gives every subset its unicode-range (the one-subset
// stylesheets do not): so the browser fetches a subset only for text that needs it.
async function buildFonts(): Promise<Record<string, string>> {
  const fontsDir = path.join(outdir, "fonts");
  fs.mkdirSync(fontsDir, { recursive: true });
  const rules: string[] = [];
  const addFaces = (font: { family: string; package: string }, css: string, subsets?: string[]) => {
    const pkg = path.join(root, "node_modules", font.package);
    const cssFile = path.join(pkg, css);
    if (!fs.existsSync(cssFile))
      throw new Error(`${font.family}: ${cssFile} is missing (is ${font.package} installed?)`);
    postcss.parse(fs.readFileSync(cssFile, "utf8")).walkAtRules("font-face", (rule) => {
      let woff2: string | undefined;
      rule.walkDecls("src", (decl) => {
        woff2 = /url\(\.\/files\/([^)]+\.woff2)\)/.exec(decl.value)?.[1];
        if (!woff2) throw new Error(`${cssFile}: no woff2 source`);
        decl.value = `url(fonts/${woff2}) format("woff2")`;
      });
      if (!woff2 || (subsets && !subsets.some((subset) => woff2!.includes(`-${subset}-`)))) return;
      fs.copyFileSync(path.join(pkg, "files", woff2), path.join(fontsDir, woff2));
      rule.walkDecls("font-family", (decl) => {
        decl.value = JSON.stringify(font.family);
      });
      rules.push(rule.toString());
    });
  };
  for (const font of shippedFonts) {
    const variants = [...font.weights.map((w) => `${w}`), ...(font.italic ? ["400-italic"] : [])];
    for (const variant of variants) addFaces(font, `${variant}.css`, ["latin-ext", "latin"]);
  }
  // Every unicode-range part of the emoji font: the browser fetches only the parts a page's text needs.
  addFaces(emojiFont, "400.css");
  const css = `/* Shipped open fonts (SIL Open Font License / Apache 2.0, via @fontsource). */\n${rules.join("\n")}\n`;
  const hash = createHash("sha256").update(css).digest("hex").slice(0, 8).toUpperCase();
  const name = `fonts-${hash}.css`;
  fs.writeFileSync(path.join(outdir, name), css);
  return { fonts: `/player/${name}` };
}

// The server's worker threads: the deck compiler and the brand extractor.
async function buildWorkers() {
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: {
      "compile-worker": "lib/source/compile-worker.ts",
      "brand-worker": "lib/brands/extract/extract-worker.ts",
      "offline-worker": "lib/ai/offline/offline-worker.ts",
      "pptx-worker": "lib/import/pptx/pptx-worker.ts",
    },
    outdir: path.join(staging, "dist"),
    // CommonJS dependencies (postcss) require Node's built-ins, which an ES module bundle must provide.
    banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // esbuild runs its own binary from node_modules.
    external: ["esbuild"],
    logLevel: "warning",
  });
}

// Copies a built folder over the published one without a moment in which a file is missing or half
// written: a server or test run reading the assets while another build runs (a second `npm test`, the
// benchmarks' `next start`) sees either the old file or the new one. New and changed files are written
// beside their name and renamed into place, the manifest last; files the build no longer makes go after.
function publish(from: string, to: string, last?: string) {
  const built = fs.readdirSync(from, { recursive: true }).map(String);
  const files = built.filter((file) => fs.statSync(path.join(from, file)).isFile());
  for (const file of [...files.filter((file) => file !== last), ...files.filter((file) => file === last)]) {
    const target = path.join(to, file);
    const bytes = fs.readFileSync(path.join(from, file));
    if (fs.existsSync(target) && fs.readFileSync(target).equals(bytes)) continue;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(`${target}.${process.pid}.tmp`, bytes);
    fs.renameSync(`${target}.${process.pid}.tmp`, target);
  }
  const kept = new Set(built);
  for (const file of fs.existsSync(to) ? fs.readdirSync(to, { recursive: true }).map(String) : []) {
    const stale = path.join(to, file);
    if (!kept.has(file) && fs.existsSync(stale) && fs.statSync(stale).isFile() && !file.endsWith(".tmp")) {
      fs.rmSync(stale, { force: true });
    }
  }
}

fs.mkdirSync(outdir, { recursive: true });
const manifest = { ...(await buildScripts()), ...(await buildFonts()) };
await buildWorkers();
fs.writeFileSync(path.join(outdir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
publish(outdir, path.join(root, "public", "player"), "manifest.json");
publish(path.join(staging, "dist"), path.join(root, "dist"));
fs.rmSync(staging, { recursive: true, force: true });

if (!process.env.QUIET) {
  const runtime = fs.readFileSync(path.join(root, "public", manifest.runtime!));
  console.log(
    `player built: runtime ${(runtime.length / 1024).toFixed(1)} KiB (${(gzipSync(runtime).length / 1024).toFixed(1)} KiB gzipped)`,
  );
}
