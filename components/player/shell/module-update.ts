// The editor's preview draws a newly compiled module in place: the editor posts `update` with the module's
// URL, the player imports it and draws it on the slide on screen, without a new document (a new frame
// document costs a navigation, the player's scripts and styles, and fonts again). Only the editor's preview
// frame listens (edit mode), and only to its parent. The deck check's renderer does the same with the page
// it keeps for a deck (export mode, not embedded: the message is posted by the renderer to the page itself),
// with the renderer's module folder (/module/) in place of a preview's.
//
// The URL is checked strictly before anything is imported, although the frame's CSP would refuse other
// scripts anyway: an absolute http(s) URL written exactly as the browser writes it, on the origin of the
// frame's own module, in the same folder (for a preview, /preview/{token}/module/: this preview token's
// modules and no other's), with a plain last segment (letters, digits, "-" and "_"), no user or password,
// no fragment, and the same query as the frame's own module URL. Anything else is refused.

import { MODULE_URL_MAX, type ModuleUpdateMessage } from "@/lib/contract/player";

const SEGMENT = /^[0-9A-Za-z_-]{1,64}$/;
const PREVIEW_FOLDER = /^\/preview\/[0-9A-Za-z_.-]{1,512}\/module\/$/;
const RENDER_FOLDER = /^\/module\/$/;

function folderOf(pathname: string): string {
  return pathname.slice(0, pathname.lastIndexOf("/") + 1);
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** The URL an `update` message names, when it is well-formed (exact fields, a bounded string); else null. */
export function readUpdateMessage(data: unknown): string | null {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return null;
  const prototype = Object.getPrototypeOf(data);
  if (prototype !== Object.prototype && prototype !== null) return null;
  const message = data as Partial<ModuleUpdateMessage>;
  const keys = Object.keys(data);
  if (keys.length !== 3 || !["source", "type", "moduleUrl"].every((key) => Object.hasOwn(data, key))) return null;
  if (message.source !== "deckhand-viewer" || message.type !== "update") return null;
  if (typeof message.moduleUrl !== "string" || message.moduleUrl.length > MODULE_URL_MAX) return null;
  return message.moduleUrl;
}

/**
 * Whether `next` is a module this frame may draw in place of `current` (its own module's URL): in a
 * preview's module folder, or in the renderer's (`renderer`, the deck check's page).
 */
export function isSiblingModule(next: string, current: string, renderer = false): boolean {
  const url = parse(next);
  const own = parse(current);
  if (!url || !own || url.href !== next) return false;
  if (url.protocol !== "https:" && url.protocol !== "http:") return false;
  if (url.origin !== own.origin || url.username !== "" || url.password !== "" || url.hash !== "") return false;
  if (url.search !== own.search) return false;
  const folder = folderOf(url.pathname);
  if (folder !== folderOf(own.pathname) || !(renderer ? RENDER_FOLDER : PREVIEW_FOLDER).test(folder)) return false;
  return SEGMENT.test(url.pathname.slice(folder.length));
}
