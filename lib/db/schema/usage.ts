import { integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

// What an organization has consumed of a metered feature in one calendar month (UTC, "YYYY-MM").
export const usage = pgTable(
  "usage",
  {
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    featureId: text("feature_id").notNull(),
    period: text("period").notNull(),
    used: integer("used").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.featureId, t.period] })],
);

// A per-organization monthly limit that overrides the environment's default for one feature.
export const allowances = pgTable(
  "allowances",
  {
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    featureId: text("feature_id").notNull(),
    monthlyLimit: integer("monthly_limit").notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.featureId] })],
);
