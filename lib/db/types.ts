import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";

// The one database type the domain sees, whichever driver (PGlite, pg, Neon) is behind it.
export type Db = PgDatabase<PgQueryResultHKT, Record<string, never>>;
export type Tx = PgTransaction<
  PgQueryResultHKT,
  Record<string, never>,
  ExtractTablesWithRelations<Record<string, never>>
>;
// Domain functions accept either, so they can run alone or inside a caller's transaction.
export type Queryable = Db | Tx;
