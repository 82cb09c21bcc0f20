// Where to go after signing in (`?next=`): only a path of this app, never another origin, else the library.
// A path passes when it is already what a browser would make of it: it starts with one "/", holds only
// URL characters (no backslash, whitespace or control character, which browsers read as "/" or drop), has
// no "//" (a scheme-relative URL once a dot segment is removed) and no "." or ".." segment, and resolves on
// this origin to exactly itself.
const FALLBACK = "/decks";
const BASE = "http://deckhand.invalid";
const allowed = /^\/(?!\/)[\w\-./?=&%#~+,:@!*'()$]*$/;

export function safeNextPath(value: string | undefined | null): string {
  if (!value || value.length > 2048 || !allowed.test(value)) return FALLBACK;
  const path = value.split(/[?#]/, 1)[0]!;
  if (path.includes("//") || path.split("/").some((segment) => segment === "." || segment === "..")) return FALLBACK;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return FALLBACK;
  }
  if (url.origin !== BASE || `${url.pathname}${url.search}${url.hash}` !== value) return FALLBACK;
  return value;
}
