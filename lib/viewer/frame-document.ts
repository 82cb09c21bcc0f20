import { createHash } from "node:crypto";
import type { PlayerConfig, PlayerMode } from "@/lib/contract/player";
import { reserializeStoredTokensCss } from "@/lib/source/tokens";
import { defaultTokensCss } from "@/lib/source/theme-tokens";
import { ASSET_PATH } from "@/lib/assets/assets";
import { playerAssets } from "./assets";
import { htmlDocument, htmlResponse, jsonScript } from "./html";
import type { DeckFormat } from "@/lib/contract/deck";
import { escapeHtml } from "@/lib/contract/text";

// The document a deck module runs in. It is always sandboxed: the CSP's `sandbox allow-scripts` gives it
// an opaque origin even when opened directly (and the viewer's iframe adds sandbox="allow-scripts"), so
// deck code can read no cookie or storage of the app and cannot navigate the page around it. The CSP
// allows scripts only from the player's assets and this deck's module, styles and fonts only from the
// player, images only from the player, the asset path (/assets/, the organization's stored images), data:
// URLs and this deck's brand logo (that one URL, on the same origin), and no network at all (connect-src 'none'). The Diagram renderer is one of the player's
// assets: a deck that draws a <Diagram> imports it from /player/ (PlayerConfig.diagramUrl).

export type FrameOptions = {
  /** Origin this document is served from (the app, or DECK_CONTENT_ORIGIN). */
  origin: string;
  /** Absolute URL of the compiled module; its folder is what the CSP allows. */
  moduleUrl: string;
  /** The deck's stored tokens; only their re-serialised, validated parts are written into the document. */
  tokensCss: string;
  format: DeckFormat;
  title: string;
  mode: PlayerMode;
  slide: number;
  chrome: boolean;
  embedded: boolean;
  /** The editor's preview: text editable in place (PlayerConfig.edit). Only the preview frame route sets it. */
  edit?: boolean;
  /** Who may frame this document: the app's origins, or "*" for embeds. */
  frameAncestors: string[];
  /**
   * The deck's brand logo: its absolute URL on `origin` (the route beside the module, see
   * lib/viewer/logo.ts) and the brand's name; null when the deck has none.
   */
  logo: { url: string; alt: string } | null;
};

export function renderFrameDocument(options: FrameOptions): Response {
  const assets = playerAssets();
  const abs = (assetPath: string) => `${options.origin}${assetPath}`;
  const importMap = JSON.stringify({ imports: { "@deckhand/player": abs(assets.runtime) } });
  const importMapHash = createHash("sha256").update(importMap).digest("base64");
  const config: PlayerConfig = {
    moduleUrl: options.moduleUrl,
    format: options.format,
    mode: options.mode,
    slide: options.slide,
    title: options.title,
    chrome: options.chrome,
    embedded: options.embedded,
    logo: options.logo,
    diagramUrl: abs(assets.diagram),
    formulaUrl: abs(assets.formula),
    ...(options.edit ? { edit: true } : {}),
  };

  // The default theme comes first, in a sheet of its own (the deck's may start with @import rules), so the
  // tokens a deck leaves out keep their defaults, as the authoring brief promises.
  // Defence in depth: rows stored before token values were checked the way a browser reads them are
  // served only as re-serialised from their valid parts (the default theme when none are left), never as
  // stored. The "<" escape below is then a second guard; re-serialised tokens never contain one.
  const tokensCss = reserializeStoredTokensCss(options.tokensCss) ?? defaultTokensCss;

  const player = `${options.origin}/player/`;
  const csp = [
    "default-src 'none'",
    `script-src ${player} ${options.moduleUrl.slice(0, options.moduleUrl.lastIndexOf("/") + 1)} 'sha256-${importMapHash}'`,
    `style-src ${player} 'unsafe-inline'`,
    `font-src ${player}`,
    // The organization's images (lib/assets): immutable files under one path of this origin.
    `img-src ${player} ${options.origin}${ASSET_PATH} data:${options.logo ? ` ${cspSource(options.logo.url)}` : ""}`,
    "connect-src 'none'",
    "media-src 'none'",
    "object-src 'none'",
    "frame-src 'none'",
    "worker-src 'none'",
    "manifest-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    // Every string made into markup or a script goes through the player's "default" policy, which refuses
    // frames, links and meta refreshes (components/player/shell/lockdown.ts); deck code cannot add another.
    "require-trusted-types-for 'script'",
    "trusted-types default",
    `frame-ancestors ${options.frameAncestors.join(" ")}`,
    "sandbox allow-scripts",
  ].join("; ");

  // The deck's module is fetched with the runtime (modulepreload) rather than once the runtime has run.
  const html = htmlDocument({
    title: options.title,
    head: `<link rel="stylesheet" href="${abs(assets.fonts)}">
<link rel="stylesheet" href="${abs(assets.player)}">
<style id="dh-default-tokens">${defaultTokensCss}</style>
<style id="dh-tokens">${tokensCss.replace(/</g, "\\3c ")}</style>
<script type="importmap">${importMap}</script>
<link rel="modulepreload" href="${abs(assets.runtime)}">
<link rel="modulepreload" href="${escapeHtml(options.moduleUrl)}">`,
    body: `<div id="dh-root"></div>
${jsonScript("dh-config", config)}
<script type="module" src="${abs(assets.boot)}"></script>`,
  });
  return htmlResponse(html, {
    headers: {
      "Content-Security-Policy": csp,
      "Cache-Control": "private, no-cache",
      "Cross-Origin-Resource-Policy": "cross-origin",
    },
  });
}

// One URL as a CSP source expression: a path without a trailing "/" matches exactly that path (the query
// is never part of the match). Characters that would end the expression or the directive are escaped.
function cspSource(url: string): string {
  return url.replace(/[;,\s]/g, (character) => encodeURIComponent(character));
}

// The compiled module, fetched by the opaque-origin frame in CORS mode (Origin: null).
// Versions are immutable, so a module URL (which names its version) can be cached.
export function moduleResponse(compiledJs: string, cacheControl: string): Response {
  return new Response(compiledJs, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Access-Control-Allow-Origin": "*",
      "Cache-Control": cacheControl,
      "X-Content-Type-Options": "nosniff",
      "Cross-Origin-Resource-Policy": "cross-origin",
    },
  });
}

// Query parameters the frame routes accept: ?slide=N (1-based), ?mode=present|thumb|export, ?chrome=0, and
// ?edit=1, which only the editor's preview frame honours (lib/viewer/serve.ts).
export function readFrameQuery(url: URL): { slide: number; mode: PlayerMode; chrome: boolean; edit: boolean } {
  const slide = Number.parseInt(url.searchParams.get("slide") ?? "1", 10);
  const mode = url.searchParams.get("mode");
  return {
    slide: Number.isFinite(slide) && slide > 0 ? Math.min(slide, 10_000) - 1 : 0,
    mode: mode === "thumb" || mode === "export" ? mode : "present",
    chrome: url.searchParams.get("chrome") !== "0",
    edit: url.searchParams.get("edit") === "1",
  };
}
