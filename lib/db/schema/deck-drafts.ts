import { integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { decks } from "./decks";
import { users } from "./users";

// The editor's draft of a deck, one per deck and author: the last module that compiled (the live preview)
// and what the author typed (source and tokens, kept even when it does not compile), so a reload or a
// crash loses nothing. Not a version (nothing here is history); overwritten as the author types, cleared
// when they save a version, deleted when they discard it or with the deck.
export const deckDrafts = pgTable(
  "deck_drafts",
  {
    deckId: uuid("deck_id")
      .notNull()
      .references(() => decks.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The preview's tokens (validated). */
    tokensCss: text("tokens_css").notNull(),
    /** The preview's module: the last typed source that compiled; null until one has. */
    compiledJs: text("compiled_js"),
    /** What the author typed, compiling or not; null once saved as a version (nothing left to restore). */
    source: text("source"),
    typedTokensCss: text("typed_tokens_css"),
    /** The version the typed source was based on (what a save of it names as basedOnVersion). */
    basedOnVersion: integer("based_on_version"),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.deckId, t.userId] })],
);
