import { z } from "zod";
import { EVENT_MAX_MS, EVENTS_MAX_PER_BATCH, analyticsSources } from "@/lib/contract/analytics";
import { uuid } from "@/lib/core/fields";

// The viewer page's event batch (POST /d/{slug}/events) and the analytics API's query and answer
// (GET /api/v1/decks/{id}/analytics), used by the route, the OpenAPI document, MCP and the editor's panel.

/** More slides than any deck has (the player's MAX_SLIDES); the real bound is the published version's count. */
const MAX_SLIDE = 10_000;

// A host name only (letters, digits, dots, hyphens, an optional port): the page sends the referrer's host,
// never its path or query.
const host = z
  .string()
  .max(253)
  .regex(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d{1,5})?$/i, { message: "must be a host name" })
  .transform((value) => value.toLowerCase());

export const eventBatchBody = z.strictObject({
  view: uuid.describe("The view: a random id the page makes once per page load."),
  source: z.enum(analyticsSources),
  referrer: host.nullable().optional(),
  events: z
    .array(
      z.strictObject({
        slide: z.number().int().min(1).max(MAX_SLIDE),
        ms: z.number().int().min(0).max(EVENT_MAX_MS),
      }),
    )
    .min(1)
    .max(EVENTS_MAX_PER_BATCH),
});
export type EventBatchInput = z.output<typeof eventBatchBody>;

const day = z.iso.date({ message: "must be a date, YYYY-MM-DD" });

export const analyticsQuery = z.strictObject({
  from: day.optional().describe("First UTC day (YYYY-MM-DD), inclusive; default 29 days before `to`."),
  to: day.optional().describe("Last UTC day (YYYY-MM-DD), inclusive; default today."),
});

const count = z.number().int().min(0);

export const deckAnalyticsSchema = z.object({
  deckId: z.string(),
  from: z.string().describe("First UTC day of the range."),
  to: z.string().describe("Last UTC day of the range."),
  slides: count.describe("Slides of the published version (the newest)."),
  totals: z.object({
    views: count.describe("Views of the share page and embeds (page loads that showed the deck)."),
    uniqueViewers: count.describe(
      "Sum over the days of distinct viewers per day (a viewer is a salted hash that changes daily, so the same person on two days counts twice).",
    ),
    sharePageViews: count,
    embedViews: count,
    presenterSessions: count.describe("Presenter windows opened on the share page."),
    averageSeconds: z.number().describe("Mean time a view spent on the deck, in seconds."),
    completionRate: z.number().describe("Share of views that reached the last slide, 0..1."),
  }),
  perSlide: z
    .array(
      z.object({
        slide: z.number().int().min(1),
        reached: count.describe("Views that got at least this far."),
        exits: count.describe("Views whose furthest slide was this one (the drop-off)."),
        seconds: z.number().describe("Total time spent on the slide, in seconds."),
        averageSeconds: z.number().describe("Time on the slide per view that reached it, in seconds."),
      }),
    )
    .describe("One entry per slide of the published version, 1..slides."),
  perDay: z.array(z.object({ day: z.string(), views: count, uniqueViewers: count, presenterSessions: count })),
  referrers: z
    .array(z.object({ host: z.string(), views: count }))
    .describe("Referring hosts, most views first (at most 50); views without a referrer are not listed."),
});
export type DeckAnalytics = z.output<typeof deckAnalyticsSchema>;
