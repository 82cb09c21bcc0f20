import { createHash } from "node:crypto";
import { playerAssets } from "./assets";

// The names that let the editor's preview draw a new draft in place (components/app/editor/preview-frame.tsx):
// a draft's module is served beside its preview frame under a hash of its code (/preview/{token}/module/{hash},
// only while it is the draft's module), and a key of everything else the frame document holds tells whether
// a frame already loaded can draw it, or a new frame must be loaded.

function hash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 32);
}

/** The name the draft's compiled module is served under: 32 hex digits of its SHA-256. */
export function draftModuleName(compiledJs: string): string {
  return hash(compiledJs);
}

export const DRAFT_MODULE_NAME = /^[0-9a-f]{32}$/;

/**
 * What a preview frame document holds besides the module (lib/viewer/frame-document.ts): the player's
 * assets, the deck's format and title, its brand (the logo) and the tokens written into the document.
 * The same key: a frame already loaded draws the new module in place; another: a new frame is loaded.
 */
export function draftFrameKey(deck: { format: string; title: string; brandId: string | null }, tokensCss: string) {
  return hash(JSON.stringify([playerAssets(), deck.format, deck.title, deck.brandId, tokensCss]));
}
