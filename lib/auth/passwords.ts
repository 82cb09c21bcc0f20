import os from "node:os";
import { hash, verify } from "@node-rs/argon2";
import { AppError } from "@/lib/core/errors";

// Passwords of the browser app's email sign-in and of password-protected share links: argon2id with the
// OWASP minimum profile (19 MiB, 2 iterations, 1 lane), the library's defaults. The encoded hash carries its
// parameters.
//
// Hashing runs on libuv's thread pool (the library's async functions), never on the event loop, and only a
// few at once: each one takes a CPU core for tens of milliseconds, so a burst of guesses would otherwise take
// every core from the requests and, at four, every thread of the pool that file and DNS work need too. At
// most half the CPUs (one or two) hash at once; the rest wait in line, and past a line of 32 per slot a check
// is refused at once (`rate_limited`, retry after a second) instead of waiting ever longer.

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

/** Passwords hashed at once, and the most that may wait for one of them. */
export const PASSWORD_SLOTS = Math.max(1, Math.min(2, Math.floor(os.availableParallelism() / 2)));
export const PASSWORD_LINE = PASSWORD_SLOTS * 32;

type Line = { running: number; waiting: Array<() => void> };
const holder = globalThis as typeof globalThis & { __deckhandPasswordLine?: Line };
const line: Line = (holder.__deckhandPasswordLine ??= { running: 0, waiting: [] });

/** Runs `work` when a hashing slot is free; refuses at once when the line is full. */
async function inLine<T>(work: () => Promise<T>): Promise<T> {
  if (line.running >= PASSWORD_SLOTS) {
    if (line.waiting.length >= PASSWORD_LINE) {
      throw new AppError("rate_limited", "Too many passwords are being checked right now; try again in a second.", {
        retryAfterSeconds: 1,
      });
    }
    await new Promise<void>((resolve) => line.waiting.push(resolve));
  } else {
    line.running += 1;
  }
  try {
    return await work();
  } finally {
    // The slot passes straight to the next in line, so a newcomer cannot take it first.
    const next = line.waiting.shift();
    if (next) next();
    else line.running -= 1;
  }
}

export function hashPassword(password: string): Promise<string> {
  return inLine(() => hash(password));
}

// A fixed hash to verify against when the user does not exist, so sign-in takes as long either way.
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$MF9mksIEHxNSnckkPrFB8w$BqDWEWh7Y0LCAHGqZ37tfHgexcwEOAn31bJ+xiI3Sqc";

/**
 * Whether the password matches the encoded hash (the dummy hash when null, so an unknown account costs the
 * same). `whenReady` runs once a slot is free, just before hashing, and may throw to check nothing: a limit
 * read then counts every check that finished before it, not only those that finished before the wait.
 * Throws `rate_limited` when the line is full.
 */
export async function verifyPassword(
  encoded: string | null,
  password: string,
  whenReady?: () => Promise<void>,
): Promise<boolean> {
  return inLine(async () => {
    await whenReady?.();
    try {
      return await verify(encoded ?? DUMMY_HASH, password);
    } catch {
      return false;
    }
  });
}
