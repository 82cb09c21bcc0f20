// npm run bench — latency of the API through a production server on the embedded database.
// Builds when stale, starts `next start` on a loopback port with a fresh DATA_DIR, and reports medians of:
//   get_deck (GET /decks/{id}) and set_deck_content (PUT /decks/{id}/content) with a 20-slide module,
//   and compileDeck alone in-process. Sequential requests, after a warm-up.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { compileDeck } from "@/lib/deck/compile";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS || 200);
const WARMUP = 20;

function twentySlideModule(seed: number): string {
  const slides = Array.from({ length: 20 }, (_, i) => {
    const n = i + 1;
    return `      <Slide label="Section ${n}" notes="Talk about point ${n} (${seed})">
        <Heading>Section ${n}: what we learned</Heading>
        <Columns>
          <Box>
            <Text>Revision ${seed}. The numbers below come from the quarterly review and the customer interviews.</Text>
            <Bullets items={["Retention up ${n}%", "Churn down in every segment", "Two new enterprise logos"]} />
          </Box>
          <Box>
            <Text>Next steps for section ${n}: hire, ship, measure, repeat.</Text>
          </Box>
        </Columns>
      </Slide>`;
  }).join("\n");
  return `import { Deck, Slide, Heading, Text, Bullets, Columns, Box } from "@deckhand/player";

export default function Review() {
  return (
    <Deck>
${slides}
    </Deck>
  );
}
`;
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function time(label: string, fn: (i: number) => Promise<unknown>) {
  for (let i = 0; i < WARMUP; i++) await fn(-1 - i);
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const start = performance.now();
    await fn(i);
    samples.push(performance.now() - start);
  }
  return { label, n: ITERATIONS, median: percentile(samples, 50), p95: percentile(samples, 95) };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

async function main() {
  execFileSync("node", ["scripts/build-if-stale.mjs"], { stdio: "inherit" });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-bench-"));
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", VERSION_EDIT_ALLOWANCE: "1000000" };
  const key = execFileSync("node_modules/.bin/tsx", ["scripts/keys.ts", "create", "--email", "bench@example.test"], {
    env,
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .at(-1)!;

  const port = await freePort();
  const server = spawn("node_modules/.bin/next", ["start", "-p", String(port), "-H", "127.0.0.1"], {
    env: { ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const base = `http://127.0.0.1:${port}/api/v1`;
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/instructions`, { headers })).ok) break;
      } catch {
        // not listening yet
      }
      if (i > 300) throw new Error("the server did not start");
      await new Promise((r) => setTimeout(r, 100));
    }

    const deck = (await (await fetch(`${base}/decks`, { method: "POST", headers, body: "{}" })).json()) as {
      id: string;
    };
    const put = async (i: number) => {
      const res = await fetch(`${base}/decks/${deck.id}/content`, {
        method: "PUT",
        headers,
        body: JSON.stringify({ source: twentySlideModule(i) }),
      });
      if (res.status !== 200) throw new Error(`PUT /content answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    };
    await put(0);
    const get = async () => {
      const res = await fetch(`${base}/decks/${deck.id}`, { headers });
      if (res.status !== 200) throw new Error(`GET /decks/{id} answered ${res.status}`);
      await res.arrayBuffer();
    };

    const source = twentySlideModule(0);
    const results = [
      await time("get_deck (20-slide deck)", get),
      await time("set_deck_content (20-slide module)", put),
      await time("compileDeck alone (20 slides, in-process)", (i) =>
        compileDeck({ source: source + `// ${i}\n`, format: "slides" }),
      ),
    ];
    console.log(
      `\nDeckhand API latency — ${os.cpus().length} cores, Node ${process.version}, PGlite, sequential requests\n`,
    );
    console.log("| operation | n | median ms | p95 ms |\n|---|---|---|---|");
    for (const r of results) console.log(`| ${r.label} | ${r.n} | ${r.median.toFixed(2)} | ${r.p95.toFixed(2)} |`);
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
