import { index, pgTable, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

// A signed-in browser session: one row per sign-in, its id carried in the session cookie (a JWT sealed with
// the server's secret). A cookie works only while its row exists and has not expired, so signing out
// deletes the row and the cookie, replayed, is no session at all.
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    // Sign-in time plus the cookie's lifetime; not extended by use.
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);
