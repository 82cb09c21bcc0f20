import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";
import { users } from "./users";

// Images of an organization (lib/assets): uploaded, imported from a URL when a version is written, or a
// brand's logo. Content-addressed: `sha256` is the hash of the bytes as received, one row per organization
// and hash, and the served file (the bytes received less their metadata when they fit, else downscaled or
// re-encoded; SVG rasterised) is stored once under that hash (rows of other organizations with the same hash
// share `stored_key`, a template's images copied to another organization too). Immutable: nothing updates a
// row.
export const assets = pgTable(
  "assets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    uploadedBy: uuid("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    sha256: text("sha256").notNull(),
    // Key (or blob URL) of the served file in the file store.
    storedKey: text("stored_key").notNull(),
    contentType: text("content_type").notNull(),
    // Bytes of the served file: what counts toward the organization's storage.
    bytes: integer("bytes").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    // The type the bytes were sniffed as (an SVG is served as the PNG it was rasterised to).
    originalType: text("original_type").notNull(),
    originalBytes: bigint("original_bytes", { mode: "number" }).notNull(),
    alt: text("alt"),
    // Where it was imported from (an image URL in a deck, a brand's logo); null for uploads.
    sourceUrl: text("source_url"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("assets_organization_sha256_idx").on(t.organizationId, t.sha256),
    index("assets_sha256_idx").on(t.sha256),
    index("assets_organization_source_url_idx").on(t.organizationId, t.sourceUrl),
    index("assets_organization_created_idx").on(t.organizationId, t.createdAt),
  ],
);
