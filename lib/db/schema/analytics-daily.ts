import { bigint, date, integer, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { decks } from "./decks";

// Per deck and UTC day, maintained as events arrive (live: no batch job): what the analytics API sums
// over a range, one row per day, so its cost does not grow with the number of views. Kept for good (no
// retention: it holds counts only).
export const analyticsDaily = pgTable(
  "analytics_daily",
  {
    deckId: uuid("deck_id")
      .notNull()
      .references(() => decks.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    /** Views of the share page and embeds (presenter windows are counted apart). */
    views: integer("views").notNull().default(0),
    uniqueViewers: integer("unique_viewers").notNull().default(0),
    shareViews: integer("share_views").notNull().default(0),
    embedViews: integer("embed_views").notNull().default(0),
    presenterSessions: integer("presenter_sessions").notNull().default(0),
    ms: bigint("ms", { mode: "number" }).notNull().default(0),
  },
  // The primary key (deck, day) is also the range read of the analytics API.
  (t) => [primaryKey({ columns: [t.deckId, t.day] })],
);
