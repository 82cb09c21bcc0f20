import { index, pgTable, primaryKey, timestamp, uuid } from "drizzle-orm/pg-core";
import { decks } from "./decks";
import { organizations } from "./organizations";
import { users } from "./users";

// Who has a deck open in the editor: one row per deck and person, its last_seen moved by the editor's
// heartbeat. A table rather than memory so every server instance sees every heartbeat; rows older than the
// presence window are ignored and replaced, never relied on.
export const deckPresence = pgTable(
  "deck_presence",
  {
    deckId: uuid("deck_id")
      .notNull()
      .references(() => decks.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    lastSeen: timestamp("last_seen", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.deckId, t.userId] }),
    index("deck_presence_org_deck_idx").on(t.organizationId, t.deckId),
  ],
);
