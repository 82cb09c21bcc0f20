import { compileDeck } from "@/lib/source/compile";
import { type BenchRow, type BenchServer, percentile } from "./server";

// Latency of get_deck and set_deck_content with a 20-slide module through the server, and of the
// compiler alone in-process. Sequential requests after a warm-up.

const ITERATIONS = Number(process.env.BENCH_ITERATIONS || 200);
const WARMUP = 20;

export function twentySlideModule(seed: number): string {
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

async function time(label: string, fn: (i: number) => Promise<unknown>): Promise<BenchRow> {
  for (let i = 0; i < WARMUP; i++) await fn(-1 - i);
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const start = performance.now();
    await fn(i);
    samples.push(performance.now() - start);
  }
  return { label, n: ITERATIONS, median: percentile(samples, 50), p95: percentile(samples, 95) };
}

export async function benchApi(server: BenchServer): Promise<BenchRow[]> {
  const headers = { authorization: `Bearer ${server.key}`, "content-type": "application/json" };
  const deck = (await (await fetch(`${server.api}/decks`, { method: "POST", headers, body: "{}" })).json()) as {
    id: string;
  };
  const put = async (i: number) => {
    const res = await fetch(`${server.api}/decks/${deck.id}/content`, {
      method: "PUT",
      headers,
      body: JSON.stringify({ source: twentySlideModule(i) }),
    });
    if (res.status !== 200) throw new Error(`PUT /content answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  };
  await put(0);
  const get = async () => {
    const res = await fetch(`${server.api}/decks/${deck.id}`, { headers });
    if (res.status !== 200) throw new Error(`GET /decks/{id} answered ${res.status}`);
    await res.arrayBuffer();
  };
  const source = twentySlideModule(0);
  return [
    await time("get_deck (20-slide deck)", get),
    await time("set_deck_content (20-slide module)", put),
    await time("compileDeck alone (20 slides, in-process)", (i) =>
      compileDeck({ source: `${source}// ${i}\n`, format: "slides" }),
    ),
  ];
}
