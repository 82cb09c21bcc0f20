// What the viewer pages send to POST /d/{slug}/events and the server accepts (lib/analytics/schemas.ts):
// shared by the page scripts (components/player/beacon.ts) and the server.

export const analyticsSources = ["share", "embed", "presenter"] as const;
export type AnalyticsSource = (typeof analyticsSources)[number];

/** Records per batch, and the longest time one record may claim (an hour on one slide). */
export const EVENTS_MAX_PER_BATCH = 100;
export const EVENT_MAX_MS = 60 * 60 * 1000;
/** A batch's bytes: 100 records and a referrer fit in well under this. */
export const EVENTS_MAX_BYTES = 8 * 1024;

/** One record: the 1-based slide and the milliseconds it was visible (0: the slide was entered). */
export type SlideRecord = { slide: number; ms: number };

export type EventBatch = {
  /** A random UUID the page makes once per page load. */
  view: string;
  source: AnalyticsSource;
  /** The referring page's host (never its path), or null. */
  referrer: string | null;
  events: SlideRecord[];
};
