import { date, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { decks } from "./decks";

// The day's set of viewer hashes per deck: a view whose hash is new here adds one unique viewer to the
// day's rollup. A hash means nothing once its day's salt is gone, and the sweep deletes every day but
// today and yesterday (a view that started before midnight still finds its day).
export const analyticsVisitors = pgTable(
  "analytics_visitors",
  {
    deckId: uuid("deck_id")
      .notNull()
      .references(() => decks.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    visitor: text("visitor").notNull(),
  },
  (t) => [primaryKey({ columns: [t.deckId, t.day, t.visitor] })],
);
