// A background job: what to run for one id, and how to ask for it on either transport. Each domain
// defines its jobs next to the work (lib/exports/export-job.ts, lib/ai/ai-run-job.ts) and hands the
// definition to `enqueue`, so the local runner gets the body with the id and never imports a domain.

export type Job<Result = unknown> = {
  /** Names the job in logs, and its lane in the local runner. */
  readonly name: string;
  /** The Inngest event that asks for a run of this id (of this organization, which Inngest's limits count by). */
  readonly event: (id: string, organizationId?: string) => { name: string; data: Record<string, unknown> };
  /** How many runs the local runner keeps going at once; read at each wake-up. */
  readonly concurrency: () => number;
  /** Does the work for one id. */
  readonly run: (id: string) => Promise<Result>;
  /**
   * Claims and does any one piece of queued work; answers "none" when nothing was waiting. A job with
   * `next` is only woken by `enqueue` (the id's row is among the work it claims, in the job's own order),
   * and is polled for work queued by other processes.
   */
  readonly next?: () => Promise<string>;
  /** Periodic upkeep on the local runner, before each poll (e.g. failing abandoned work). */
  readonly sweep?: () => Promise<void>;
};

export function defineJob<Result>(
  definition: Omit<Job<Result>, "concurrency"> & { concurrency: number | (() => number) },
): Job<Result> {
  const { concurrency } = definition;
  return Object.freeze({
    ...definition,
    concurrency: typeof concurrency === "number" ? () => concurrency : concurrency,
  });
}
