import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExtractionAbortedError, startExtractor } from "@/lib/brands/extract/off-thread";
import { call, createUser, type TestUser } from "../helpers/api";
import { dispatch } from "../helpers/app-router";
import { setUpTestDatabase } from "../helpers/database";

// A hostile website against POST /brands: one 1.8 MB stylesheet of 90,000 rules, each a different colour.
// Its CSS model and colour clustering used to run on the server's event loop for 20 s, during which every
// other request waited. They run on a worker thread now, bounded by extractionLimits, and each failed
// extraction counts toward the key's hourly limit of failures.

let site: http.Server;
let origin: string;
let user: TestUser;
const requests: string[] = [];

function hostileCss(rules: number): string {
  const parts: string[] = [];
  for (let i = 0; i < rules; i++) {
    const color = ((i * 2654435761) >>> 8) & 0xffffff;
    parts.push(`.c${i.toString(36)}{color:#${color.toString(16).padStart(6, "0")}}`);
  }
  return parts.join("\n");
}

beforeAll(async () => {
  await setUpTestDatabase();
  user = await createUser();
  process.env.FETCH_ALLOW_HOSTS = "localhost";
  const css = hostileCss(90_000);
  site = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    if (req.url === "/hostile/site.css") {
      res.writeHead(200, { "Content-Type": "text/css" });
      res.end(css);
    } else if (req.url === "/hostile/") {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end(
        `<!doctype html><html><head><title>Hostile</title><link rel="stylesheet" href="site.css"></head><body><h1 class="c1">Hi</h1><a class="c2" href="#">Link</a></body></html>`,
      );
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  origin = `http://localhost:${(site.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  delete process.env.FETCH_ALLOW_HOSTS;
  delete process.env.BRAND_EXTRACTION_FAILURES_PER_HOUR;
  await new Promise((resolve) => site?.close(resolve));
});

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!;

describe("a hostile stylesheet", () => {
  it("is extracted off the event loop: health checks keep answering at once", async () => {
    const started = performance.now();
    const extraction = call("POST", "/brands", { key: user.key, body: { url: `${origin}/hostile/` } });
    let done = false;
    void extraction.finally(() => (done = true));
    // Health checks due every 20 ms whatever happens (an open-loop probe): each one's latency counts from
    // when it was due, so a blocked event loop shows as the wait of every check due during the block.
    const latencies: number[] = [];
    for (let due = performance.now(); !done; due += 20) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
      const health = await dispatch(new Request("http://localhost/api/health"));
      expect(health.status).toBe(200);
      latencies.push(performance.now() - due);
    }
    const response = await extraction;
    const p99 = quantile(latencies, 0.99);
    console.log(
      JSON.stringify({
        extractionSeconds: ((performance.now() - started) / 1000).toFixed(2),
        healthChecks: latencies.length,
        healthP50Ms: quantile(latencies, 0.5).toFixed(1),
        healthP99Ms: p99.toFixed(1),
        healthMaxMs: Math.max(...latencies).toFixed(0),
      }),
    );
    // The brand comes from the first rules read; the site is a page with colours, so it is a brand.
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.data.palette.colors.length).toBeGreaterThan(0);
    expect(latencies.length).toBeGreaterThan(5);
    // On the event loop the extraction would hold every check due meanwhile for up to its whole duration,
    // so the p99 would approach it. Off the loop the p99 is the machine's scheduling noise: ~20 ms when
    // idle, 770 ms measured with the load average at 15 (extraction 34 s). The bound is relative, so a
    // loaded machine slows both sides alike.
    const extractionMs = performance.now() - started;
    expect(p99).toBeLessThan(Math.max(1_000, extractionMs / 4));
  }, 120_000);

  it("stops an extraction that runs past its deadline, and says why", async () => {
    const extractor = startExtractor({ deadlineMs: 50 });
    const css = hostileCss(40_000);
    const run = extractor.run({
      kind: "extract",
      site: {
        url: `${origin}/hostile/`,
        html: "<html><body><p class='c1'>x</p></body></html>",
        stylesheets: [{ url: `${origin}/hostile/site.css`, css }],
      },
    });
    await expect(run).rejects.toBeInstanceOf(ExtractionAbortedError);
    await expect(run).rejects.toThrow(/took longer than 0.05 s/);
    await expect(extractor.run({ kind: "discover", html: "<html></html>", url: origin })).rejects.toThrow();
    extractor.close();
  });

  it("counts failed extractions per key: past the hourly limit the key waits, and nothing is fetched", async () => {
    process.env.BRAND_EXTRACTION_FAILURES_PER_HOUR = "2";
    const failing = await createUser();
    for (let i = 0; i < 2; i++) {
      const res = await call("POST", "/brands", { key: failing.key, body: { url: `${origin}/missing-${i}/` } });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
    }
    const seen = requests.length;
    const refused = await call("POST", "/brands", { key: failing.key, body: { url: `${origin}/hostile/` } });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limited");
    expect(refused.body.error.message).toMatch(/2 brand extractions failed for this API key within the hour/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(requests.length).toBe(seen);
    // Another key of another organization is not affected.
    const other = await createUser();
    const fine = await call("POST", "/brands", { key: other.key, body: { url: `${origin}/hostile/` } });
    expect(fine.status).toBe(201);
  }, 120_000);
});
