// The share page around the sandboxed deck frame: mirrors the slide in the URL hash, forwards keys the
// page receives, opens the presenter window and keeps it in step over a BroadcastChannel.
import type { PlayerMessage, ViewerMessage } from "./config";

type ViewerConfig = { slug: string; frameUrl: string; presenterUrl: string };

const config = JSON.parse(document.getElementById("dh-viewer")?.textContent ?? "{}") as ViewerConfig;
const frame = document.getElementById("dh-frame") as HTMLIFrameElement;
const channel = "BroadcastChannel" in window ? new BroadcastChannel(`deckhand:${config.slug}`) : null;
let current = -1;

function hashSlide(): number {
  const match = /^#(\d+)$/.exec(location.hash);
  return match ? Math.max(0, Number(match[1]) - 1) : 0;
}

function send(message: ViewerMessage) {
  frame.contentWindow?.postMessage(message, "*");
}

function goTo(slide: number) {
  if (slide !== current) send({ source: "deckhand-viewer", type: "goto", slide });
}

function openPresenter() {
  window.open(
    `${config.presenterUrl}#${Math.max(current, 0) + 1}`,
    `deckhand-presenter-${config.slug}`,
    "popup,width=1280,height=800",
  );
}

frame.src = `${config.frameUrl}${config.frameUrl.includes("?") ? "&" : "?"}slide=${hashSlide() + 1}`;
frame.addEventListener("load", () => frame.contentWindow?.focus());

window.addEventListener("message", (event: MessageEvent<PlayerMessage>) => {
  if (event.source !== frame.contentWindow || event.data?.source !== "deckhand-player") return;
  const message = event.data;
  if (message.type === "state") {
    if (message.slide !== current) {
      current = message.slide;
      history.replaceState(null, "", `#${current + 1}`);
      channel?.postMessage({ type: "goto", slide: current });
    }
  } else if (message.type === "request") {
    if (message.action === "presenter") openPresenter();
    else if (document.fullscreenElement) void document.exitFullscreen();
    else void frame.requestFullscreen().catch(() => {});
  }
});

window.addEventListener("hashchange", () => goTo(hashSlide()));

// Keys pressed while the page (not the frame) has focus still drive the deck.
document.addEventListener("keydown", (event) => {
  if (event.metaKey || event.ctrlKey || event.altKey) return;
  if (event.key === "p" || event.key === "P") return openPresenter();
  if (event.key === "f" || event.key === "F") {
    void frame.requestFullscreen().catch(() => {});
    return;
  }
  send({ source: "deckhand-viewer", type: "key", key: event.key, shiftKey: event.shiftKey });
  if ([" ", "ArrowDown", "ArrowUp", "PageDown", "PageUp", "Home", "End"].includes(event.key)) event.preventDefault();
});

channel?.addEventListener("message", (event: MessageEvent<{ type: string; slide: number }>) => {
  if (event.data?.type === "goto") goTo(event.data.slide);
});
