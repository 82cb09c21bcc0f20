import { twentySlideModule } from "./api";
import { type BenchRow, type BenchServer, percentile } from "./server";

// get_slide_image on a 20-slide deck through `next start`: a slide drawn for the first time (its render,
// the renderer warm), the same image again (read from the file store), and a 304 to its ETag. Each slide
// is asked once cold, so the cold figure is one render per sample.

const SLIDES = 20;

function row(label: string, samples: number[]): BenchRow {
  return { label, n: samples.length, median: percentile(samples, 50), p95: percentile(samples, 95) };
}

export async function benchSlideImages(server: BenchServer): Promise<BenchRow[]> {
  const headers = { authorization: `Bearer ${server.key}`, "content-type": "application/json" };
  const deck = (await (await fetch(`${server.api}/decks`, { method: "POST", headers, body: "{}" })).json()) as {
    id: string;
  };
  const written = await fetch(`${server.api}/decks/${deck.id}/content`, {
    method: "PUT",
    headers,
    body: JSON.stringify({ source: twentySlideModule(1) }),
  });
  if (!written.ok) throw new Error(`set_deck_content answered ${written.status}`);

  const get = async (n: number, etag?: string) => {
    const start = performance.now();
    const res = await fetch(`${server.api}/decks/${deck.id}/slides/${n}/image`, {
      headers: { ...headers, ...(etag ? { "if-none-match": etag } : {}) },
    });
    await res.arrayBuffer();
    if (res.status !== (etag ? 304 : 200)) throw new Error(`get_slide_image answered ${res.status}`);
    return { ms: performance.now() - start, etag: res.headers.get("etag")! };
  };
  // The renderer started once (its first page is not a slide's cost).
  await get(1);
  const cold: number[] = [];
  const cached: number[] = [];
  const notModified: number[] = [];
  for (let n = 2; n <= SLIDES; n++) {
    const first = await get(n);
    cold.push(first.ms);
    cached.push((await get(n)).ms);
    notModified.push((await get(n, first.etag)).ms);
  }
  return [
    row("slide image 1280 px PNG, first request (one render)", cold),
    row("same image again (kept in the file store)", cached),
    row("same image, If-None-Match → 304", notModified),
  ];
}
