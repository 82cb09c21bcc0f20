import { chromium } from "playwright-core";
import { chromiumExecutablePath, testChromiumArgs } from "@/lib/render/chromium";
import { bigDeck } from "../helpers/big-deck";
import { watchMemory } from "./exports";
import { type BenchServer, percentile } from "./server";

// Big decks (issue 39): for 20, 100, 200 and 400 slides of the same shape (a heading, a list and a stat;
// then a chart; repeated: tests/helpers/big-deck.ts), the time from create_export to 'completed' of a PDF
// and of a PPTX (one each, warm renderer, polling every 50 ms) and per slide, the peak memory of the
// server (its Node processes' RSS) and of the renderer (its Chromium processes' PSS) during the same exports
// of a new version (untimed: sampling memory costs CPU),
// check_deck after one slide changed (median of 3 after the deck's first check) and a share link's navigation → first slide painted
// (median of 3 fresh contexts after one warm-up).

const SIZES = (process.env.BENCH_SCALE_SIZES ?? "20,100,200,400").split(",").map(Number);
const CHECKS = 3;
const LOADS = 3;

type Headers = Record<string, string>;

async function api<T>(server: BenchServer, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Headers = { authorization: `Bearer ${server.key}`, "content-type": "application/json" };
  const init = { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
  // Once again when the server closed an idle keep-alive socket just as it was reused (as exports.ts does).
  const response = await fetch(`${server.api}${path}`, init).catch(() => fetch(`${server.api}${path}`, init));
  if (response.status >= 400)
    throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function timeExport(server: BenchServer, deck: string, format: "pdf" | "pptx"): Promise<number> {
  const start = performance.now();
  const { id } = await api<{ id: string }>(server, "POST", `/decks/${deck}/exports`, { format });
  for (;;) {
    const state = await api<{ status: string; error: string }>(server, "GET", `/exports/${id}`);
    if (state.status === "completed") return performance.now() - start;
    if (state.status === "failed") throw new Error(`${format} export failed: ${state.error}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// The editor's case: each timed check follows a version with one slide's heading changed (the first check of
// the deck, which draws it in a new page, is not counted).
async function timeCheck(server: BenchServer, deck: string, slides: number): Promise<number> {
  const samples: number[] = [];
  for (let run = 0; run <= CHECKS; run++) {
    if (run > 0) {
      const source = bigDeck(slides).replace("Section 1: what we learned", `Section 1: edit ${run}`);
      await api(server, "PUT", `/decks/${deck}/content`, { source });
    }
    const start = performance.now();
    const result = await api<{ slides: number }>(server, "GET", `/decks/${deck}/check`);
    if (result.slides !== slides) throw new Error(`check_deck drew ${result.slides} slides of ${slides}`);
    if (run > 0) samples.push(performance.now() - start);
  }
  // The deck as it was, for the share page that follows.
  await api(server, "PUT", `/decks/${deck}/content`, { source: bigDeck(slides) });
  return percentile(samples, 50);
}

async function timeFirstPaint(browser: Awaited<ReturnType<typeof chromium.launch>>, url: string): Promise<number> {
  const samples: number[] = [];
  for (let load = 0; load <= LOADS; load++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    await page.goto(url);
    const start = await page.evaluate(() => performance.timeOrigin);
    const frame = await (await page.waitForSelector("#dh-frame")).contentFrame();
    // A string, not a function: tsx would wrap named functions in a helper the page does not have.
    const paintedAt = (await frame!.evaluate(`new Promise((resolve) => {
      const check = () => {
        const text = document.querySelector(".dh-stage-slide:not([hidden])")?.textContent ?? "";
        if (text.includes("Section 1: what we learned")) {
          requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.timeOrigin + performance.now())));
        } else requestAnimationFrame(check);
      };
      check();
    })`)) as number;
    if (load > 0) samples.push(paintedAt - start);
    await context.close();
  }
  return percentile(samples, 50);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

export async function benchScale(server: BenchServer): Promise<string> {
  const browser = await chromium.launch({
    executablePath: await chromiumExecutablePath(),
    args: [...testChromiumArgs],
  });
  const rows: string[] = [];
  const perSlide: Record<"pdf" | "pptx", number[]> = { pdf: [], pptx: [] };
  try {
    // Warms the renderer (its launch is not part of any size's time).
    const warm = await api<{ id: string }>(server, "POST", "/decks", { title: "Scale warm-up" });
    await api(server, "PUT", `/decks/${warm.id}/content`, { source: bigDeck(4) });
    await timeExport(server, warm.id, "pdf");
    for (const slides of SIZES) {
      const deck = await api<{ id: string }>(server, "POST", "/decks", { title: `Scale ${slides}` });
      await api(server, "PUT", `/decks/${deck.id}/content`, { source: bigDeck(slides) });
      const pdf = await timeExport(server, deck.id, "pdf");
      const pptx = await timeExport(server, deck.id, "pptx");
      // The memory of the same exports of a new version, untimed: sampling it costs CPU (see exports.ts).
      await api(server, "PUT", `/decks/${deck.id}/content`, { source: bigDeck(slides) });
      const stop = watchMemory(server.pid);
      await timeExport(server, deck.id, "pdf");
      await timeExport(server, deck.id, "pptx");
      const memory = stop();
      perSlide.pdf.push(pdf / slides);
      perSlide.pptx.push(pptx / slides);
      const check = await timeCheck(server, deck.id, slides);
      const { publicSlug } = await api<{ publicSlug: string }>(server, "PATCH", `/decks/${deck.id}`, {
        visibility: "public",
      });
      const paint = await timeFirstPaint(browser, `${server.origin}/d/${publicSlug}`);
      rows.push(
        `| ${slides} | ${seconds(pdf)} | ${(pdf / slides).toFixed(1)} ms | ${seconds(pptx)} | ${(pptx / slides).toFixed(1)} ms | ${mib(memory.serverRss)} | ${mib(memory.rendererPss)} | ${seconds(check)} | ${Math.round(paint)} ms |`,
      );
    }
  } finally {
    await browser.close();
  }
  const ratio = (values: number[]) => (values.at(-1)! / values[0]!).toFixed(2);
  return [
    "| slides | PDF | PDF per slide | PPTX | PPTX per slide | peak server RSS | peak renderer PSS | deck check after an edit | share page first paint |",
    "|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `Per-slide time at ${SIZES.at(-1)} slides against ${SIZES[0]}: PDF ${ratio(perSlide.pdf)}x, PPTX ${ratio(perSlide.pptx)}x (target: within 1.5x).`,
  ].join("\n");
}
