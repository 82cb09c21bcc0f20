// Waiting for work done elsewhere (an export rendering, an authoring run): read its state until it is
// settled, with a delay that grows from `firstDelayMs` to `maxDelayMs`, and give up at the deadline.

export type PollOptions = {
  /** Epoch milliseconds after which `timeout()` is thrown instead of waiting again. */
  deadline: number;
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** The error to throw at the deadline (told the last state read, if any). */
  timeout: () => Error;
};

/** Calls `read` until it returns something other than undefined, and returns that. */
export async function pollUntil<T>(read: () => Promise<T | undefined>, options: PollOptions): Promise<T> {
  const { deadline, firstDelayMs = 250, maxDelayMs = 2000 } = options;
  for (let delay = firstDelayMs; ; delay = Math.min(delay * 1.5, maxDelayMs)) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() + delay > deadline) throw options.timeout();
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
