import { config } from "@/lib/core/config";
import { getDb } from "@/lib/db/client";
import { defaultTokensCss } from "@/lib/source/theme-tokens";
import { moduleResponse, readFrameQuery, renderFrameDocument } from "./frame-document";
import { htmlDocument, htmlResponse } from "./html";
import { logoResponse } from "./logo";
import { beaconUrl, hasLinkUnlockToken, unlockTokenOf } from "./link-access";
import {
  frameUrl,
  renderEmbedPage,
  renderLockedFrame,
  renderNotFoundPage,
  renderPasswordPage,
  renderPresenterPage,
  renderPreviewViewerPage,
  renderViewerPage,
} from "./pages";
import { DRAFT_MODULE_NAME, draftModuleName } from "./draft-module";
import { verifyPreviewToken } from "./preview-token";
import { findDeckVersion, findDraft, findPublicDeck, type ViewableDeck } from "./viewable-deck";

// Handlers behind the viewer's routes (/d/{slug}/…) and the preview routes (/preview/{token}/…).

type FrameKind = "frame" | "embed";

function frameAncestors(kind: FrameKind): string[] {
  if (kind === "embed") return ["*"];
  return ["'self'", new URL(config.appUrl).origin, ...(config.deckContentOrigin ? [config.deckContentOrigin] : [])];
}

// The origin the browser used. Next.js builds `req.url` from its own listening address (localhost), so
// the Host header (or a proxy's X-Forwarded-*) is what names the frame's origin.
function requestOrigin(req: Request): string {
  const url = new URL(req.url);
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  const proto = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() ?? url.protocol.slice(0, -1);
  return host && /^[a-z0-9.:[\]-]+$/i.test(host) && /^https?$/.test(proto) ? `${proto}://${host}` : url.origin;
}

// A frame document is served only into a frame. Opened as a page of its own (a tab, a window, a link), the
// deck's code would be the top document and could navigate the whole tab anywhere (an open redirect on the
// app's origin); the browser says how a document will be used in Sec-Fetch-Dest, and such a request is
// sent to the page that frames the deck instead. Requests without the header (non-browser clients) and
// fetches ("empty") navigate nothing and are served.
function openedAsPage(req: Request): boolean {
  const dest = req.headers.get("sec-fetch-dest");
  return dest !== null && dest !== "iframe" && dest !== "frame" && dest !== "empty";
}

function redirectTo(req: Request, page: string): Response {
  const slide = Number(new URL(req.url).searchParams.get("slide"));
  const hash = Number.isInteger(slide) && slide > 1 ? `#${slide}` : "";
  return new Response(null, { status: 303, headers: { Location: `${page}${hash}`, "Cache-Control": "no-store" } });
}

// `editable`: the editor's preview frame (a preview token), where ?edit=1 turns on editing in place; the share
// viewer, embeds and exports never do, whatever their query says. `unlock`: a password link's unlock token.
function serveFrame(
  req: Request,
  viewable: ViewableDeck,
  moduleBase: string,
  kind: FrameKind,
  { editable = false, unlock = null }: { editable?: boolean; unlock?: string | null } = {},
): Response {
  const url = new URL(req.url);
  // A password link's unlock travels in the URLs of the frame's own requests: they carry no cookie.
  const withUnlock = (address: string) => (unlock ? `${address}?unlock=${encodeURIComponent(unlock)}` : address);
  const origin = requestOrigin(req);
  const { version } = viewable;
  if (version.format === "html") return legacyHtmlFrame(version.html ?? "", frameAncestors(kind));
  const query = readFrameQuery(url);
  return renderFrameDocument({
    origin,
    moduleUrl: withUnlock(`${origin}${moduleBase}/module/${version.version}`),
    tokensCss: version.tokensCss ?? defaultTokensCss,
    format: viewable.deck.format,
    title: viewable.deck.title,
    // A webpage is one scrolling page (no export pages), or one beat as a thumbnail.
    mode: viewable.deck.format === "webpage" && query.mode !== "thumb" ? "present" : query.mode,
    slide: query.slide,
    chrome: query.chrome,
    // The embed inside the app's own /embedded page reports its slides to that page (for analytics), as the
    // share page's frame does; a bare /embed framed by another site posts nothing. What it would post (slide
    // numbers, labels, notes) is in the public module anyway.
    embedded: kind === "frame" || url.searchParams.get("in") === "page",
    edit: editable && query.edit && query.mode === "present" && viewable.deck.format === "slides",
    frameAncestors: frameAncestors(kind),
    // Beside the module, on the same origin, under the same access rule (servePublicDeck, servePreview).
    logo: viewable.logo ? { url: withUnlock(`${origin}${moduleBase}/logo`), alt: viewable.logo.brandName } : null,
  });
}

// Legacy decks hold a whole HTML document; it runs under the same sandbox and the same no-network rule.
function legacyHtmlFrame(html: string, ancestors: string[]): Response {
  return htmlResponse(html, {
    headers: {
      "Content-Security-Policy": [
        "default-src 'none'",
        "script-src 'unsafe-inline'",
        "style-src 'unsafe-inline'",
        "img-src data:",
        "font-src data:",
        "connect-src 'none'",
        "base-uri 'none'",
        "form-action 'none'",
        `frame-ancestors ${ancestors.join(" ")}`,
        "sandbox allow-scripts",
      ].join("; "),
      "Cache-Control": "private, no-cache",
    },
  });
}

export async function servePublicDeck(
  req: Request,
  slug: string,
  part: "page" | "embedded" | "presenter" | FrameKind | "logo" | { module: string },
): Promise<Response> {
  const viewable = await findPublicDeck(await getDb(), slug);
  // A password link without its unlock: the share and presenter pages ask for the password, everything the
  // frame loads is refused (lib/viewer/link-access.ts).
  const locked = !!viewable?.passwordHash && !hasLinkUnlockToken(req, slug, viewable.passwordHash);
  const unlock = viewable?.passwordHash && !locked ? unlockTokenOf(req, slug) : null;
  // The logo of the deck the frame shows: served exactly when its module is (a public deck's newest
  // version), cached briefly like the module, revalidated by its ETag when the brand changes.
  if (part === "logo") {
    if (locked) return new Response("Not found", { status: 404 });
    return logoResponse(req, viewable?.logo, unlock ? "private, no-cache" : "public, max-age=300");
  }
  if (!viewable) return typeof part === "object" ? new Response("Not found", { status: 404 }) : renderNotFoundPage();
  if (locked) {
    if (part === "page") return renderPasswordPage(slug);
    if (part === "embedded") return renderLockedFrame();
    if (part === "presenter") return redirectTo(req, `${config.viewerBaseUrl}/d/${slug}`);
    if (typeof part === "object")
      return new Response("Locked", { status: 403, headers: { "Cache-Control": "no-store" } });
    if (openedAsPage(req)) return redirectTo(req, `${config.viewerBaseUrl}/d/${slug}`);
    return renderLockedFrame();
  }
  const shared = {
    slug,
    title: viewable.deck.title,
    description: viewable.deck.description,
    version: viewable.version.version,
    organization: viewable.deck.organization,
    unlock,
  };
  if (part === "page") return renderViewerPage(shared);
  if (part === "embedded") return renderEmbedPage(shared);
  if (part === "presenter") {
    return renderPresenterPage({
      title: shared.title,
      channel: slug,
      frameUrl: frameUrl(slug, "frame", unlock),
      eventsUrl: beaconUrl(slug),
    });
  }
  if (typeof part === "object") {
    // Only the newest version of a public deck is served: its history stays private.
    if (part.module !== String(viewable.version.version) || !viewable.version.compiledJs) {
      return new Response("Not found", { status: 404 });
    }
    return moduleResponse(viewable.version.compiledJs, unlock ? "private, no-store" : "public, max-age=300");
  }
  if (openedAsPage(req)) return redirectTo(req, `${config.viewerBaseUrl}/d/${slug}`);
  return serveFrame(req, viewable, `/d/${slug}`, part, { unlock });
}

async function findPreview(token: string): Promise<(ViewableDeck & { draft: boolean }) | null> {
  const grant = verifyPreviewToken(token);
  if (!grant) return null;
  const db = await getDb();
  const found = grant.draftOf
    ? await findDraft(db, grant.deckId, grant.draftOf)
    : await findDeckVersion(db, grant.deckId, grant.version);
  return found && { ...found, draft: grant.draftOf !== undefined };
}

// /preview/{token}/frame, /preview/{token}/module/{version} and /preview/{token}/logo: any version the
// token grants (and its deck's brand logo); /view and /presenter: the editor's present mode around that frame.
// A draft's module is also served under the hash of its code (module/{hash}, lib/viewer/draft-module.ts) while
// it is the draft's module, for the editor's preview to draw in place; another hash is a 404.
export async function servePreview(
  req: Request,
  token: string,
  part: "frame" | { module: string } | "logo" | "view" | "presenter",
): Promise<Response> {
  const viewable = await findPreview(token);
  if (part === "logo") return logoResponse(req, viewable?.logo, "private, no-cache");
  if (!viewable) {
    return part === "frame"
      ? htmlResponse(
          htmlDocument({ title: "Preview expired", body: "<p>This preview link is invalid or has expired.</p>" }),
          {
            status: 404,
          },
        )
      : new Response("Not found", { status: 404 });
  }
  if (typeof part === "object") {
    const code = viewable.version.compiledJs;
    if (!code) return new Response("Not found", { status: 404 });
    const named = viewable.draft && DRAFT_MODULE_NAME.test(part.module);
    if (named && draftModuleName(code) !== part.module) return new Response("Not found", { status: 404 });
    return moduleResponse(code, "private, no-store");
  }
  if (part === "view" || part === "presenter") {
    const source = {
      title: viewable.deck.title,
      channel: `preview-${viewable.deck.id}`,
      frameUrl: `${config.deckContentOrigin ?? ""}/preview/${token}/frame`,
    };
    return part === "view"
      ? renderPreviewViewerPage({ ...source, presenterUrl: `/preview/${token}/presenter` })
      : renderPresenterPage(source);
  }
  if (openedAsPage(req)) return redirectTo(req, `${config.appUrl}/preview/${token}/view`);
  return serveFrame(req, viewable, `/preview/${token}`, "frame", { editable: true });
}
