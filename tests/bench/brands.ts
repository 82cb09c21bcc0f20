import fs from "node:fs";
import path from "node:path";
import { serveFixtureSites } from "../helpers/fixture-sites";
import { type BenchRow, type BenchServer, percentile } from "./server";

// create_brand_from_url against the fixture websites served on loopback, without a model: fetch the page,
// its stylesheets and logo, extract, store. Median of 5 per site after one warm-up.

const RUNS = 5;

export async function benchBrands(server: BenchServer): Promise<BenchRow[]> {
  const sites = fs.readdirSync(path.resolve("tests/fixtures/brand-sites")).sort();
  const fixtures = await serveFixtureSites();
  const headers = { authorization: `Bearer ${server.key}`, "content-type": "application/json" };
  const rows: BenchRow[] = [];
  const all: number[] = [];
  try {
    for (const site of sites) {
      const samples: number[] = [];
      for (let run = 0; run <= RUNS; run++) {
        const start = performance.now();
        const res = await fetch(`${server.api}/brands`, {
          method: "POST",
          headers,
          body: JSON.stringify({ url: fixtures.url(site) }),
        });
        if (res.status !== 201) throw new Error(`create_brand_from_url answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
        if (run > 0) samples.push(performance.now() - start);
      }
      all.push(...samples);
      rows.push({
        label: `brand from ${site}`,
        n: samples.length,
        median: percentile(samples, 50),
        p95: percentile(samples, 95),
      });
    }
  } finally {
    await fixtures.close();
  }
  rows.push({ label: "all fixture sites", n: all.length, median: percentile(all, 50), p95: percentile(all, 95) });
  return rows;
}
