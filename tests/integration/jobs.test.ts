import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { InngestTestEngine } from "@inngest/test";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { authorDeck } from "@/inngest/functions/author-deck";
import { readAiRunOutcome, runAiRun } from "@/lib/ai/ai-run-job";
import { toAppError } from "@/lib/api/handler";
import { AppError } from "@/lib/core/errors";
import type { Database } from "@/lib/db/client";
import { aiRuns } from "@/lib/db/schema/ai-runs";
import { exports } from "@/lib/db/schema/exports";
import { enqueue } from "@/lib/jobs/enqueue";
import { inngest } from "@/lib/jobs/inngest";
import { defineJob } from "@/lib/jobs/job";
import { stopLocalRunner } from "@/lib/jobs/local-runner";
import { call, createUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, deckSource, setContent } from "../helpers/decks";
import { importEdges, sourceFiles } from "../helpers/import-graph";
import { statusOf } from "@/lib/api/status";

// One jobs module: exports and AI runs are both handed to lib/jobs (`enqueue`), which sends the job's
// Inngest event or wakes the in-process runner. Generate and edit always go through an ai_runs row; the
// Inngest adapters run the same bodies; and lib/jobs knows no domain.

let database: Database;

beforeAll(async () => {
  database = await setUpTestDatabase();
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

afterAll(() => stopLocalRunner());

// No Inngest and no model: the local runner and the offline generator.
function withoutInngest() {
  vi.stubEnv("INNGEST_EVENT_KEY", "");
  vi.stubEnv("INNGEST_DEV", "");
  vi.stubEnv("OPENAI_API_KEY", "");
}

const runsOf = (deckId: string) => database.db.select().from(aiRuns).where(eq(aiRuns.deckId, deckId));

const brief = "# Launch plan\n\n## Goals\n- Ship v1\n- Ten customers\n\n## Risks\n- Hiring\n- Scope";

describe("generate and edit on the local runner", () => {
  it("go through an ai_runs row that ends with what the API answered", async () => {
    withoutInngest();
    const user = await createUser();
    const deck = await createDeck(user, { title: "Runs" });

    const created = await call("POST", `/decks/${deck.id}/generate`, {
      key: user.key,
      body: { brief, mode: "create" },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toEqual({ id: expect.any(String), version: 1 });
    const [run] = await runsOf(deck.id);
    expect(run).toMatchObject({
      status: "completed",
      kind: "generate",
      userId: user.userId,
      organizationId: user.organizationId,
      input: { kind: "generate", deckId: deck.id, brief, mode: "create" },
      result: created.body,
      error: null,
    });

    // A refusal of the offline editor is recorded on its run and answered as before.
    const vague = await call("POST", `/decks/${deck.id}/edit`, {
      key: user.key,
      body: { instruction: "Make slide 2 more persuasive" },
    });
    expect(vague.status).toBe(422);
    expect(vague.body.error).toEqual({ code: "invalid_request", message: expect.stringMatching(/OPENAI_API_KEY/) });
    const runs = await runsOf(deck.id);
    expect(runs).toHaveLength(2);
    expect(runs.find((row) => row.kind === "edit")).toMatchObject({
      status: "failed",
      result: null,
      error: vague.body.error,
    });
  });

  it("records nothing for a request refused before the run (another organization's deck, not the owner)", async () => {
    withoutInngest();
    const org = `org-${randomUUID()}`;
    const owner = await createUser({ org });
    const colleague = await createUser({ org });
    const stranger = await createUser();
    const deck = await createDeck(owner, { title: "Not yours" });

    const foreign = await call("POST", `/decks/${deck.id}/generate`, {
      key: stranger.key,
      body: { brief, mode: "create" },
    });
    expect(foreign.status).toBe(404);
    const notOwner = await call("POST", `/decks/${deck.id}/generate`, {
      key: colleague.key,
      body: { brief, mode: "create" },
    });
    expect(notOwner.status).toBe(403);
    expect(await runsOf(deck.id)).toEqual([]);
  });

  it("answers an unexpected failure of the run as a server error, not after the timeout", async () => {
    withoutInngest();
    const user = await createUser();
    const deck = await createDeck(user);
    expect((await setContent(user, deck.id, { source: deckSource(["One"]) })).status).toBe(200);
    // An input no request can make (the API checks ids): the database refuses it as it would a bug.
    const [run] = await database.db
      .insert(aiRuns)
      .values({
        organizationId: user.organizationId,
        deckId: deck.id,
        userId: user.userId,
        kind: "edit",
        input: { kind: "edit", deckId: "not-a-uuid", instruction: '"One" → "Two"' },
      })
      .returning();
    const logged = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const result = await runAiRun(run!.id);
    expect(result).toMatchObject({ status: "failed", error: { code: "internal" } });
    expect(logged).toHaveBeenCalled();

    const outcome = await readAiRunOutcome(database.db, run!.id);
    expect(outcome?.ok).toBe(false);
    const error = outcome && !outcome.ok ? outcome.error : undefined;
    // Not an AppError: the route maps it like any unknown error (logged, a bare 500 naming the request).
    expect(error).not.toBeInstanceOf(AppError);
    const answered = toAppError(error, "req-1");
    expect({ code: answered.code, status: statusOf(answered), message: answered.message }).toEqual({
      code: "internal",
      status: 500,
      message: "Unexpected server error (request req-1).",
    });
  });

  it("answers a NUL character the database refused in the model's deck as the 422 it is", async () => {
    // An OpenAI-compatible server on loopback whose deck compiles, with a NUL escape in a slide label.
    const source = deckSource(["Two"]).replace('label="Two"', 'label={"a\\u0000b"}');
    const server = http.createServer((_req, res) => {
      _req.resume().on("end", () => {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(
          JSON.stringify({
            id: "chatcmpl-1",
            object: "chat.completion",
            created: 1_700_000_000,
            model: "local-model",
            choices: [
              { index: 0, message: { role: "assistant", content: "```tsx\n" + source + "```" }, finish_reason: "stop" },
            ],
            usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      withoutInngest();
      vi.stubEnv("OPENAI_API_KEY", "test-key");
      vi.stubEnv("OPENAI_BASE_URL", `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
      const user = await createUser();
      const deck = await createDeck(user);
      vi.spyOn(process.stderr, "write").mockImplementation(() => true);
      const res = await call("POST", `/decks/${deck.id}/generate`, { key: user.key, body: { brief, mode: "create" } });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.error).toEqual({ code: "invalid_request", message: expect.stringContaining("NUL character") });
      const [run] = await runsOf(deck.id);
      expect(run).toMatchObject({ status: "failed", error: { code: "internal" } });
      expect((await call("GET", `/decks/${deck.id}`, { key: user.key })).body.versionCount).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("ends quietly when the run's row is gone", async () => {
    expect(await runAiRun(randomUUID())).toEqual({ runId: expect.any(String), status: "missing" });
  });
});

describe("with Inngest configured", () => {
  // Sending needs an Inngest server: each sent event is handed to the function in-process with
  // @inngest/test instead, as Inngest would deliver it.
  function deliverInProcess() {
    vi.stubEnv("INNGEST_DEV", "1");
    vi.stubEnv("OPENAI_API_KEY", "");
    const runs: Promise<{ result?: unknown; error?: unknown; stepNames: unknown[] }>[] = [];
    const send = vi.spyOn(inngest, "send").mockImplementation(async (payload) => {
      const event = payload as { name: string; data: Record<string, unknown> };
      if (event.name === "deckhand/ai.requested") {
        runs.push(
          new InngestTestEngine({ function: authorDeck, events: [event as never] }).execute().then((run) => ({
            result: run.result,
            error: run.error,
            stepNames: (run.ctx.step.run as unknown as { mock: { calls: unknown[][] } }).mock.calls.map((c) => c[0]),
          })),
        );
      }
      return { ids: [randomUUID()] };
    });
    return { send, runs };
  }

  it("generate sends the run's event, and the author-deck function runs the same job body", async () => {
    const { send, runs } = deliverInProcess();
    const user = await createUser();
    const deck = await createDeck(user, { title: "On Inngest" });
    const created = await call("POST", `/decks/${deck.id}/generate`, {
      key: user.key,
      body: { brief, mode: "create" },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toEqual({ id: expect.any(String), version: 1 });

    const [run] = await runsOf(deck.id);
    expect(send).toHaveBeenCalledWith(
      expect.objectContaining({
        name: "deckhand/ai.requested",
        data: { runId: run!.id, organizationId: user.organizationId },
      }),
    );
    expect(run).toMatchObject({ status: "completed", result: created.body });
    expect(runs).toHaveLength(1);
    const executed = await runs[0]!;
    expect(executed.error).toBeUndefined();
    expect(executed.result).toEqual({ runId: run!.id, status: "completed", result: created.body });
    expect(executed.stepNames).toEqual(expect.arrayContaining(["load", "prepare", "offline", "save", "record"]));

    // A refusal replays as the same error through the durable steps.
    const again = await call("POST", `/decks/${deck.id}/generate`, { key: user.key, body: { brief, mode: "create" } });
    expect(again.status).toBe(422);
    expect(again.body.error.message).toMatch(/already has content/);
    expect(runs).toHaveLength(2);
    expect((await runs[1]!).result).toMatchObject({ status: "failed", error: again.body.error });
  });

  it("an export is handed to Inngest as its event, not to the local runner", async () => {
    const { send } = deliverInProcess();
    const user = await createUser();
    const deck = await createDeck(user, { title: "Export on Inngest" });
    expect((await setContent(user, deck.id, { source: deckSource(["One", "Two"]) })).status).toBe(200);
    const created = await call("POST", `/decks/${deck.id}/exports`, { key: user.key, body: { format: "pdf" } });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    expect(send).toHaveBeenCalledWith(
      expect.objectContaining({
        name: "deckhand/export.requested",
        data: { exportId: created.body.id, organizationId: user.organizationId },
      }),
    );
    // Nothing in this process claimed it.
    const [row] = await database.db.select().from(exports).where(eq(exports.id, created.body.id));
    expect(row).toMatchObject({ status: "pending", attempts: 0 });
  });
});

describe("the local runner", () => {
  function gate() {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { opened, open };
  }

  it("runs each job in its own lane, up to the job's concurrency, and every id once", async () => {
    withoutInngest();
    const slow = gate();
    const started: string[] = [];
    let running = 0;
    let most = 0;
    const job = defineJob({
      name: `test-${randomUUID()}`,
      event: (id) => ({ name: "test/never-sent", data: { id } }),
      concurrency: 2,
      run: async (id) => {
        started.push(id);
        most = Math.max(most, ++running);
        await slow.opened;
        running -= 1;
      },
    });
    const other: string[] = [];
    const quick = defineJob({
      name: `test-${randomUUID()}`,
      event: (id) => ({ name: "test/never-sent", data: { id } }),
      concurrency: 1,
      run: async (id) => {
        other.push(id);
      },
    });

    for (const id of ["a", "b", "c", "d"]) await enqueue(job, id);
    await expect.poll(() => started).toEqual(["a", "b"]);
    // The other job is not behind the busy one.
    await enqueue(quick, "x");
    await expect.poll(() => other).toEqual(["x"]);
    slow.open();
    await expect.poll(() => started).toEqual(["a", "b", "c", "d"]);
    await expect.poll(() => running).toBe(0);
    expect(most).toBe(2);
  });

  it("wakes a job that claims its own work, and a worker looks again if woken during a claim", async () => {
    withoutInngest();
    const queue: string[] = [];
    const done: string[] = [];
    const claiming = gate();
    let claims = 0;
    const job = defineJob({
      name: `test-${randomUUID()}`,
      event: (id) => ({ name: "test/never-sent", data: { id } }),
      concurrency: 1,
      run: async () => "none",
      next: async () => {
        claims += 1;
        // The first claim finds nothing, but is slow: work arrives while it looks.
        if (claims === 1) {
          await claiming.opened;
          return "none";
        }
        const id = queue.shift();
        if (!id) return "none";
        done.push(id);
        return "done";
      },
    });
    await enqueue(job, "ignored: the job claims its own work");
    await expect.poll(() => claims).toBe(1);
    queue.push("late");
    await enqueue(job, "late");
    claiming.open();
    // Found by the same worker looking again, not by the next poll (every 2 s).
    await expect.poll(() => done, { timeout: 1000 }).toEqual(["late"]);
  });
  it("claims with no more workers than the job's concurrency, read again before each claim", async () => {
    withoutInngest();
    let size = 3;
    let left = 100;
    let claiming = 0;
    let most = 0;
    let round = gate();
    const job = defineJob({
      name: `test-${randomUUID()}`,
      event: (id) => ({ name: "test/never-sent", data: { id } }),
      concurrency: () => size,
      run: async () => "none",
      next: async () => {
        most = Math.max(most, ++claiming);
        await round.opened;
        claiming -= 1;
        return left-- > 0 ? "done" : "none";
      },
    });
    await enqueue(job, "wake");
    await expect.poll(() => claiming).toBe(3);
    // Lowered while three claim: two of them stop after this claim, one goes on.
    size = 1;
    most = 0;
    const first = round;
    round = gate();
    first.open();
    await expect.poll(() => claiming).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 2500)); // a poll of the runner's (every 2 s) too
    expect(claiming).toBe(1);
    expect(most).toBe(1);
    left = 0;
    round.open();
    await expect.poll(() => claiming).toBe(0);
  });
});

describe("lib/jobs", () => {
  it("imports no domain: only lib/core, lib/db, its own files and packages", () => {
    const edges = importEdges(sourceFiles(["lib/jobs"])).filter((edge) => edge.from.startsWith("lib/jobs/"));
    expect(edges.length).toBeGreaterThan(0);
    const local = edges.filter((edge) => edge.specifier.startsWith("@/") || edge.specifier.startsWith("."));
    expect(local.filter((edge) => !/^lib\/(core|db|jobs)\//.test(edge.to))).toEqual([]);
  });

  it("is the only home of the Inngest client", () => {
    const stale = importEdges().filter(
      (edge) => edge.specifier === "@/inngest/client" || edge.to === "inngest/client.ts",
    );
    expect(stale).toEqual([]);
  });
});
