import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { apiKeys } from "./api-keys";
import { decks } from "./decks";
import { organizations } from "./organizations";
import { users } from "./users";

export const exportFormats = ["pdf", "pptx"] as const;
export const exportStatuses = ["pending", "running", "completed", "failed"] as const;
// PDF only: "slides" is one landscape page per slide; "notes" a portrait handout page per slide, the slide
// above its speaker notes.
export const exportLayouts = ["slides", "notes"] as const;
export type ExportLayout = (typeof exportLayouts)[number];

export const exports = pgTable(
  "exports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    deckId: uuid("deck_id")
      .notNull()
      .references(() => decks.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    format: text("format", { enum: exportFormats }).notNull(),
    layout: text("layout", { enum: exportLayouts }).notNull().default("slides"),
    status: text("status", { enum: exportStatuses }).notNull().default("pending"),
    // download_export answers only to the credential that asked for the export.
    requestedByKeyId: uuid("requested_by_key_id").references(() => apiKeys.id, { onDelete: "set null" }),
    requestedByUserId: uuid("requested_by_user_id").references(() => users.id, { onDelete: "set null" }),
    fileName: text("file_name"),
    blobKey: text("blob_key"),
    nonstandardFonts: jsonb("nonstandard_fonts").$type<string[]>(),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    // A worker owns a running export while its lease is valid; an expired lease is reclaimed.
    leaseToken: text("lease_token"),
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("exports_deck_idx").on(t.deckId, t.version, t.format, t.createdAt),
    index("exports_status_idx").on(t.status, t.leaseExpiresAt),
  ],
);
