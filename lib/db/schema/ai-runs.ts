import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { decks } from "./decks";
import { organizations } from "./organizations";
import { users } from "./users";

// One generate or edit request while its job runs (in-process or on Inngest): the route that asked waits
// on this row for the outcome (the new version, or the error to answer with).
export const aiRuns = pgTable(
  "ai_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    deckId: uuid("deck_id")
      .notNull()
      .references(() => decks.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    apiKeyId: uuid("api_key_id"),
    kind: text("kind", { enum: ["generate", "edit"] }).notNull(),
    input: jsonb("input").notNull(),
    status: text("status", { enum: ["pending", "completed", "failed"] })
      .notNull()
      .default("pending"),
    result: jsonb("result").$type<{ id: string; version: number }>(),
    error: jsonb("error").$type<{ code: string; message: string; featureId?: string }>(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("ai_runs_deck_idx").on(t.deckId, t.createdAt)],
);
