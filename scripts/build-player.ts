// Builds the player's browser assets into public/player/ (content-hashed, immutable) and writes
// public/player/manifest.json, which the server reads to link them:
//   runtime   the `@deckhand/player` ES module (vocabulary, JSX runtime, React, mountPlayer)
//   boot      the frame document's script; imports "@deckhand/player" through the import map
//   viewer    the share page's script around the sandboxed frame
//   presenter the presenter window's script
//   css       player chrome + vocabulary styles;  fonts  @font-face rules of the shipped fonts
//   extract   the PPTX exporter's DOM walker, evaluated in the renderer's page
// and, for the server, dist/compile-worker.mjs: the deck compiler as a worker thread (lib/deck/compile-pool.ts).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import postcss from "postcss";
import { shippedFonts } from "../lib/deck/fonts";

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const outdir = path.join(root, "public", "player");
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
    metafile: true,
    logLevel: "warning",
  });
  const files: Record<string, string> = {};
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    if (!output.entryPoint) continue;
    const name = path.basename(file).replace(/-[A-Z0-9]+\.(js|css)$/, "");
    files[name] = `/player/${path.relative(outdir, path.join(root, file))}`;
  }
  // The PPTX extractor is evaluated by the renderer as a classic script, so it is built on its own.
  const extract = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { extract: "components/player/export/extract-slides.ts" },
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
  for (const file of Object.keys(extract.metafile.outputs)) files.extract = `/player/${path.basename(file)}`;
  return files;
}

// @font-face rules for the shipped fonts, latin and latin-ext subsets, woff2 only, files copied locally.
async function buildFonts(): Promise<Record<string, string>> {
  const fontsDir = path.join(outdir, "fonts");
  fs.mkdirSync(fontsDir, { recursive: true });
  const rules: string[] = [];
  for (const font of shippedFonts) {
    const pkg = path.join(root, "node_modules", font.package);
    const variants = [...font.weights.map((w) => `${w}`), ...(font.italic ? ["400-italic"] : [])];
    for (const variant of variants) {
      for (const subset of ["latin-ext", "latin"]) {
        const cssFile = path.join(pkg, `${subset}-${variant}.css`);
        if (!fs.existsSync(cssFile))
          throw new Error(`${font.family}: ${cssFile} is missing (is ${font.package} installed?)`);
        postcss.parse(fs.readFileSync(cssFile, "utf8")).walkAtRules("font-face", (rule) => {
          rule.walkDecls("src", (decl) => {
            const woff2 = /url\(\.\/files\/([^)]+\.woff2)\)/.exec(decl.value)?.[1];
            if (!woff2) throw new Error(`${cssFile}: no woff2 source`);
            fs.copyFileSync(path.join(pkg, "files", woff2), path.join(fontsDir, woff2));
            decl.value = `url(fonts/${woff2}) format("woff2")`;
          });
          rule.walkDecls("font-family", (decl) => {
            decl.value = JSON.stringify(font.family);
          });
          rules.push(rule.toString());
        });
      }
    }
  }
  const css = `/* Shipped open fonts (SIL Open Font License / Apache 2.0, via @fontsource). */\n${rules.join("\n")}\n`;
  const hash = createHash("sha256").update(css).digest("hex").slice(0, 8).toUpperCase();
  const name = `fonts-${hash}.css`;
  fs.writeFileSync(path.join(outdir, name), css);
  return { fonts: `/player/${name}` };
}

async function buildCompileWorker() {
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ["lib/deck/compile-worker.ts"],
    outfile: "dist/compile-worker.mjs",
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // esbuild runs its own binary from node_modules.
    external: ["esbuild"],
    logLevel: "warning",
  });
}

fs.rmSync(outdir, { recursive: true, force: true });
fs.mkdirSync(outdir, { recursive: true });
const manifest = { ...(await buildScripts()), ...(await buildFonts()) };
await buildCompileWorker();
fs.writeFileSync(path.join(outdir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);

if (!process.env.QUIET) {
  const runtime = fs.readFileSync(path.join(root, "public", manifest.runtime!));
  console.log(
    `player built: runtime ${(runtime.length / 1024).toFixed(1)} KiB (${(gzipSync(runtime).length / 1024).toFixed(1)} KiB gzipped)`,
  );
}
