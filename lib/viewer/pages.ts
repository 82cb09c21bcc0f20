import { config } from "@/lib/core/config";
import { playerAssets } from "./assets";
import { escapeHtml } from "@/lib/contract/text";
import { htmlDocument, htmlResponse, jsonScript } from "./html";
import { beaconUrl } from "./link-access";

// The pages on the app's origin around a sandboxed deck frame. They hold no deck code and no session.

function pageCsp(ancestors = "'none'"): string {
  const frames = ["'self'", config.deckContentOrigin].filter(Boolean).join(" ");
  return [
    "default-src 'none'",
    "script-src 'self'",
    // The analytics beacon (POST /d/{slug}/events) and nothing else: the page's own origin.
    "connect-src 'self'",
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    `frame-src ${frames}`,
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors}`,
  ].join("; ");
}

const baseStyle = `html,body{margin:0;height:100%;background:#0b0b0c;color:#e4e4e7;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}`;

export type SharedDeck = {
  slug: string;
  title: string;
  description: string;
  version: number;
  organization: string;
  /** A password link's unlock token, handed to the frame (lib/viewer/link-access.ts). */
  unlock?: string | null;
};

export function frameUrl(slug: string, kind: "frame" | "embed" = "frame", unlock: string | null = null): string {
  const query = unlock ? `?unlock=${encodeURIComponent(unlock)}` : "";
  return `${config.deckContentOrigin ?? ""}/d/${slug}/${kind}${query}`;
}

// GET /d/{slug}: the share page, with Open Graph tags so a pasted link unfurls with the first slide.
export function renderViewerPage(deck: SharedDeck): Response {
  const url = `${config.viewerBaseUrl}/d/${deck.slug}`;
  const image = `${config.appUrl}/d/${deck.slug}/og.png?v=${deck.version}`;
  const description = deck.description || "A presentation shared with Deckhand.";
  const html = htmlDocument({
    title: deck.title,
    index: true,
    head: `<meta name="description" content="${escapeHtml(description)}">
<link rel="canonical" href="${escapeHtml(url)}">
<meta property="og:type" content="website">
<meta property="og:site_name" content="Deckhand">
<meta property="og:title" content="${escapeHtml(deck.title)}">
<meta property="og:description" content="${escapeHtml(description)}">
<meta property="og:url" content="${escapeHtml(url)}">
<meta property="og:image" content="${escapeHtml(image)}">
<meta property="og:image:width" content="1200">
<meta property="og:image:height" content="675">
<meta property="og:image:alt" content="${escapeHtml(`First slide of ${deck.title}`)}">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:title" content="${escapeHtml(deck.title)}">
<meta name="twitter:description" content="${escapeHtml(description)}">
<meta name="twitter:image" content="${escapeHtml(image)}">
<link rel="icon" href="/favicon.svg">
<style>${baseStyle}${sharedByStyle}</style>`,
    body: `${viewerBody({
      title: deck.title,
      channel: deck.slug,
      frameUrl: frameUrl(deck.slug, "frame", deck.unlock ?? null),
      presenterUrl: `/d/${deck.slug}/presenter`,
      eventsUrl: beaconUrl(deck.slug),
    })}
${sharedBy(deck.organization)}`,
  });
  return htmlResponse(html, { headers: { "Content-Security-Policy": pageCsp(), "Cache-Control": "no-cache" } });
}

// The share page's own line under the deck, outside the frame: who shares it, and that the frame above is
// their deck, not Deckhand (a deck that draws a "sign in again" form is then not taken for the app).
const sharedByStyle = `body{display:flex;flex-direction:column}
iframe{display:block;flex:1;min-height:0;width:100%;border:0}
.dh-shared-by{flex:none;height:32px;line-height:32px;text-align:center;font-size:13px;color:#a1a1aa;background:#18181b;border-top:1px solid #27272a;overflow:hidden;white-space:nowrap;text-overflow:ellipsis;padding:0 12px}
.dh-shared-by strong{color:#e4e4e7;font-weight:600}
.dh-shared-by a{color:#e4e4e7}
:fullscreen .dh-shared-by{display:none}`;

function sharedBy(organization: string): string {
  return `<footer class="dh-shared-by">Shared by <strong>${escapeHtml(organization)}</strong> with <a href="${escapeHtml(config.appUrl)}/" target="_blank" rel="noopener noreferrer">Deckhand</a> · the slides above are the deck's own content</footer>`;
}

// Where a viewer or presenter page finds its deck: the frame to show, and the channel that keeps a viewer
// and its presenter window in step.
type FrameSource = { title: string; channel: string; frameUrl: string; eventsUrl?: string };

// No allow="fullscreen" on the frame: the page makes its own document full screen from its own keys and
// buttons, and deck code in the frame must not be able to take the screen (components/player/viewer.ts).
function viewerBody(
  source: FrameSource & { presenterUrl: string; eventsUrl?: string; analyticsSource?: "share" | "embed" },
): string {
  return `<iframe id="dh-frame" title="${escapeHtml(source.title)}" sandbox="allow-scripts" referrerpolicy="no-referrer"></iframe>
${jsonScript("dh-viewer", { slug: source.channel, frameUrl: source.frameUrl, presenterUrl: source.presenterUrl, eventsUrl: source.eventsUrl ?? null, source: source.analyticsSource ?? "share" })}
<script type="module" src="${playerAssets().viewer}"></script>`;
}

// GET /d/{slug}/embedded: what other sites embed. The deck's embed frame inside a page of the app's own that
// any site may frame, so an embed is counted (as "embed") by the same beacon as the share page: the frame
// itself has no network. No footer, no Open Graph tags, not indexed.
export function renderEmbedPage(deck: SharedDeck): Response {
  const html = htmlDocument({
    title: deck.title,
    head: `<link rel="icon" href="/favicon.svg">
<style>${baseStyle}iframe{display:block;width:100%;height:100%;border:0}</style>`,
    body: viewerBody({
      title: deck.title,
      channel: deck.slug,
      frameUrl: `${frameUrl(deck.slug, "embed", deck.unlock ?? null)}${deck.unlock ? "&" : "?"}in=page`,
      presenterUrl: `/d/${deck.slug}/presenter`,
      eventsUrl: beaconUrl(deck.slug),
      analyticsSource: "embed",
    }),
  });
  return htmlResponse(html, { headers: { "Content-Security-Policy": pageCsp("*"), "Cache-Control": "no-cache" } });
}

// GET /preview/{token}/view: the editor's present mode, for any version the token grants (private decks
// included): the share page without link previews, never indexed.
export function renderPreviewViewerPage(source: FrameSource & { presenterUrl: string }): Response {
  const html = htmlDocument({
    title: source.title,
    head: `<link rel="icon" href="/favicon.svg">
<style>${baseStyle}iframe{display:block;width:100%;height:100%;border:0}</style>`,
    body: viewerBody(source),
  });
  return htmlResponse(html, { headers: { "Content-Security-Policy": pageCsp(), "Cache-Control": "no-store" } });
}

// GET /d/{slug}/presenter (and /preview/{token}/presenter): current slide, next slide, notes and a timer,
// in step with the viewer page over a BroadcastChannel.
export function renderPresenterPage(source: FrameSource): Response {
  const style = `${baseStyle}
body{display:grid;grid-template-columns:minmax(0,2fr) minmax(280px,1fr);grid-template-rows:auto minmax(0,1fr);gap:16px;padding:16px;box-sizing:border-box;height:100vh}
header{grid-column:1/-1;display:flex;align-items:center;gap:16px;font-weight:600}
header .title{flex:1;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.current{min-height:0;display:flex;flex-direction:column;gap:12px}
.current iframe{flex:1;min-height:0;width:100%;border:0;border-radius:8px;background:#000}
aside{display:flex;flex-direction:column;gap:12px;min-height:0}
#dh-next{width:100%;aspect-ratio:16/9;border:0;border-radius:6px;background:#000}
#dh-next-label{color:#a1a1aa;font-size:13px}
#dh-notes{flex:1;overflow:auto;white-space:pre-wrap;font-size:20px;line-height:1.5;background:#18181b;border-radius:8px;padding:16px}
#dh-notes.dh-notes-empty{color:#71717a;font-style:italic}
#dh-timer{font-variant-numeric:tabular-nums;font-size:28px;cursor:pointer;user-select:none}
#dh-timer.dh-paused{color:#fbbf24}
#dh-clock,#dh-count{font-variant-numeric:tabular-nums;color:#a1a1aa}
.nav{display:flex;gap:8px}
button{background:#27272a;color:inherit;border:0;border-radius:6px;padding:8px 14px;font:inherit;cursor:pointer}
button:hover,button:focus-visible{background:#3f3f46;outline:none}`;
  const html = htmlDocument({
    title: `Presenter · ${source.title}`,
    head: `<link rel="icon" href="/favicon.svg">
<style>${style}</style>`,
    body: `<header><span class="title">${escapeHtml(source.title)}</span><span id="dh-count"></span><span id="dh-clock"></span><span id="dh-timer" title="Click to pause, double-click to reset">00:00:00</span></header>
<section class="current">
<iframe id="dh-current" title="Current slide" sandbox="allow-scripts" referrerpolicy="no-referrer"></iframe>
<div class="nav"><button id="dh-prev" type="button">← Previous</button><button id="dh-next-button" type="button">Next →</button></div>
</section>
<aside>
<iframe id="dh-next" title="Next slide" sandbox="allow-scripts" referrerpolicy="no-referrer" tabindex="-1"></iframe>
<div id="dh-next-label"></div>
<div id="dh-notes" aria-live="polite"></div>
</aside>
${jsonScript("dh-presenter", { slug: source.channel, frameUrl: source.frameUrl, thumbUrl: `${source.frameUrl}${source.frameUrl.includes("?") ? "&" : "?"}mode=thumb`, eventsUrl: source.eventsUrl ?? null })}
<script type="module" src="${playerAssets().presenter}"></script>`,
  });
  return htmlResponse(html, { headers: { "Content-Security-Policy": pageCsp(), "Cache-Control": "no-cache" } });
}

// GET /d/{slug} of a password link without its unlock: a form and nothing of the deck (no title, no
// Open Graph tags, so a pasted link unfurls to nothing). It posts to /d/{slug}/unlock (lib/viewer/unlock.ts).
/** The password form; `notice` says why it is shown again (a wrong password, too many tries). */
export function renderPasswordPage(slug: string, notice: string | null = null, status = 200): Response {
  const html = htmlDocument({
    title: "Password required · Deckhand",
    head: `<style>${baseStyle}body{display:grid;place-items:center;padding:24px;box-sizing:border-box}
form{display:flex;flex-direction:column;gap:12px;width:min(360px,100%)}h1{font-size:22px;margin:0}p{margin:0;color:#a1a1aa}
input{font:inherit;padding:10px 12px;border-radius:8px;border:1px solid #3f3f46;background:#18181b;color:inherit}
button{font:inherit;padding:10px 12px;border-radius:8px;border:0;background:#e4e4e7;color:#0b0b0c;font-weight:600;cursor:pointer}
.dh-wrong{color:#fca5a5}</style>`,
    body: `<main><form method="post" action="/d/${escapeHtml(slug)}/unlock">
<h1>This deck is protected</h1><p>Enter the password you were given to view it.</p>
${notice ? `<p class="dh-wrong" role="alert">${escapeHtml(notice)}</p>` : ""}
<input type="password" name="password" autocomplete="current-password" aria-label="Password" required autofocus maxlength="256">
<button type="submit">View deck</button></form></main>`,
  });
  return htmlResponse(html, {
    status,
    headers: {
      "Content-Security-Policy": [
        "default-src 'none'",
        "style-src 'unsafe-inline'",
        "img-src 'self' data:",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ].join("; "),
      "Cache-Control": "no-store",
    },
  });
}

// A password link's frame or embed requested without the unlock.
export function renderLockedFrame(): Response {
  const html = htmlDocument({
    title: "Password required",
    head: `<style>${baseStyle}body{display:grid;place-items:center;text-align:center}</style>`,
    body: `<p>This deck is protected by a password. Open its link to enter it.</p>`,
  });
  return htmlResponse(html, {
    status: 403,
    headers: {
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      "Cache-Control": "no-store",
    },
  });
}

export function renderNotFoundPage(): Response {
  const html = htmlDocument({
    title: "Deck not found · Deckhand",
    head: `<style>${baseStyle}body{display:grid;place-items:center;text-align:center;padding:24px;box-sizing:border-box}h1{font-size:28px;margin:0 0 8px}p{color:#a1a1aa;margin:0}</style>`,
    body: `<main><h1>This deck isn't available</h1><p>The link may be mistyped, or the deck is no longer shared.</p></main>`,
  });
  return htmlResponse(html, {
    status: 404,
    headers: { "Content-Security-Policy": pageCsp(), "Cache-Control": "no-cache" },
  });
}
