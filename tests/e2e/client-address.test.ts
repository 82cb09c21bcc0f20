import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NextServer, startNextServer } from "../helpers/next-server";
import { eventsUrlIn } from "../helpers/viewer-page";

// The client address on the real server (`next start` of the production build), where it is the socket's peer
// (lib/net/client-address.ts): clients on different loopback addresses (127.0.0.1, .2, .3: one machine, as
// many clients) are told apart whatever X-Forwarded-For they send, for a password link's unlock attempts and
// for the analytics viewer count alike.

let server: NextServer;
let key: string;
const PASSWORD = "right horse battery";
const source = `import { Deck, Slide, Heading } from "@deckhand/player";
export default function Locked() {
  return <Deck><Slide label="One"><Heading>Board numbers</Heading></Slide></Deck>;
}`;
const chrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0.0.0 Safari/537.36";

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

function send(
  method: string,
  route: string,
  options: { headers?: Record<string, string>; body?: string; from?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = options.body ?? "";
    const request = http.request(new URL(route, server.origin), {
      method,
      agent: false,
      localAddress: options.from ?? "127.0.0.1",
      headers: { ...options.headers, "content-length": String(Buffer.byteLength(body)) },
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString() }),
      );
    });
    request.on("error", reject);
    request.end(body);
  });
}

async function api(method: string, route: string, body?: unknown) {
  const answer = await send(method, `/api/v1${route}`, {
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(answer.status, answer.body).toBeLessThan(300);
  return JSON.parse(answer.body);
}

async function publishedDeck(password?: string): Promise<{ id: string; slug: string }> {
  const { id } = await api("POST", "/decks", { title: "Numbers" });
  await api("PUT", `/decks/${id}/content`, { source });
  const published = await api("PATCH", `/decks/${id}`, { visibility: "public" });
  if (password) await api("PATCH", `/decks/${id}/link`, { password });
  return { id, slug: String(published.publicUrl).split("/d/")[1]! };
}

const unlock = (slug: string, password: string, from: string, headers: Record<string, string> = {}) =>
  send("POST", `/d/${slug}/unlock`, {
    from,
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ password }).toString(),
  });

beforeAll(async () => {
  server = await startNextServer({ withApiKey: true });
  key = server.key;
}, 600_000);

afterAll(async () => {
  await server?.stop();
});

describe("the client address of a request to the real server", () => {
  it("keeps a guesser to its own limit whatever X-Forwarded-For it sends, and cannot lock out another client", async () => {
    const { slug } = await publishedDeck(PASSWORD);
    // The guesser (127.0.0.2) names the viewer's address (127.0.0.1) in X-Forwarded-For, then a new one.
    const statuses: number[] = [];
    for (let index = 0; index < 10; index++) {
      statuses.push((await unlock(slug, `guess ${index}`, "127.0.0.2", { "x-forwarded-for": "127.0.0.1" })).status);
    }
    const rotated = await unlock(slug, "guess 11", "127.0.0.2", { "x-forwarded-for": "203.0.113.77" });
    expect([...statuses, rotated.status]).toEqual([...Array(10).fill(401), 429]);
    expect(Number(rotated.headers["retry-after"])).toBeGreaterThan(0);
    // The viewer, with no header at all, is not the guesser and gets in.
    const viewer = await unlock(slug, PASSWORD, "127.0.0.1");
    expect(viewer.status).toBe(303);
    expect(viewer.headers["set-cookie"]?.[0]).toMatch(/^dh_unlock_/);
  }, 60_000);

  it("counts viewers by socket address: rotating X-Forwarded-For is one viewer, two addresses are two", async () => {
    const { id, slug } = await publishedDeck();
    const page = await send("GET", `/d/${slug}`);
    const eventsUrl = eventsUrlIn(page.body);
    const beacon = (from: string, headers: Record<string, string> = {}) =>
      send("POST", eventsUrl, {
        from,
        headers: { origin: server.origin, "user-agent": chrome, "content-type": "text/plain", ...headers },
        body: JSON.stringify({ view: crypto.randomUUID(), source: "share", events: [{ slide: 1, ms: 0 }] }),
      });
    for (let index = 0; index < 10; index++) {
      expect((await beacon("127.0.0.2", { "x-forwarded-for": `198.51.100.${index + 1}` })).status).toBe(204);
    }
    expect((await beacon("127.0.0.3")).status).toBe(204);
    const totals = (await api("GET", `/decks/${id}/analytics`)).totals;
    expect(totals).toMatchObject({ views: 11, uniqueViewers: 2 });
    // What no viewer page sent is refused, saying why.
    const bare = await send("POST", `/d/${slug}/events`, {
      from: "127.0.0.2",
      headers: { "user-agent": chrome },
      body: JSON.stringify({ view: crypto.randomUUID(), source: "share", events: [{ slide: 1, ms: 0 }] }),
    });
    expect(bare.status).toBe(403);
    expect(JSON.parse(bare.body).error).toMatchObject({
      code: "forbidden",
      message: expect.stringContaining("Origin"),
    });
  }, 60_000);
});
