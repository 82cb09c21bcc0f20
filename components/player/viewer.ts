// The share page around the sandboxed deck frame: mirrors the slide in the URL hash, forwards keys the
// page receives, opens the presenter window and keeps it in step over a BroadcastChannel.
//
// The frame runs the deck's code, so what it posts is untrusted: deck code can post any message the player
// posts. The page takes only well-formed messages (components/player/messages.ts) from its frame's own
// window, writes the hash itself and only as `#<slide number>`, and opens the presenter window or goes
// full screen only on the page's own input: its keydown handler and its own buttons.
//
// Why not act on the frame's requests when the page has a user activation? Chromium gives a click or a key
// press inside the frame to the page as well (user activation reaches every ancestor frame, cross-origin
// included): right after the viewer clicks to advance a slide, navigator.userActivation.isActive is true
// on the page, so a forged "open the presenter" would pass that check exactly like a real P. So keys the
// frame handles itself (P and F pressed while the deck has focus, the player's presenter and full-screen
// buttons) only make the player post a `request`, which the page answers by taking the keyboard back and
// showing its own prompt: "Press P to open the presenter view" with a button. The second P is then a key
// the page itself receives; a forged request can do no more than move focus to the page and show that
// prompt, whose text is the page's own. Leaving full screen needs no trust and happens at once.
import type { ViewerMessage } from "@/lib/contract/player";
import { startBeacon } from "./beacon";
import {
  type ChannelMessage,
  MAX_SLIDES,
  readChannelMessage,
  readFrameMessage,
  readHashSlide,
  slideHash,
} from "./messages";

/** eventsUrl: the analytics beacon's endpoint (share pages; absent for the editor's preview). */
type ViewerConfig = {
  slug: string;
  frameUrl: string;
  presenterUrl: string;
  eventsUrl?: string | null;
  /** "embed" on /d/{slug}/embedded, the page other sites frame. */
  source?: "share" | "embed";
};
type Action = "presenter" | "fullscreen";

const config = JSON.parse(document.getElementById("dh-viewer")?.textContent ?? "{}") as ViewerConfig;
const frame = document.getElementById("dh-frame") as HTMLIFrameElement;
const channel = "BroadcastChannel" in window ? new BroadcastChannel(`deckhand:${config.slug}`) : null;
/** The slide the frame last reported (0-based, inside the deck), -1 before the first report. */
let current = -1;
/** When this page last moved (Date.now()): an older move from a presenter window is stale. */
let movedAt = 0;
/** The deck's slide count as last reported, 0 before the first report. */
let count = 0;
const beacon = startBeacon(config.eventsUrl, config.source === "embed" ? "embed" : "share");

function send(message: ViewerMessage) {
  frame.contentWindow?.postMessage(message, "*");
}

// The hash is written here and only here, from a checked slide index.
function showSlideInHash() {
  if (current < 0) return;
  const hash = slideHash(current);
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

function goTo(slide: number) {
  const target = Math.min(slide, (count || MAX_SLIDES) - 1);
  if (target !== current) send({ source: "deckhand-viewer", type: "goto", slide: target });
  else showSlideInHash();
}

function openPresenter() {
  window.open(
    `${config.presenterUrl}${slideHash(Math.max(current, 0))}`,
    `deckhand-presenter-${config.slug}`,
    "popup,width=1280,height=800",
  );
}

// The page's own document goes full screen (the frame has no `allow="fullscreen"`), so the prompt below
// stays visible in full screen too.
function toggleFullscreen() {
  if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
  else void document.documentElement.requestFullscreen?.().catch(() => {});
}

function run(action: Action) {
  hidePrompt();
  if (action === "presenter") openPresenter();
  else toggleFullscreen();
}

// The prompt the page shows when the player asks for the presenter window or full screen. Built with
// DOM calls and fixed text only.
const prompts: Record<Action, { text: string; button: string }> = {
  presenter: { text: "Press P to open the presenter view", button: "Open presenter view" },
  fullscreen: { text: "Press F for full screen", button: "Full screen" },
};
const promptBox = document.createElement("div");
const promptText = document.createElement("span");
const promptButton = document.createElement("button");
const promptClose = document.createElement("button");
let promptAction: Action | null = null;
let promptTimer = 0;
promptBox.id = "dh-prompt";
promptBox.setAttribute("role", "dialog");
promptBox.setAttribute("aria-live", "polite");
promptBox.tabIndex = -1;
promptBox.style.cssText =
  "position:fixed;right:16px;bottom:16px;z-index:2147483647;display:none;align-items:center;gap:10px;padding:10px 12px;border-radius:10px;background:rgba(24,24,27,.96);color:#e4e4e7;box-shadow:0 8px 30px rgba(0,0,0,.45);font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;outline:none";
const buttonStyle =
  "background:#3f3f46;color:inherit;border:0;border-radius:6px;padding:6px 12px;font:inherit;cursor:pointer";
promptButton.type = "button";
promptButton.style.cssText = buttonStyle;
promptClose.type = "button";
promptClose.style.cssText = `${buttonStyle};background:transparent;padding:6px 8px`;
promptClose.textContent = "✕";
promptClose.setAttribute("aria-label", "Dismiss");
promptBox.append(promptText, promptButton, promptClose);
document.body.append(promptBox);

promptButton.addEventListener("click", (event) => {
  if (event.isTrusted && promptAction) run(promptAction);
});
promptClose.addEventListener("click", () => hidePrompt());

function offer(action: Action) {
  if (action === "fullscreen" && document.fullscreenElement) return toggleFullscreen();
  promptAction = action;
  promptText.textContent = prompts[action].text;
  promptButton.textContent = prompts[action].button;
  promptBox.style.display = "flex";
  // Keys now reach this page's keydown handler, not the frame.
  promptBox.focus({ preventScroll: true });
  window.clearTimeout(promptTimer);
  promptTimer = window.setTimeout(hidePrompt, 8000);
}

function hidePrompt() {
  if (promptAction === null) return;
  promptAction = null;
  window.clearTimeout(promptTimer);
  promptBox.style.display = "none";
}

frame.src = `${config.frameUrl}${config.frameUrl.includes("?") ? "&" : "?"}slide=${(readHashSlide(location.hash) ?? 0) + 1}`;
frame.addEventListener("load", () => frame.contentWindow?.focus());

window.addEventListener("message", (event: MessageEvent<unknown>) => {
  if (event.source !== frame.contentWindow || frame.contentWindow === null) return;
  const message = readFrameMessage(event.data);
  if (message?.type === "state") {
    count = message.count;
    beacon.show(message.slide + 1);
    if (message.slide !== current) {
      current = message.slide;
      movedAt = Date.now();
      channel?.postMessage({ type: "goto", slide: current, at: movedAt } satisfies ChannelMessage);
    }
    showSlideInHash();
  } else if (message?.type === "request") {
    offer(message.action);
  }
});

// The address bar may name a slide; anything else is put back to the current slide.
window.addEventListener("hashchange", () => {
  const slide = readHashSlide(location.hash);
  if (slide === null) showSlideInHash();
  else goTo(slide);
});

// Keys pressed while the page (not the frame) has focus: P and F act here, the rest drive the deck.
document.addEventListener("keydown", (event) => {
  if (!event.isTrusted || event.metaKey || event.ctrlKey || event.altKey) return;
  // Enter and Space on the page's own buttons press them.
  if (event.target instanceof HTMLButtonElement && (event.key === "Enter" || event.key === " ")) return;
  if (event.key === "p" || event.key === "P") return run("presenter");
  if (event.key === "f" || event.key === "F") return run("fullscreen");
  if (event.key === "Escape" && promptAction !== null) return hidePrompt();
  if (event.key === "Tab" || event.key === "Shift") return;
  hidePrompt();
  send({ source: "deckhand-viewer", type: "key", key: event.key, shiftKey: event.shiftKey });
  if ([" ", "ArrowDown", "ArrowUp", "PageDown", "PageUp", "Home", "End"].includes(event.key)) event.preventDefault();
});

channel?.addEventListener("message", (event: MessageEvent<unknown>) => {
  const message = readChannelMessage(event.data);
  if (message && message.at >= movedAt) goTo(message.slide);
});
