// The presenter window: the current slide, the next one, the speaker notes and a timer, kept in step
// with the share page (and any other presenter window) over a BroadcastChannel.
//
// Like the share page (components/player/viewer.ts), it reads what its deck frame posts as untrusted
// input: only well-formed state from the current-slide frame's own window is taken, the hash is written
// here as `#<slide number>` only, labels and notes are shown as text, and the frame's requests (its P and
// F keys) are ignored: this window opens nothing and never goes full screen.
import type { SlideMeta, ViewerMessage } from "@/lib/contract/player";
import { startBeacon } from "./beacon";
import { type ChannelMessage, readChannelMessage, readFrameMessage, readHashSlide, slideHash } from "./messages";

/** eventsUrl: the analytics beacon's endpoint (a share link's presenter; absent for the editor's preview). */
type PresenterConfig = { slug: string; frameUrl: string; thumbUrl: string; eventsUrl?: string | null };

const config = JSON.parse(document.getElementById("dh-presenter")?.textContent ?? "{}") as PresenterConfig;
const currentFrame = document.getElementById("dh-current") as HTMLIFrameElement;
const nextFrame = document.getElementById("dh-next") as HTMLIFrameElement;
const notes = document.getElementById("dh-notes")!;
const counter = document.getElementById("dh-count")!;
const nextLabel = document.getElementById("dh-next-label")!;
const timer = document.getElementById("dh-timer")!;
const clock = document.getElementById("dh-clock")!;
const channel = "BroadcastChannel" in window ? new BroadcastChannel(`deckhand:${config.slug}`) : null;

/** The slide the current-slide frame last reported (0-based, inside the deck), -1 before the first report. */
let current = -1;
/** When this window last moved (Date.now()): an older move from another window is stale. */
let movedAt = 0;
let count = 0;
let slides: (SlideMeta | undefined)[] = [];
const beacon = startBeacon(config.eventsUrl, "presenter");

function showSlideInHash() {
  if (current < 0) return;
  const hash = slideHash(current);
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

function send(target: HTMLIFrameElement, message: ViewerMessage) {
  target.contentWindow?.postMessage(message, "*");
}

const start = readHashSlide(location.hash) ?? 0;
const withQuery = (url: string, query: string) => `${url}${url.includes("?") ? "&" : "?"}${query}`;
currentFrame.src = withQuery(config.frameUrl, `slide=${start + 1}&chrome=0`);
nextFrame.src = withQuery(config.thumbUrl, `slide=${start + 2}`);
currentFrame.addEventListener("load", () => currentFrame.contentWindow?.focus());

function render() {
  counter.textContent = count ? `${current + 1} / ${count}` : "";
  const meta = slides[current];
  notes.textContent = meta?.notes || "No notes for this slide.";
  notes.classList.toggle("dh-notes-empty", !meta?.notes);
  const following = slides[current + 1];
  nextLabel.textContent = current + 1 < count ? `Next: ${following?.label ?? `Slide ${current + 2}`}` : "End of deck";
  nextFrame.style.visibility = current + 1 < count ? "visible" : "hidden";
}

window.addEventListener("message", (event: MessageEvent<unknown>) => {
  if (event.source !== currentFrame.contentWindow || currentFrame.contentWindow === null) return;
  const message = readFrameMessage(event.data);
  if (message?.type !== "state") return;
  slides = message.slides;
  count = message.count;
  beacon.show(message.slide + 1);
  if (message.slide !== current) {
    current = message.slide;
    movedAt = Date.now();
    send(nextFrame, { source: "deckhand-viewer", type: "goto", slide: current + 1 });
    channel?.postMessage({ type: "goto", slide: current, at: movedAt } satisfies ChannelMessage);
  }
  showSlideInHash();
  render();
});

channel?.addEventListener("message", (event: MessageEvent<unknown>) => {
  const message = readChannelMessage(event.data);
  if (!message || message.at < movedAt) return;
  const slide = count ? Math.min(message.slide, count - 1) : message.slide;
  if (slide !== current) send(currentFrame, { source: "deckhand-viewer", type: "goto", slide });
});

document.addEventListener("keydown", (event) => {
  if (!event.isTrusted || event.metaKey || event.ctrlKey || event.altKey) return;
  send(currentFrame, { source: "deckhand-viewer", type: "key", key: event.key, shiftKey: event.shiftKey });
  event.preventDefault();
});

for (const [id, key] of [
  ["dh-prev", "ArrowLeft"],
  ["dh-next-button", "ArrowRight"],
] as const) {
  document
    .getElementById(id)
    ?.addEventListener("click", () =>
      send(currentFrame, { source: "deckhand-viewer", type: "key", key, shiftKey: false }),
    );
}

// Timer: counts from the first slide change or from opening; click to pause, double-click to reset.
let startedAt = Date.now();
let pausedAt: number | null = null;
const pad = (n: number) => String(n).padStart(2, "0");
function tick() {
  const elapsed = Math.floor(((pausedAt ?? Date.now()) - startedAt) / 1000);
  timer.textContent = `${pad(Math.floor(elapsed / 3600))}:${pad(Math.floor(elapsed / 60) % 60)}:${pad(elapsed % 60)}`;
  timer.classList.toggle("dh-paused", pausedAt !== null);
  const now = new Date();
  clock.textContent = `${pad(now.getHours())}:${pad(now.getMinutes())}`;
}
timer.addEventListener("click", () => {
  if (pausedAt === null) pausedAt = Date.now();
  else {
    startedAt += Date.now() - pausedAt;
    pausedAt = null;
  }
  tick();
});
timer.addEventListener("dblclick", () => {
  startedAt = Date.now();
  pausedAt = null;
  tick();
});
setInterval(tick, 1000);
tick();
render();
