import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// Fixed-window request counters, one row per credential and limit class, so limits hold across every
// server instance (serverless functions share nothing else).
export const rateLimits = pgTable("rate_limits", {
  bucket: text("bucket").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true, mode: "date" }).notNull(),
  count: integer("count").notNull(),
});
