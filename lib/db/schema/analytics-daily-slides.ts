import { bigint, date, integer, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { decks } from "./decks";

// Per deck, UTC day and slide: views that reached the slide (their furthest slide is at or past it), views
// that stopped there (their furthest slide is it: the drop-off), and the time spent on it.
export const analyticsDailySlides = pgTable(
  "analytics_daily_slides",
  {
    deckId: uuid("deck_id")
      .notNull()
      .references(() => decks.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    slide: integer("slide").notNull(),
    reached: integer("reached").notNull().default(0),
    exits: integer("exits").notNull().default(0),
    ms: bigint("ms", { mode: "number" }).notNull().default(0),
  },
  // (deck, day, slide): the ingest's upsert target and the API's range read grouped by slide.
  (t) => [primaryKey({ columns: [t.deckId, t.day, t.slide] })],
);
