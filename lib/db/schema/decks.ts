import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { brands } from "./brands";
import { organizations } from "./organizations";
import { users } from "./users";
import { deckFormats } from "@/lib/contract/deck";

export const deckKinds = ["deck", "template"] as const;
export const deckVisibilities = ["private", "org", "public"] as const;

export const decks = pgTable(
  "decks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    kind: text("kind", { enum: deckKinds }).notNull().default("deck"),
    format: text("format", { enum: deckFormats }).notNull().default("slides"),
    visibility: text("visibility", { enum: deckVisibilities }).notNull().default("private"),
    archived: boolean("archived").notNull().default(false),
    // A brand in use cannot be deleted (delete_brand answers 409), hence restrict.
    brandId: uuid("brand_id").references(() => brands.id, { onDelete: "restrict" }),
    startedFromDeckId: uuid("started_from_deck_id").references((): AnyPgColumn => decks.id, { onDelete: "set null" }),
    // Minted on first publish and never changed, so shared links stay valid across unpublish/republish.
    publicSlug: text("public_slug"),
    // Link controls of the public link (lib/viewer/link-access.ts): an argon2id hash of the password a
    // viewer must give before the frame and module are served, and the moment the link stops answering.
    sharePasswordHash: text("share_password_hash"),
    shareExpiresAt: timestamp("share_expires_at", { withTimezone: true, mode: "date" }),
    // Theme tokens a deck starts with (from its starting deck or brand) until its first version carries its own.
    initialTokensCss: text("initial_tokens_css"),
    // Number of the newest version; versions are append-only and numbered 1..versionCount without gaps.
    // Incrementing it under the row lock is what serialises concurrent writers.
    versionCount: integer("version_count").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("decks_public_slug_key").on(t.publicSlug),
    index("decks_organization_created_idx").on(t.organizationId, t.createdAt),
    index("decks_owner_created_idx").on(t.ownerId, t.createdAt),
    index("decks_brand_idx").on(t.brandId),
  ],
);
