import { bigserial, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { analyticsSources } from "@/lib/contract/analytics";
import { decks } from "./decks";

// Raw viewer events of shared decks (lib/analytics/ingest.ts): one row per time-on-slide record a viewer
// page sent. Kept ANALYTICS_RETENTION_DAYS, then deleted by the sweep; the analytics API never reads this
// table (it reads the per-day rollups), it is the record the rollups can be rebuilt from within retention.
// No IP address, no cookie, not even the viewer's hash: an event names its view, and the view holds the
// hash only while it can still be continued (lib/analytics/sweep.ts).
export const analyticsEvents = pgTable(
  "analytics_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deckId: uuid("deck_id")
      .notNull()
      .references(() => decks.id, { onDelete: "cascade" }),
    viewId: uuid("view_id").notNull(),
    source: text("source", { enum: analyticsSources }).notNull(),
    /** 1-based slide number, within the published version's slide count when it was recorded. */
    slide: integer("slide").notNull(),
    /** Time the slide was visible, in milliseconds (0: the slide was entered). */
    ms: integer("ms").notNull(),
    occurredAt: timestamp("occurred_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    // The retention sweep deletes by age across all decks: a range scan from the oldest row.
    index("analytics_events_occurred_idx").on(t.occurredAt),
    // Reading one deck's raw events in time order (rebuilding its rollups) without scanning other decks'.
    index("analytics_events_deck_occurred_idx").on(t.deckId, t.occurredAt),
  ],
);
