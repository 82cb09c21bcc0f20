import { date, integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { decks } from "./decks";

// Per deck, UTC day and referring host (the host only, never the path): views that came from it.
export const analyticsDailyReferrers = pgTable(
  "analytics_daily_referrers",
  {
    deckId: uuid("deck_id")
      .notNull()
      .references(() => decks.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    host: text("host").notNull(),
    views: integer("views").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.deckId, t.day, t.host] })],
);
