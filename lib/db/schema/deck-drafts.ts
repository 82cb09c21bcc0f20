import { pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { decks } from "./decks";
import { users } from "./users";

// The editor's live preview: the last module an author compiled while typing, one per deck and author.
// Not a version (nothing here is history); overwritten on every compile, deleted with the deck.
export const deckDrafts = pgTable(
  "deck_drafts",
  {
    deckId: uuid("deck_id")
      .notNull()
      .references(() => decks.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokensCss: text("tokens_css").notNull(),
    compiledJs: text("compiled_js").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.deckId, t.userId] })],
);
