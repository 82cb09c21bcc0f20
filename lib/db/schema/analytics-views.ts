import { date, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { analyticsSources } from "@/lib/contract/analytics";
import { decks } from "./decks";

// One row per view of a shared deck (a page load of the share page, an embed or a presenter window; the
// page makes up the view id). Ingesting a batch locks this row, so a view's furthest slide moves forward
// once per batch and the rollups' drop-off counts move with it. Deleted with the raw events.
export const analyticsViews = pgTable(
  "analytics_views",
  {
    deckId: uuid("deck_id")
      .notNull()
      .references(() => decks.id, { onDelete: "cascade" }),
    viewId: uuid("view_id").notNull(),
    /** The UTC day the view started; every rollup of the view counts on this day. */
    day: date("day", { mode: "string" }).notNull(),
    /** The viewer's hash on `day`: checked on each batch; blanked by the sweep two days after the view. */
    visitor: text("visitor").notNull(),
    source: text("source", { enum: analyticsSources }).notNull(),
    referrerHost: text("referrer_host"),
    furthestSlide: integer("furthest_slide").notNull(),
    ms: integer("ms").notNull().default(0),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    // The primary key is the ingest's lookup (deck, view).
    primaryKey({ columns: [t.deckId, t.viewId] }),
    // The retention sweep: views not seen for ANALYTICS_RETENTION_DAYS.
    index("analytics_views_last_seen_idx").on(t.lastSeenAt),
  ],
);
