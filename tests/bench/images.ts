import { chromium } from "playwright-core";
import sharp from "sharp";
import { chromiumExecutablePath, testChromiumArgs } from "@/lib/render/chromium";
import { serveImageHost } from "../helpers/image-fixtures";
import { type BenchRow, type BenchServer, percentile } from "./server";

// Issue 17: the time a version write takes to import 10 remote images (fetched from a loopback host, checked,
// downscaled and stored), and the first paint of a 20-slide deck with a large photo on every slide.

const WRITES = 5;
const IMAGES_PER_WRITE = 10;
const LOADS = 10;

/** A 2400x1600 JPEG with some detail (a gradient and a circle), different for every seed. */
async function photo(seed: number): Promise<Buffer> {
  const hue = (seed * 47) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2400" height="1600">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,45%)"/><stop offset="1" stop-color="hsl(${(hue + 120) % 360},70%,60%)"/></linearGradient></defs>
<rect width="2400" height="1600" fill="url(#g)"/><circle cx="${600 + (seed % 7) * 150}" cy="800" r="420" fill="hsl(${(hue + 240) % 360},60%,50%)"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toBuffer();
}

const deckWith = (images: string[]) => `import { Deck, Slide, Title, Image } from "@deckhand/player";

export default function Photos() {
  return (
    <Deck>
${images
  .map(
    (src, index) => `      <Slide label="Photo ${index + 1}">
        <Title>Photo ${index + 1}</Title>
        <Image src="${src}" alt="Photo ${index + 1}" />
      </Slide>`,
  )
  .join("\n")}
    </Deck>
  );
}
`;

export async function benchImages(server: BenchServer): Promise<BenchRow[]> {
  const headers = { authorization: `Bearer ${server.key}`, "content-type": "application/json" };
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.api}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };

  // 1. Writes that import 10 new remote images each (every write names images never seen before).
  const files: Record<string, { body: Buffer; type: string }> = {};
  for (let write = 0; write <= WRITES; write++) {
    for (let i = 0; i < IMAGES_PER_WRITE; i++) {
      files[`/w${write}-${i}.jpg`] = { body: await photo(write * IMAGES_PER_WRITE + i), type: "image/jpeg" };
    }
  }
  const host = await serveImageHost(files);
  const importing: number[] = [];
  const reusing: number[] = [];
  try {
    const deck = await api("POST", "/decks", { title: "Bench: remote images" });
    for (let write = 0; write <= WRITES; write++) {
      const urls = Array.from({ length: IMAGES_PER_WRITE }, (_, i) => `${host.origin}/w${write}-${i}.jpg`);
      const source = deckWith(urls);
      let started = performance.now();
      await api("PUT", `/decks/${deck.id}/content`, { source });
      if (write > 0) importing.push(performance.now() - started); // the first write warms the server
      // The same images again: the organization's copies, nothing fetched.
      started = performance.now();
      await api("PUT", `/decks/${deck.id}/content`, { source: source.replace("Photo 1</Title>", "First</Title>") });
      if (write > 0) reusing.push(performance.now() - started);
    }
  } finally {
    await host.close();
  }

  // 2. A public 20-slide deck with an uploaded 2400x1600 photo on every slide (stored as uploaded: it fits).
  const urls: string[] = [];
  for (let i = 0; i < 20; i++) {
    const res = await fetch(`${server.api}/assets`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "image/jpeg" },
      body: new Uint8Array(await photo(1000 + i)),
    });
    if (res.status !== 201) throw new Error(`upload_asset answered ${res.status}`);
    urls.push(((await res.json()) as { url: string }).url);
  }
  const deck = await api("POST", "/decks", { title: "Bench: 20 photos" });
  await api("PUT", `/decks/${deck.id}/content`, { source: deckWith(urls) });
  const published = await api("PATCH", `/decks/${deck.id}`, { visibility: "public" });

  const browser = await chromium.launch({
    executablePath: await chromiumExecutablePath(),
    args: [...testChromiumArgs],
  });
  const paints: number[] = [];
  try {
    for (let i = 0; i < LOADS + 1; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      const page = await context.newPage();
      await page.goto(`${server.origin}/d/${String(published.publicSlug)}`);
      const start = await page.evaluate(() => performance.timeOrigin);
      const frame = await (await page.waitForSelector("#dh-frame")).contentFrame();
      // The first slide's photo decoded and painted (a string: tsx would wrap a function in a helper).
      const paintedAt = (await frame!.evaluate(`new Promise((resolve) => {
        const check = () => {
          const img = document.querySelector(".dh-stage-slide:not([hidden]) img.dh-image-img");
          if (img && img.complete && img.naturalWidth > 0) {
            requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.timeOrigin + performance.now())));
          } else requestAnimationFrame(check);
        };
        check();
      })`)) as number;
      if (i > 0) paints.push(paintedAt - start);
      await context.close();
    }
  } finally {
    await browser.close();
  }

  return [
    {
      label: `set_deck_content importing ${IMAGES_PER_WRITE} remote 2400x1600 JPEGs`,
      n: importing.length,
      median: percentile(importing, 50),
      p95: percentile(importing, 95),
    },
    {
      label: `set_deck_content with the same ${IMAGES_PER_WRITE} images (already imported)`,
      n: reusing.length,
      median: percentile(reusing, 50),
      p95: percentile(reusing, 95),
    },
    {
      label: "navigation → first slide's photo painted (20 photo slides)",
      n: paints.length,
      median: percentile(paints, 50),
      p95: percentile(paints, 95),
    },
  ];
}
