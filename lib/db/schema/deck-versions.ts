import { integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { decks } from "./decks";
import { users } from "./users";

export type AuthoringUsage = {
  model: string;
  calls: { step: string; inputTokens: number; outputTokens: number }[];
  inputTokens: number;
  outputTokens: number;
};

export const versionFormats = ["deck-tsx", "html"] as const;

// Append-only: rows are inserted and removed only with their deck (a trigger in the migrations refuses
// any UPDATE, and any DELETE while the deck still exists).
export const deckVersions = pgTable(
  "deck_versions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    deckId: uuid("deck_id")
      .notNull()
      .references(() => decks.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    format: text("format", { enum: versionFormats }).notNull(),
    source: text("source"),
    tokensCss: text("tokens_css"),
    compiledJs: text("compiled_js"),
    outline: jsonb("outline").$type<string[]>(),
    html: text("html"),
    prompt: text("prompt"),
    // Tokens the AI calls behind this version used ({ model, calls, inputTokens, outputTokens }); null for
    // versions written by hand or by the offline generator.
    usage: jsonb("usage").$type<AuthoringUsage>(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("deck_versions_deck_version_key").on(t.deckId, t.version)],
);
