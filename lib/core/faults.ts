import { AppError } from "./errors";

// Failures of what the service stands on, told apart from its own bugs in one place: a database connection
// lost or refused, a database too busy to answer, a full disk (the data folder's, PGlite's or PostgreSQL's).
// The API, MCP and the app's actions answer them alike (lib/api/handler.ts): 503 or 507 with Retry-After and a
// message naming the cause, never a 500; the pool (lib/db/server-pool.ts) retries a transaction whose BEGIN
// met a lost connection, and the API a GET; and the log names the cause without the query's parameters.

/**
 * - `connection`: the connection broke or could not be made; the statement may not have reached the
 *   server, so an idempotent one can be tried again on another connection.
 * - `unavailable`: the database would not run it now (too many connections, a statement over its timeout,
 *   no free connection in the pool in time, the database closing as the server stops); trying again at once
 *   would not help.
 * - `disk_full`: a write found no space (ENOSPC, EDQUOT, or PostgreSQL's disk_full).
 */
export type FaultKind = "connection" | "unavailable" | "disk_full";

// SQLSTATE (PostgreSQL Appendix A): class 08 is "connection exception"; 57P01–57P03 and 57P05 end the
// session (admin shutdown, crash shutdown, cannot connect now, idle session timeout).
const connectionStates = /^(08...|57P0[1235])$/;
const unavailableStates = new Set([
  "53300" /* too_many_connections */,
  "57014" /* query_canceled: statement_timeout */,
]);
const diskFullStates = new Set(["53100" /* disk_full */]);
const connectionErrnos = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTCONN",
]);
const diskFullErrnos = new Set(["ENOSPC", "EDQUOT"]);
// What node-postgres (and the Neon driver, which bundles it) throw without a code.
const connectionMessages = [
  /^Connection terminated/, // unexpectedly, or due to connection timeout
  /not queryable/, // "Client has encountered a connection error and is not queryable", "Client was closed …"
  /^Query read timeout$/, // query_timeout: the server did not answer
];
const unavailableMessages = [
  /^timeout exceeded when trying to connect$/, // pg-pool: no connection free in time
  /^Cannot use a pool after calling end on the pool$/,
  /^PGlite is clos(ed|ing)$/,
];

/** What kind of outside failure `error` (or an error it was caused by) is, or null for anything else. */
export function faultOf(error: unknown): { kind: FaultKind; code: string } | null {
  for (const e of causes(error)) {
    const code = typeof e.code === "string" ? e.code : undefined;
    const message = typeof e.message === "string" ? e.message : "";
    if (code && (diskFullStates.has(code) || diskFullErrnos.has(code))) return { kind: "disk_full", code };
    if (code && (connectionStates.test(code) || connectionErrnos.has(code))) return { kind: "connection", code };
    if (code && unavailableStates.has(code)) return { kind: "unavailable", code };
    if (connectionMessages.some((pattern) => pattern.test(message))) return { kind: "connection", code: message };
    if (unavailableMessages.some((pattern) => pattern.test(message))) return { kind: "unavailable", code: message };
  }
  return null;
}

/** Whether `error` is a lost or refused database connection (what may be tried again elsewhere). */
export function isConnectionFault(error: unknown): boolean {
  return faultOf(error)?.kind === "connection";
}

/** Seconds a caller is told to wait: a lost connection heals in moments, a full disk needs a person. */
const RETRY_AFTER_SECONDS: Record<FaultKind, number> = { connection: 2, unavailable: 5, disk_full: 60 };

/** The answer to an outside failure: 503 or 507 with Retry-After and the cause named; null for others. */
export function faultError(error: unknown): AppError | null {
  const fault = faultOf(error);
  if (!fault) return null;
  const retryAfterSeconds = RETRY_AFTER_SECONDS[fault.kind];
  if (fault.kind === "disk_full") {
    return new AppError(
      "insufficient_storage",
      `The server's disk is full, so this could not be saved. Try again in ${retryAfterSeconds} seconds or later.`,
      { retryAfterSeconds, cause: error },
    );
  }
  return new AppError(
    "service_unavailable",
    fault.kind === "unavailable"
      ? `The database cannot take this request now (busy or stopping). Try again in ${retryAfterSeconds} seconds.`
      : `The database could not be reached. Try again in ${retryAfterSeconds} seconds.`,
    { retryAfterSeconds, cause: error },
  );
}

/**
 * A log line's fields for a failure: each error of the cause chain by name, code and message, and the
 * outermost stack's frames. A failed query is named by its SQL (cut short), never by its parameters: they
 * hold what was being written (a deck's source, kilobytes of it).
 */
export function describeError(error: unknown): { message: string; causes?: string[]; stack?: string } {
  const [first, ...rest] = causes(error).map(describeOne);
  const stack = error instanceof Error ? framesOf(error) : undefined;
  return {
    message: first ?? String(error),
    ...(rest.length > 0 ? { causes: rest } : {}),
    ...(stack?.length ? { stack: stack.slice(0, 12).join("\n") } : {}),
  };
}

// The stack's frames without its first line, the message (which may span lines of what was written).
function framesOf(error: Error): string[] {
  const header = `${error.name}: ${error.message}`;
  const stack = error.stack ?? "";
  return (stack.startsWith(header) ? stack.slice(header.length) : stack)
    .split("\n")
    .filter((line) => /^\s+at /.test(line));
}

function describeOne(e: ErrorLike): string {
  const name = typeof e.name === "string" ? e.name : "Error";
  const code = typeof e.code === "string" ? ` [${e.code}]` : "";
  const message = typeof e.message === "string" ? e.message : String(e);
  // drizzle's DrizzleQueryError: its message is the SQL followed by every parameter.
  if (typeof e.query === "string" && message.startsWith("Failed query: ")) {
    const sql = e.query.length > 200 ? `${e.query.slice(0, 200)}…` : e.query;
    const params = Array.isArray(e.params) ? e.params : [];
    const bytes = params.reduce<number>((sum, value) => sum + String(value ?? "").length, 0);
    return `${name}${code}: Failed query: ${sql} (${params.length} parameters, ${bytes} characters, not logged)`;
  }
  return `${name}${code}: ${message.length > 500 ? `${message.slice(0, 500)}…` : message}`;
}

type ErrorLike = { name?: unknown; code?: unknown; message?: unknown; query?: unknown; params?: unknown };

/** The error and those it was caused by, outermost first (at most five). */
function causes(error: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  for (let e = error; e && typeof e === "object" && chain.length < 5; e = (e as { cause?: unknown }).cause) {
    chain.push(e as ErrorLike);
  }
  return chain;
}
