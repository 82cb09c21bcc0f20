import { config, setting } from "@/lib/core/config";

// The headers of the browser app's own pages (library, editor, brands, settings, sign-in). They frame deck
// frames (thumbnails, the editor's preview) and must keep a deck that navigates its frame from taking that
// frame to another host; nobody may frame them; responses are never sniffed; and links out carry only the
// origin. The viewer's pages (/d/…, /preview/…) set their own, stricter policies.

export function appSecurityHeaders(): Record<string, string> {
  const development = config.development;
  const deckFrames = ["'self'", config.deckContentOrigin].filter(Boolean).join(" ");
  // Sign-in with GitHub or Google is a form posted here and redirected to the provider.
  const providers = [
    config.oauth.github ? "https://github.com" : null,
    config.oauth.google ? "https://accounts.google.com" : null,
  ].filter(Boolean);
  // Brand logos are served from the file store: this origin, or Vercel Blob's public hosts; the
  // organization's images (the editor's picker) from the asset path, on the deck content origin when set.
  const images = [
    "'self'",
    "data:",
    "blob:",
    config.deckContentOrigin ? `${config.deckContentOrigin}/assets/` : null,
    setting("BLOB_READ_WRITE_TOKEN") ? "https://*.public.blob.vercel-storage.com" : null,
  ];
  const csp = [
    "default-src 'self'",
    // Next.js streams its page data in inline scripts; the development server also evaluates modules.
    `script-src 'self' 'unsafe-inline'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src ${images.filter(Boolean).join(" ")}`,
    "font-src 'self' data:",
    `connect-src 'self'${development ? " ws: wss:" : ""}`,
    `frame-src ${deckFrames}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action ${["'self'", ...providers].join(" ")}`,
    "frame-ancestors 'none'",
  ].join("; ");
  return {
    "Content-Security-Policy": csp,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
  };
}

/** Paths served by the viewer, the API and static files, which set their own headers. */
export function isAppPage(pathname: string): boolean {
  return !/^\/(?:api|d|preview|player|files|_next)(?:\/|$)/.test(pathname) && !/\.\w+$/.test(pathname);
}

/** Set by proxy.ts on the request of an app page: its path and query, to come back to after signing in. */
export const REQUEST_PATH_HEADER = "x-deckhand-path";
