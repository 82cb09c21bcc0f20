import { eq, sql } from "drizzle-orm";
import { config, setting } from "@/lib/core/config";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/core/errors";
import { rateLimits } from "@/lib/db/schema/rate-limits";
import type { Queryable } from "@/lib/db/types";
import { logger } from "@/lib/core/log";

// Per-credential rate limits in fixed windows, counted in the database, the truth every instance shares,
// without a write per request: each instance counts requests far from the limit in memory and adds them
// to the database in one statement every RATE_LIMIT_FLUSH_MS (or sooner, once it holds a batch of them), learning
// the others' counts from each write's answer. Near the limit every request is counted in the database
// before it is answered. A request counted in memory is one the database has not seen yet, so a limit
// can be passed by what the other instances hold unwritten: at most a batch (a tenth of the limit, at
// least 1) per instance in a window. One instance alone is exact. On serverless functions (frozen between
// requests, so a timer may never run) every request is counted in the database.
// "slow" is the class of the long-running endpoints (generate, edit, the deck check, brand extraction).

export type LimitClass = "default" | "slow";
/** A limit of its own (a named bucket, its size and window), for counters other than requests. */
export type LimitSpec = { name: string; limit: number; windowSeconds: number };

export function rateLimitFor(limitClass: LimitClass): { limit: number; windowSeconds: number } {
  return {
    limit: limitClass === "slow" ? setting("RATE_LIMIT_SLOW_PER_MINUTE") : setting("RATE_LIMIT_PER_MINUTE"),
    windowSeconds: setting("RATE_LIMIT_WINDOW_SECONDS"),
  };
}

export type RateLimitState = { limit: number; remaining: number; resetSeconds: number; exceeded: boolean };

function specOf(limit: LimitClass | LimitSpec): LimitSpec {
  return typeof limit === "string" ? { name: limit, ...rateLimitFor(limit) } : limit;
}

/** Requests an instance may count in memory before it must write them: a tenth of the limit, at least 1. */
export function batchSize(limit: number, serverless = config.serverless): number {
  return serverless ? 0 : Math.max(1, Math.ceil(limit / 10));
}

/** A bucket's window on this instance: what it counted and not yet wrote, and what the database said. */
type Bucket = {
  key: string;
  windowStart: number;
  /** Counted here, not yet sent. */
  unwritten: number;
  /** Sent, not yet answered. */
  writing: number;
  /** The database's count at its last answer, less what this instance was still writing then. */
  known: number;
  /** The batch write in flight with this bucket's counts: a count in the database waits for it. */
  flushed?: Promise<void>;
};

type Counters = { buckets: Map<string, Bucket>; ended: Bucket[]; timer?: NodeJS.Timeout };
const holder = globalThis as typeof globalThis & { __deckhandRateLimits?: Counters };
const counters: Counters = (holder.__deckhandRateLimits ??= { buckets: new Map(), ended: [] });

function bucketFor(key: string, windowStart: number): Bucket {
  let bucket = counters.buckets.get(key);
  if (bucket?.windowStart === windowStart) return bucket;
  // The window turned: what the old one still holds unwritten is written with the next batch.
  if (bucket && bucket.unwritten > 0) counters.ended.push(bucket);
  bucket = { key, windowStart, unwritten: 0, writing: 0, known: 0 };
  counters.buckets.set(key, bucket);
  return bucket;
}

// Adds counts to their windows in one statement and answers each bucket's count. A count for a window
// older than the row's (an instance that wrote late) is dropped; a newer window starts the row afresh.
async function addCounts(db: Queryable, rows: { key: string; windowStart: number; count: number }[]) {
  const written = await db
    .insert(rateLimits)
    .values(rows.map((row) => ({ bucket: row.key, windowStart: new Date(row.windowStart), count: row.count })))
    .onConflictDoUpdate({
      target: rateLimits.bucket,
      set: {
        count: sql`case when ${rateLimits.windowStart} = excluded.window_start then ${rateLimits.count} + excluded.count when ${rateLimits.windowStart} < excluded.window_start then excluded.count else ${rateLimits.count} end`,
        windowStart: sql`greatest(${rateLimits.windowStart}, excluded.window_start)`,
      },
    })
    .returning({ key: rateLimits.bucket, count: rateLimits.count, windowStart: rateLimits.windowStart });
  return new Map(written.map((row) => [row.key, row]));
}

function learn(bucket: Bucket, answer: { count: number; windowStart: Date } | undefined, sent: number) {
  bucket.writing -= sent;
  if (answer && answer.windowStart.getTime() === bucket.windowStart) {
    bucket.known = Math.max(bucket.known, answer.count - bucket.writing);
  }
}

// Writes every bucket's unwritten counts at once. A failed write puts them back, to be tried again.
async function flush(): Promise<void> {
  clearTimeout(counters.timer);
  counters.timer = undefined;
  const due = [...counters.ended, ...[...counters.buckets.values()].filter((bucket) => bucket.unwritten > 0)];
  counters.ended = [];
  if (due.length === 0) return;
  const sent = due.map((bucket) => {
    const count = bucket.unwritten;
    bucket.unwritten = 0;
    bucket.writing += count;
    return count;
  });
  const write = writeBatch(due, sent);
  for (const bucket of due) bucket.flushed = write;
  await write;
  for (const bucket of due) if (bucket.flushed === write) bucket.flushed = undefined;
}

async function writeBatch(due: Bucket[], sent: number[]): Promise<void> {
  try {
    // Several ended windows of one bucket: the newest is written, the rest are past counting.
    const rows = new Map<string, { key: string; windowStart: number; count: number }>();
    due.forEach((bucket, i) => {
      const row = rows.get(bucket.key);
      if (!row || row.windowStart < bucket.windowStart) {
        rows.set(bucket.key, { key: bucket.key, windowStart: bucket.windowStart, count: sent[i]! });
      }
    });
    const answers = await addCounts(await getDb(), [...rows.values()]);
    due.forEach((bucket, i) => learn(bucket, answers.get(bucket.key), sent[i]!));
  } catch (error) {
    due.forEach((bucket, i) => {
      bucket.writing -= sent[i]!;
      bucket.unwritten += sent[i]!;
    });
    logger("rate-limit").warn("request counts could not be written; kept for the next flush", { error });
    scheduleFlush();
  }
}

function scheduleFlush() {
  if (counters.timer) return;
  counters.timer = setTimeout(() => void flush(), setting("RATE_LIMIT_FLUSH_MS"));
  counters.timer.unref();
}

export async function takeRateLimit(
  db: Queryable,
  subject: string,
  limitClass: LimitClass | LimitSpec,
): Promise<RateLimitState> {
  const { name, limit, windowSeconds } = specOf(limitClass);
  const now = Date.now();
  const windowMs = windowSeconds * 1000;
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const resetSeconds = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
  const bucket = bucketFor(`${subject}:${name}`, windowStart);
  const batch = batchSize(limit);
  const held = bucket.unwritten + bucket.writing;
  // Far from the limit, with room in this instance's batch: counted in memory.
  if (batch > 0 && held < batch && bucket.known + held + 1 <= limit - batch) {
    bucket.unwritten += 1;
    if (bucket.unwritten >= batch) void flush();
    else scheduleFlush();
    const count = bucket.known + held + 1;
    return { limit, remaining: limit - count, resetSeconds, exceeded: false };
  }
  // Near the limit: this request, with whatever waits unwritten, is counted in the database first, after
  // the batch this instance is writing (another connection's write could land after this one's answer).
  if (bucket.flushed) await bucket.flushed;
  const sent = bucket.unwritten + 1;
  bucket.unwritten = 0;
  bucket.writing += sent;
  let answer;
  try {
    answer = (await addCounts(db, [{ key: bucket.key, windowStart, count: sent }])).get(bucket.key);
  } catch (error) {
    bucket.writing -= sent;
    bucket.unwritten += sent - 1;
    throw error;
  }
  learn(bucket, answer, sent);
  // A write that lost to a newer window (this instance's clock runs behind) is not counted against it.
  const count = answer && answer.windowStart.getTime() === windowStart ? answer.count : sent;
  return { limit, remaining: Math.max(0, limit - count), resetSeconds, exceeded: count > limit };
}

/** The state of a limit without counting anything. */
export async function peekRateLimit(db: Queryable, subject: string, spec: LimitSpec): Promise<RateLimitState> {
  const { name, limit, windowSeconds } = spec;
  const now = Date.now();
  const windowMs = windowSeconds * 1000;
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const key = `${subject}:${name}`;
  const [row] = await db
    .select({ count: rateLimits.count, windowStart: rateLimits.windowStart })
    .from(rateLimits)
    .where(eq(rateLimits.bucket, key));
  // What this instance counted and has not written yet counts too.
  const bucket = counters.buckets.get(key);
  const held = bucket?.windowStart === windowStart ? bucket.unwritten : 0;
  const count = (row?.windowStart.getTime() === windowStart ? row.count : 0) + held;
  return {
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)),
    exceeded: count >= limit,
  };
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    "RateLimit-Limit": String(state.limit),
    "RateLimit-Remaining": String(state.remaining),
    "RateLimit-Reset": String(state.resetSeconds),
  };
}

export function rateLimitError(state: RateLimitState): AppError {
  return new AppError(
    "rate_limited",
    `Too many requests: the limit is ${state.limit} per window for this API key. Retry after ${state.resetSeconds} s.`,
    // A field too, so callers that are not HTTP (MCP tool errors) can say when to retry.
    { retryAfterSeconds: Math.max(1, state.resetSeconds) },
  );
}
