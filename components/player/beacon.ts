// The analytics beacon of the pages around a deck frame (the share page, the presenter window). The
// frame itself has no network (connect-src 'none'); the page knows which slide is shown from the frame's
// checked state messages and reports how long each slide was visible to POST /d/{slug}/events: records
// batched for two seconds (so a view counts within seconds), the open slide's time closed every 15 s,
// and everything left sent with navigator.sendBeacon when the page is hidden or left. Time while the
// page is hidden does not count. No cookie, no storage: the view is a random id that lives as long as
// the page. A browser that sends Do-Not-Track or Global Privacy Control sends nothing (and the server
// records nothing for those headers either).
import {
  type AnalyticsSource,
  EVENT_MAX_MS,
  EVENTS_MAX_PER_BATCH,
  type EventBatch,
  type SlideRecord,
} from "@/lib/contract/analytics";

export type Beacon = { /** The 1-based slide now shown. */ show(slide: number): void };

const FLUSH_AFTER_MS = 2000;
const CLOSE_EVERY_MS = 15_000;

function randomUuid(): string {
  // crypto.randomUUID needs a secure context; getRandomValues does not.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function referrerHost(): string | null {
  try {
    const host = document.referrer ? new URL(document.referrer).host.toLowerCase() : "";
    return host && host !== location.host.toLowerCase() && /^[a-z0-9.:-]{1,253}$/.test(host) ? host : null;
  } catch {
    return null;
  }
}

function optedOut(): boolean {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  return nav.doNotTrack === "1" || nav.globalPrivacyControl === true;
}

export function startBeacon(url: string | null | undefined, source: AnalyticsSource): Beacon {
  if (!url || optedOut()) return { show() {} };
  const view = randomUuid();
  const referrer = referrerHost();
  let queue: SlideRecord[] = [];
  let current = 0;
  /** performance.now() when the current slide's visible time started; null while the page is hidden. */
  let since: number | null = null;
  let timer = 0;

  // Ends the open stretch of the current slide as a record and starts the next one now.
  function close() {
    if (current === 0 || since === null) return;
    const now = performance.now();
    const ms = Math.min(EVENT_MAX_MS, Math.round(now - since));
    since = now;
    if (ms > 0) queue.push({ slide: current, ms });
  }

  function flush(leaving: boolean) {
    window.clearTimeout(timer);
    timer = 0;
    while (queue.length > 0) {
      const batch: EventBatch = { view, source, referrer, events: queue.slice(0, EVENTS_MAX_PER_BATCH) };
      queue = queue.slice(EVENTS_MAX_PER_BATCH);
      const body = JSON.stringify(batch);
      // A string is sent as text/plain: no preflight, and the server reads the body as JSON whatever its type.
      if (leaving && navigator.sendBeacon?.(url!, body)) continue;
      void fetch(url!, { method: "POST", body, keepalive: true, credentials: "same-origin" }).catch(() => {});
    }
  }

  function schedule() {
    if (timer === 0) timer = window.setTimeout(() => flush(false), FLUSH_AFTER_MS);
  }

  window.setInterval(() => {
    if (since === null || current === 0) return;
    close();
    schedule();
  }, CLOSE_EVERY_MS);

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") {
      close();
      since = null;
      flush(true);
    } else if (since === null) {
      since = performance.now();
    }
  });
  window.addEventListener("pagehide", () => {
    close();
    since = null;
    flush(true);
  });

  return {
    show(slide: number) {
      if (slide === current) return;
      close();
      current = slide;
      since = document.visibilityState === "hidden" ? null : performance.now();
      queue.push({ slide, ms: 0 });
      schedule();
    },
  };
}
