import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromiumExecutablePath } from "@/lib/render/chromium";
import { twentySlideModule } from "./api";
import { type BenchRow, type BenchServer, percentile } from "./server";

// Time from create_export to 'completed' for a 20-slide deck (PDF and PPTX, warm renderer, median of 5,
// polling get_export every 25 ms) and of check_deck on it, beside Marp CLI turning a 20-slide Markdown deck into a PDF with the
// same Chromium (whole process, as its users run it).

const RUNS = 5;

function marpDeck(): string {
  const slides = ["# Review\n\nA 20-slide comparison deck"];
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

// GET /decks/{id}/check on the same 20-slide deck: drawn as the PDF export draws it, then measured.
async function timeCheck(server: BenchServer): Promise<number[]> {
  const headers = { authorization: `Bearer ${server.key}`, "content-type": "application/json" };
  const deck = (await (
    await fetch(`${server.api}/decks`, { method: "POST", headers, body: '{"title":"Check bench"}' })
  ).json()) as { id: string };
  await fetch(`${server.api}/decks/${deck.id}/content`, {
    method: "PUT",
    headers,
    body: JSON.stringify({ source: twentySlideModule(0) }),
  });
  const samples: number[] = [];
  for (let run = 0; run <= RUNS; run++) {
    const start = performance.now();
    const response = await fetch(`${server.api}/decks/${deck.id}/check`, { headers });
    if (response.status !== 200) throw new Error(`check_deck answered ${response.status}`);
    const result = (await response.json()) as { slides: number };
    if (result.slides !== 20) throw new Error(`check_deck drew ${result.slides} slides`);
    if (run > 0) samples.push(performance.now() - start);
  }
  return samples;
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
  const marp = await timeMarp();
  const row = (label: string, samples: number[]): BenchRow => ({
    label,
    n: samples.length,
    median: percentile(samples, 50),
    p95: percentile(samples, 95),
  });
  const rows = [
    row("Deckhand PDF, 20 slides: create_export → completed", pdf),
    row("Deckhand PPTX, 20 slides: create_export → completed", pptx),
    row("Deckhand check_deck, 20 slides (warm; target under 1 s)", check),
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
  const checkRatio = percentile(marp, 50) / percentile(check, 50);
  rows.push({
    label: "Marp PDF median ÷ Deckhand check median (higher is better)",
    n: 1,
    median: checkRatio,
    p95: checkRatio,
    unit: "x",
  });
  return rows;
}
