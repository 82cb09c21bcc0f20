import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromiumExecutablePath } from "@/lib/render/chromium";
import { processTree } from "../helpers/processes";
import { twentySlideModule } from "./api";
import { type BenchRow, type BenchServer, percentile } from "./server";

// Time from create_export to 'completed' for a 20-slide deck (PDF and PPTX, warm renderer, median of 5,
// polling get_export every 25 ms) and of check_deck on it, beside Marp CLI turning a 20-slide Markdown deck into a PDF with the
// same Chromium (whole process, as its users run it). Then throughput: 10 different 20-slide decks
// exported at once (PDF, then PPTX; wall time from the first create_export to the last 'completed',
// median of 3) beside Marp CLI converting the same 10 decks in one batch with `--parallel 5`, and the
// server's peak memory (its Node process, and the whole tree with Chromium) sampled during one more batch.

const RUNS = 5;
const BATCH = 10;
const BATCH_RUNS = 3;

function marpDeck(seed = 0): string {
  const slides = [`# Review ${seed}\n\nA 20-slide comparison deck`];
  for (let n = 2; n <= 20; n++) {
    slides.push(
      `## Section ${n}: what we learned\n\n- Retention up ${n}%\n- Churn down in every segment\n- Two new enterprise logos\n\nNext steps for section ${n}: hire, ship, measure, repeat.`,
    );
  }
  return `---\nmarp: true\n---\n\n${slides.join("\n\n---\n\n")}\n`;
}

async function timeDeckhand(server: BenchServer, format: "pdf" | "pptx"): Promise<number[]> {
  const headers = { authorization: `Bearer ${server.key}`, "content-type": "application/json" };
  const deck = (await (
    await fetch(`${server.api}/decks`, { method: "POST", headers, body: '{"title":"Export bench"}' })
  ).json()) as {
    id: string;
  };
  // One version per run, so the reuse window never hands back an earlier export.
  for (let v = 0; v <= RUNS; v++) {
    await fetch(`${server.api}/decks/${deck.id}/content`, {
      method: "PUT",
      headers,
      body: JSON.stringify({ source: twentySlideModule(v) }),
    });
  }
  const samples: number[] = [];
  for (let version = 1; version <= RUNS + 1; version++) {
    const start = performance.now();
    const created = (await (
      await fetch(`${server.api}/decks/${deck.id}/exports`, {
        method: "POST",
        headers,
        body: JSON.stringify({ format, version }),
      })
    ).json()) as { id: string };
    for (;;) {
      const state = (await (await fetch(`${server.api}/exports/${created.id}`, { headers })).json()) as {
        status: string;
        error: string;
      };
      if (state.status === "completed") break;
      if (state.status === "failed") throw new Error(`export failed: ${state.error}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    if (version > 1) samples.push(performance.now() - start); // the first run warms the browser
  }
  return samples;
}

// GET /decks/{id}/check on 20-slide decks, drawn as the PDF export draws them, then measured: a deck's first
// check (a new page in the organization's warm renderer), the same version checked again, and a check after
// one slide's heading changed (the editor's case: the deck's kept page draws the new version in place).
type CheckSamples = { first: number[]; again: number[]; edited: number[] };

async function timeCheck(server: BenchServer): Promise<CheckSamples> {
  const headers = { authorization: `Bearer ${server.key}`, "content-type": "application/json" };
  const timed = async (deck: string, into?: number[]) => {
    const start = performance.now();
    const response = await fetch(`${server.api}/decks/${deck}/check`, { headers });
    if (response.status !== 200) throw new Error(`check_deck answered ${response.status}`);
    const result = (await response.json()) as { slides: number };
    if (result.slides !== 20) throw new Error(`check_deck drew ${result.slides} slides`);
    into?.push(performance.now() - start);
  };
  const put = (deck: string, source: string) =>
    fetch(`${server.api}/decks/${deck}/content`, { method: "PUT", headers, body: JSON.stringify({ source }) });
  const samples: CheckSamples = { first: [], again: [], edited: [] };
  let deck = "";
  for (let run = 0; run <= RUNS; run++) {
    deck = (
      (await (
        await fetch(`${server.api}/decks`, { method: "POST", headers, body: '{"title":"Check bench"}' })
      ).json()) as {
        id: string;
      }
    ).id;
    await put(deck, twentySlideModule(0));
    await timed(deck, run > 0 ? samples.first : undefined); // the first run warms the renderer
  }
  for (let run = 0; run < RUNS; run++) await timed(deck, samples.again);
  for (let run = 0; run < RUNS; run++) {
    await put(deck, twentySlideModule(0).replace("Section 1: what we learned", `Section 1: edit ${run}`));
    await timed(deck, samples.edited);
  }
  return samples;
}

type Headers = Record<string, string>;

// A request again when the server closed an idle keep-alive socket just as it was reused.
async function send(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch {
    return fetch(url, init);
  }
}

async function waitCompleted(server: BenchServer, headers: Headers, ids: string[], pollMs: number): Promise<void> {
  const pending = new Set(ids);
  while (pending.size > 0) {
    for (const id of [...pending]) {
      const state = (await (await send(`${server.api}/exports/${id}`, { headers })).json()) as {
        status: string;
        error: string;
      };
      if (state.status === "completed") pending.delete(id);
      else if (state.status === "failed") throw new Error(`export failed: ${state.error}`);
    }
    if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

// Memory of the server's process tree, read from /proc: the Node server's RSS, and the proportional set
// size (shared pages split between the processes sharing them) of the server with every Chromium process,
// and of the Chromium processes alone (the renderer).
export type MemorySample = { serverRss: number; treePss: number; rendererPss: number };

function procField(file: string, field: string): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(fs.readFileSync(file, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0; // the process ended meanwhile
  }
}

function sampleMemory(root: number): MemorySample {
  let serverRss = 0;
  let treePss = 0;
  let rendererPss = 0;
  for (const pid of processTree(root)) {
    let comm: string;
    try {
      comm = fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim();
    } catch {
      continue; // the process ended meanwhile
    }
    const pss = procField(`/proc/${pid}/smaps_rollup`, "Pss");
    if (!/chrom|headless/i.test(comm)) serverRss += procField(`/proc/${pid}/status`, "VmRSS");
    else rendererPss += pss;
    treePss += pss;
  }
  return { serverRss, treePss, rendererPss };
}

/** Samples every 50 ms until stopped; answers the peaks. */
export function watchMemory(root: number): () => MemorySample {
  const peak: MemorySample = { serverRss: 0, treePss: 0, rendererPss: 0 };
  const take = () => {
    const sample = sampleMemory(root);
    peak.serverRss = Math.max(peak.serverRss, sample.serverRss);
    peak.treePss = Math.max(peak.treePss, sample.treePss);
    peak.rendererPss = Math.max(peak.rendererPss, sample.rendererPss);
  };
  take();
  const timer = setInterval(take, 50);
  return () => {
    clearInterval(timer);
    take();
    return peak;
  };
}

// 10 decks of 20 slides, each with a version per run (so the reuse window never answers an earlier
// export); each run creates the 10 exports at once and waits until all are completed. The timed runs are
// not watched: reading every process's smaps_rollup 20 times a second took about a fifth of the machine's
// CPU, which the Marp batch beside them did not pay. The memory is that of one more, untimed, run.
async function timeConcurrent(
  server: BenchServer,
): Promise<{ pdf: number[]; pptx: number[]; memory: { pdf: MemorySample; pptx: MemorySample } }> {
  const headers = { authorization: `Bearer ${server.key}`, "content-type": "application/json" };
  const decks: string[] = [];
  for (let d = 0; d < BATCH; d++) {
    const deck = (await (
      await send(`${server.api}/decks`, { method: "POST", headers, body: `{"title":"Batch bench ${d}"}` })
    ).json()) as { id: string };
    for (let run = 0; run <= BATCH_RUNS; run++) {
      await send(`${server.api}/decks/${deck.id}/content`, {
        method: "PUT",
        headers,
        body: JSON.stringify({ source: twentySlideModule(100 * d + run) }),
      });
    }
    decks.push(deck.id);
  }
  const batch = async (format: "pdf" | "pptx", version: number) => {
    const start = performance.now();
    const ids = await Promise.all(
      decks.map(
        async (deck) =>
          (
            (await (
              await send(`${server.api}/decks/${deck}/exports`, {
                method: "POST",
                headers,
                body: JSON.stringify({ format, version }),
              })
            ).json()) as { id: string }
          ).id,
      ),
    );
    await waitCompleted(server, headers, ids, 100);
    return performance.now() - start;
  };
  const result = { pdf: [] as number[], pptx: [] as number[], memory: {} as { pdf: MemorySample; pptx: MemorySample } };
  for (const format of ["pdf", "pptx"] as const) {
    for (let version = 1; version <= BATCH_RUNS; version++) result[format].push(await batch(format, version));
    const stop = watchMemory(server.pid);
    await batch(format, BATCH_RUNS + 1);
    result.memory[format] = stop();
  }
  return result;
}

// Marp CLI converting the same 10 decks (as Markdown) in one process, five conversions at a time.
async function timeMarpBatch(): Promise<number[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-marp-batch-"));
  const chrome = await chromiumExecutablePath();
  try {
    fs.mkdirSync(path.join(dir, "in"));
    for (let d = 0; d < BATCH; d++) fs.writeFileSync(path.join(dir, "in", `deck-${d}.md`), marpDeck(d));
    const samples: number[] = [];
    for (let run = 0; run <= BATCH_RUNS; run++) {
      fs.rmSync(path.join(dir, "out"), { recursive: true, force: true });
      const start = performance.now();
      execFileSync(path.resolve("node_modules/.bin/marp"), ["--pdf", "--parallel", "5", "-I", "in", "-o", "out"], {
        cwd: dir,
        env: { ...process.env, CHROME_PATH: chrome },
        stdio: "ignore",
      });
      if (run > 0) samples.push(performance.now() - start);
      const made = fs.readdirSync(path.join(dir, "out")).filter((file) => file.endsWith(".pdf")).length;
      if (made !== BATCH) throw new Error(`Marp made ${made} PDFs of ${BATCH}`);
    }
    return samples;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function timeMarp(): Promise<number[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-marp-"));
  const chrome = await chromiumExecutablePath();
  try {
    fs.writeFileSync(path.join(dir, "deck.md"), marpDeck());
    const samples: number[] = [];
    for (let run = 0; run <= RUNS; run++) {
      const start = performance.now();
      execFileSync(path.resolve("node_modules/.bin/marp"), ["deck.md", "--pdf", "-o", "deck.pdf"], {
        cwd: dir,
        env: { ...process.env, CHROME_PATH: chrome },
        stdio: "ignore",
      });
      if (run > 0) samples.push(performance.now() - start);
    }
    return samples;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchExports(server: BenchServer): Promise<BenchRow[]> {
  const pdf = await timeDeckhand(server, "pdf");
  const pptx = await timeDeckhand(server, "pptx");
  const check = await timeCheck(server);
  const batch = await timeConcurrent(server);
  const marp = await timeMarp();
  const marpBatch = await timeMarpBatch();
  const row = (label: string, samples: number[]): BenchRow => ({
    label,
    n: samples.length,
    median: percentile(samples, 50),
    p95: percentile(samples, 95),
  });
  const rows = [
    row("Deckhand PDF, 20 slides: create_export → completed", pdf),
    row("Deckhand PPTX, 20 slides: create_export → completed (target under 600 ms)", pptx),
    row("Deckhand check_deck, 20 slides: a deck's first check (warm renderer)", check.first),
    row("Deckhand check_deck, 20 slides: the same version again", check.again),
    row("Deckhand check_deck, 20 slides: after one slide's heading changed (target under 150 ms)", check.edited),
    row("Marp CLI PDF, 20 slides (whole process, same Chromium)", marp),
  ];
  const ratio = percentile(marp, 50) / percentile(pdf, 50);
  rows.push({
    label: "Marp PDF median ÷ Deckhand PDF median (higher is better)",
    n: 1,
    median: ratio,
    p95: ratio,
    unit: "x",
  });
  const checkRatio = percentile(marp, 50) / percentile(check.edited, 50);
  rows.push({
    label: "Marp PDF median ÷ Deckhand check median after an edit (higher is better)",
    n: 1,
    median: checkRatio,
    p95: checkRatio,
    unit: "x",
  });
  rows.push(
    row(`Deckhand ${BATCH} concurrent PDF exports, 20 slides each: wall time`, batch.pdf),
    row(`Deckhand ${BATCH} concurrent PPTX exports, 20 slides each: wall time`, batch.pptx),
    row(`Marp CLI, the same ${BATCH} decks as PDF, --parallel 5: wall time (one process)`, marpBatch),
  );
  const batchRatio = percentile(marpBatch, 50) / percentile(batch.pdf, 50);
  rows.push({
    label: `Marp batch ÷ Deckhand ${BATCH} concurrent PDFs (higher is better; target at least 2x)`,
    n: 1,
    median: batchRatio,
    p95: batchRatio,
    unit: "x",
  });
  const mb = (bytes: number) => bytes / (1024 * 1024);
  for (const format of ["pdf", "pptx"] as const) {
    const peak = batch.memory[format];
    const name = format.toUpperCase();
    rows.push(
      {
        label: `Peak RSS of the Node server during the ${name} batches`,
        n: 1,
        median: mb(peak.serverRss),
        p95: mb(peak.serverRss),
        unit: "MiB",
      },
      {
        label: `Peak PSS of the server with its Chromium during the ${name} batches`,
        n: 1,
        median: mb(peak.treePss),
        p95: mb(peak.treePss),
        unit: "MiB",
      },
    );
  }
  return rows;
}
