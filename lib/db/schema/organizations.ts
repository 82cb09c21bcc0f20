import { pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const organizations = pgTable("organizations", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  // When the starter templates were given to the organization (lib/decks/seed-templates.ts): set once, so
  // templates its people delete are not given again.
  starterTemplatesAt: timestamp("starter_templates_at", { withTimezone: true, mode: "date" }),
});
