import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { chromiumExecutablePath, testChromiumArgs } from "@/lib/render/chromium";
import { fiveSlideDeck } from "../helpers/sample-decks";
import { type BenchRow, type BenchServer, percentile } from "./server";

// The player bundle's size, and the time from navigating to a share link to the first slide's text
// being painted (the frame's paint, measured against the top page's navigation start), over fresh
// browser contexts (cold HTTP cache, warm server).

const LOADS = 10;

export function playerBundleSize(): BenchRow[] {
  const manifest = JSON.parse(fs.readFileSync("public/player/manifest.json", "utf8")) as Record<string, string>;
  const gzipped = (name: string) =>
    gzipSync(fs.readFileSync(path.join("public", manifest[name]!)), { level: 9 }).length;
  const kib = (label: string, bytes: number): BenchRow => ({
    label,
    n: 1,
    median: bytes / 1024,
    p95: bytes / 1024,
    unit: "KiB",
  });
  // What every deck frame loads (the runtime, its boot script and the player's stylesheet); the Diagram
  // renderer is a chunk of its own that only decks with a <Diagram> load.
  const frame = ["runtime", "boot", "player"];
  return [
    ...[...frame, "viewer", "diagram"].map((name) => kib(`${name} (${manifest[name]}) gzipped`, gzipped(name))),
    kib(
      "player bundle a deck frame loads, without Diagram, gzipped (target under 120 KiB)",
      frame.reduce((sum, name) => sum + gzipped(name), 0),
    ),
  ];
}

export async function benchViewer(server: BenchServer): Promise<BenchRow[]> {
  const headers = { authorization: `Bearer ${server.key}`, "content-type": "application/json" };
  const deck = (await (
    await fetch(`${server.api}/decks`, { method: "POST", headers, body: '{"title":"Bench"}' })
  ).json()) as {
    id: string;
  };
  await fetch(`${server.api}/decks/${deck.id}/content`, {
    method: "PUT",
    headers,
    body: JSON.stringify({ source: fiveSlideDeck }),
  });
  const published = (await (
    await fetch(`${server.api}/decks/${deck.id}`, { method: "PATCH", headers, body: '{"visibility":"public"}' })
  ).json()) as { publicSlug: string };

  const browser = await chromium.launch({
    executablePath: await chromiumExecutablePath(),
    args: [...testChromiumArgs],
  });
  const samples: number[] = [];
  try {
    for (let i = 0; i < LOADS + 1; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      const page = await context.newPage();
      await page.goto(`${server.origin}/d/${published.publicSlug}`);
      const start = await page.evaluate(() => performance.timeOrigin);
      const frame = await (await page.waitForSelector("#dh-frame")).contentFrame();
      // A string, not a function: tsx would wrap named functions in a helper the page does not have.
      const paintedAt = (await frame!.evaluate(`new Promise((resolve) => {
        const check = () => {
          const text = document.querySelector(".dh-stage-slide:not([hidden])")?.textContent ?? "";
          if (text.includes("Launch review")) {
            requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.timeOrigin + performance.now())));
          } else requestAnimationFrame(check);
        };
        check();
      })`)) as number;
      if (i > 0) samples.push(paintedAt - start); // the first load warms the server's caches
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return [
    ...playerBundleSize(),
    {
      label: "navigation → first slide painted (share link)",
      n: samples.length,
      median: percentile(samples, 50),
      p95: percentile(samples, 95),
    },
  ];
}
