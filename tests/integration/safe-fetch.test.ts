// End to end against local servers. Every URL here points at loopback (127.0.0.1, 127.0.0.2, ::1) or at a
// made-up .test name that the injected lookup maps to loopback, so even a broken fetcher can only reach
// these fixtures. Real DNS is used for "localhost" alone.
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { FetchRefusedError, safeFetch, type LookupFn } from "@/lib/net/safe-fetch";
import { ALLOW_HOSTS_HINT } from "@/lib/net/address-policy";

const HTML = "<!doctype html><title>Fixture</title><h1>Hello from the fixture</h1>";
const BIG = 50 * 1024 * 1024;
const CHUNK = 64 * 1024;

const servers: http.Server[] = [];

async function listen(server: http.Server, host: string, port = 0): Promise<number | undefined> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch {
    return undefined;
  }
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

/** Resolves with the number of body bytes the server wrote before the client went away (or it finished). */
interface StreamRecord {
  done: Promise<{ written: number; closedEarly: boolean }>;
}
const streams: StreamRecord[] = [];

function streamBody(res: http.ServerResponse, total: number, headers: http.OutgoingHttpHeaders): void {
  let resolveDone!: (value: { written: number; closedEarly: boolean }) => void;
  streams.push({ done: new Promise((resolve) => (resolveDone = resolve)) });
  res.writeHead(200, headers);
  const chunk = Buffer.alloc(CHUNK, 0x61);
  let written = 0;
  let closed = false;
  res.on("close", () => {
    closed = true;
  });
  void (async () => {
    while (written < total && !closed) {
      const ok = res.write(chunk);
      written += chunk.length;
      if (!ok) {
        await new Promise<void>((resolve) => {
          const settle = () => {
            res.off("drain", settle);
            res.off("close", settle);
            resolve();
          };
          res.on("drain", settle);
          res.on("close", settle);
        });
      }
    }
    if (!closed) res.end();
    resolveDone({ written, closedEarly: closed && written < total });
  })();
}

const bomb = zlib.gzipSync(Buffer.alloc(20 * 1024 * 1024));

function fixtureHandler(origin: () => string) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fixture.test");
    const path = url.pathname;
    if (path === "/ok") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(HTML);
    } else if (path === "/headers") {
      res.writeHead(200, { "content-type": "application/xhtml+xml" });
      res.end(JSON.stringify(req.headers));
    } else if (path === "/style.css") {
      res.writeHead(200, { "content-type": "text/css" });
      res.end("body { color: #0a7; }");
    } else if (path === "/logo.svg") {
      res.writeHead(200, { "content-type": "image/svg+xml" });
      res.end("<svg xmlns='http://www.w3.org/2000/svg'/>");
    } else if (path === "/font.woff2") {
      res.writeHead(200, { "content-type": "font/woff2" });
      res.end(Buffer.from("wOF2"));
    } else if (path === "/json") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    } else if (path === "/untyped") {
      res.writeHead(200);
      res.end(HTML);
    } else if (path === "/missing") {
      res.writeHead(404, { "content-type": "text/html" });
      res.end("<h1>Not found</h1>");
    } else if (path === "/redirect") {
      res.writeHead(302, { location: url.searchParams.get("to") ?? "/ok" });
      res.end();
    } else if (path.startsWith("/chain/")) {
      // /chain/3 redirects three times (with a relative Location) and then serves the page.
      const left = Number(path.slice("/chain/".length));
      if (left > 0) {
        res.writeHead(left % 2 === 0 ? 301 : 307, { location: `/chain/${left - 1}` });
        res.end();
      } else {
        res.writeHead(200, { "content-type": "text/html" });
        res.end(HTML);
      }
    } else if (path === "/absolute-redirect") {
      res.writeHead(308, { location: `${origin()}/ok` });
      res.end();
    } else if (path === "/never") {
      // Never answers; the socket is destroyed by closeAllConnections in afterAll.
    } else if (path === "/stall") {
      res.writeHead(200, { "content-type": "text/html" });
      res.write("<!doctype html><p>partial");
    } else if (path === "/declared-large") {
      streamBody(res, 10 * 1024 * 1024, { "content-type": "text/html", "content-length": String(10 * 1024 * 1024) });
    } else if (path === "/chunked-large") {
      streamBody(res, BIG, { "content-type": "text/html" });
    } else if (path === "/bomb") {
      res.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" });
      res.end(bomb);
    } else if (path === "/gzip" || path === "/br" || path === "/deflate") {
      const encoding = path.slice(1);
      const body =
        encoding === "gzip"
          ? zlib.gzipSync(HTML)
          : encoding === "br"
            ? zlib.brotliCompressSync(HTML)
            : zlib.deflateSync(HTML);
      res.writeHead(200, { "content-type": "text/html", "content-encoding": encoding });
      res.end(body);
    } else if (path === "/zstd") {
      res.writeHead(200, { "content-type": "text/html", "content-encoding": "zstd" });
      res.end("garbage");
    } else {
      res.writeHead(500);
      res.end();
    }
  };
}

// The canary must never see a connection, let alone a request, in any refused case.
const canary = { connections: 0, requests: 0 };
function canaryServer(): http.Server {
  const server = http.createServer((_req, res) => {
    canary.requests += 1;
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<h1>canary reached</h1>");
  });
  server.on("connection", () => {
    canary.connections += 1;
  });
  return server;
}

let fixturePort = 0;
const fixture = http.createServer(fixtureHandler(() => `http://fixture.test:${fixturePort}`));
fixturePort = (await listen(fixture, "127.0.0.1")) ?? 0;
if (fixturePort === 0) throw new Error("could not bind the fixture to 127.0.0.1");

let fixture6Port = 0;
const fixture6 = http.createServer(fixtureHandler(() => `http://fixture6.test:${fixture6Port}`));
fixture6Port = (await listen(fixture6, "::1")) ?? 0;
const hasV6 = fixture6Port !== 0;

const canaryPort = (await listen(canaryServer(), "127.0.0.2")) ?? 0;
if (canaryPort === 0) throw new Error("could not bind the canary to 127.0.0.2");
// Same port on ::1 when free, so [::1]:PORT and 127.0.0.2:PORT are the same canary.
const canary6Port = hasV6
  ? ((await listen(canaryServer(), "::1", canaryPort)) ?? (await listen(canaryServer(), "::1")) ?? 0)
  : 0;
// A canary on 127.0.0.1 for IP-literal and localhost URLs aimed at the allowed fixture's address.
const localCanaryPort = (await listen(canaryServer(), "127.0.0.1")) ?? 0;

const names: Record<string, { address: string; family: 4 | 6 }[]> = {
  "fixture.test": [{ address: "127.0.0.1", family: 4 }],
  "fixture6.test": [{ address: "::1", family: 6 }],
  "evil.test": [{ address: "127.0.0.2", family: 4 }],
  "evil-mapped.test": [{ address: "::ffff:127.0.0.2", family: 6 }],
  // Only for redirects; a direct localhost URL goes through the real default lookup.
  localhost: [{ address: "127.0.0.1", family: 4 }],
};
const lookups: string[] = [];
const lookup: LookupFn = async (hostname) => {
  lookups.push(hostname);
  const found = names[hostname];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return found;
};
const hangingLookup: LookupFn = () => new Promise(() => {});

const F = `http://fixture.test:${fixturePort}`;
const allowHosts = ["fixture.test", "fixture6.test"];

async function refusal(promise: Promise<unknown>): Promise<FetchRefusedError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(FetchRefusedError);
    return error as FetchRefusedError;
  }
  throw new Error("expected the fetch to be refused");
}

afterEach(() => {
  expect(canary).toEqual({ connections: 0, requests: 0 });
});

afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

describe("safeFetch allows", () => {
  it("an allow-listed name that resolves to loopback", async () => {
    const result = await safeFetch(`${F}/ok`, { accept: ["html"], lookup, allowHosts });
    expect(result).toMatchObject({ url: `${F}/ok`, status: 200, contentType: "text/html", redirects: [] });
    expect(result.body.toString()).toBe(HTML);
  });

  it("sends the bot's User-Agent, an Accept for the kinds and Accept-Encoding, keeping the Host name", async () => {
    const result = await safeFetch(`${F}/headers`, { accept: ["html", "css"], lookup, allowHosts });
    const headers = JSON.parse(result.body.toString()) as Record<string, string>;
    expect(headers["user-agent"]).toBe("DeckhandBrandBot/1.0 (+https://deckhand.dev/bot)");
    expect(headers.accept).toContain("text/html");
    expect(headers.accept).toContain("text/css");
    expect(headers.accept).not.toContain("image/");
    expect(headers["accept-encoding"]).toBe("gzip, deflate, br");
    expect(headers.host).toBe(`fixture.test:${fixturePort}`);
  });

  it("each asked-for kind", async () => {
    const css = await safeFetch(`${F}/style.css`, { accept: ["css"], lookup, allowHosts });
    expect(css.contentType).toBe("text/css");
    const svg = await safeFetch(`${F}/logo.svg`, { accept: ["image"], lookup, allowHosts });
    expect(svg.contentType).toBe("image/svg+xml");
    const font = await safeFetch(`${F}/font.woff2`, { accept: ["font", "image"], lookup, allowHosts });
    expect(font.body.toString()).toBe("wOF2");
  });

  it("a name from FETCH_ALLOW_HOSTS (with its port) when allowHosts is not given", async () => {
    const saved = process.env.FETCH_ALLOW_HOSTS;
    try {
      process.env.FETCH_ALLOW_HOSTS = ` other.test , fixture.test:${fixturePort} `;
      const result = await safeFetch(`${F}/ok`, { accept: ["html"], lookup });
      expect(result.status).toBe(200);
      process.env.FETCH_ALLOW_HOSTS = `fixture.test:${fixturePort + 1}`;
      expect((await refusal(safeFetch(`${F}/ok`, { accept: ["html"], lookup }))).reason).toBe("address");
    } finally {
      if (saved === undefined) delete process.env.FETCH_ALLOW_HOSTS;
      else process.env.FETCH_ALLOW_HOSTS = saved;
    }
  });

  it("up to five redirects, each recorded", async () => {
    const result = await safeFetch(`${F}/chain/5`, { accept: ["html"], lookup, allowHosts });
    expect(result.url).toBe(`${F}/chain/0`);
    expect(result.redirects).toEqual([4, 3, 2, 1, 0].map((n) => `${F}/chain/${n}`));
    expect(result.body.toString()).toBe(HTML);
    const absolute = await safeFetch(`${F}/absolute-redirect`, { accept: ["html"], lookup, allowHosts });
    expect(absolute.redirects).toEqual([`${F}/ok`]);
  });

  it.each(["gzip", "br", "deflate"])("%s-compressed HTML, decompressed", async (encoding) => {
    const result = await safeFetch(`${F}/${encoding}`, { accept: ["html"], lookup, allowHosts });
    expect(result.body.toString()).toBe(HTML);
  });

  it.skipIf(!hasV6)("an allow-listed name that resolves to ::1", async () => {
    const result = await safeFetch(`http://fixture6.test:${fixture6Port}/ok`, {
      accept: ["html"],
      lookup,
      allowHosts,
    });
    expect(result.body.toString()).toBe(HTML);
  });
});

describe("safeFetch refuses non-public addresses without connecting", () => {
  const C = canaryPort;
  const direct = [
    `http://127.0.0.2:${C}/`,
    `http://2130706434:${C}/`,
    `http://127.2:${C}/`,
    `http://0x7f.0.0.2:${C}/`,
    `http://0177.0.0.2:${C}/`,
    `http://127.000.000.002:${C}/`,
    `http://[::ffff:127.0.0.2]:${C}/`,
    `http://[::ffff:7f00:2]:${C}/`,
    `http://evil.test:${C}/`,
    `http://evil-mapped.test:${C}/`,
    `http://127.0.0.1:${localCanaryPort}/`,
    `http://localhost:${localCanaryPort}/`,
  ];
  const v6 = hasV6 ? [`http://[::1]:${canary6Port}/`] : [];

  it.each([...direct, ...v6])("%s", async (url) => {
    // Even allow-listing the literal or the attacker's name does not help: literals are never allow-listed,
    // and evil.test is not on the list.
    const error = await refusal(
      safeFetch(url, {
        accept: ["html"],
        lookup: url.includes("localhost") ? undefined : lookup,
        allowHosts: [...allowHosts, "127.0.0.1", "127.0.0.2", `127.0.0.1:${localCanaryPort}`],
      }),
    );
    expect(error.reason).toBe("address");
    expect(error.message).toMatch(
      /resolves to .+, an? .*address; only public websites can be fetched\. .*FETCH_ALLOW_HOSTS.*IP address is never allowed\)\.$/,
    );
  });

  it.each([...direct, ...v6])("a redirect from the allowed fixture to %s", async (target) => {
    const start = `${F}/redirect?to=${encodeURIComponent(target)}`;
    const error = await refusal(safeFetch(start, { accept: ["html"], lookup, allowHosts }));
    expect(error.reason).toBe("address");
    expect(error.url).toBe(new URL(target).href);
  });

  it("with the range in the message", async () => {
    const error = await refusal(safeFetch(`http://evil.test:${C}/x`, { accept: ["html"], lookup, allowHosts }));
    expect(error.message).toBe(
      `http://evil.test:${C}/x resolves to 127.0.0.2, a loopback address; only public websites can be fetched. ${ALLOW_HOSTS_HINT}`,
    );
  });
});

describe("safeFetch refuses", () => {
  it.each([
    ["ftp://fixture.test/", "scheme"],
    ["file:///etc/passwd", "scheme"],
    [`http://user:pass@fixture.test:${fixturePort}/ok`, "credentials"],
  ])("%s (%s) before any lookup", async (url, reason) => {
    lookups.length = 0;
    const error = await refusal(safeFetch(url, { accept: ["html"], lookup, allowHosts }));
    expect(error.reason).toBe(reason);
    expect(lookups).toEqual([]);
  });

  it("a redirect to another scheme", async () => {
    const start = `${F}/redirect?to=${encodeURIComponent("file:///etc/passwd")}`;
    expect((await refusal(safeFetch(start, { accept: ["html"], lookup, allowHosts }))).reason).toBe("scheme");
  });

  it("a name that does not resolve", async () => {
    const error = await refusal(safeFetch("http://nowhere.test/", { accept: ["html"], lookup, allowHosts }));
    expect(error.reason).toBe("dns");
    expect(error.message).toContain("ENOTFOUND");
  });

  it("more than five redirects", async () => {
    const error = await refusal(safeFetch(`${F}/chain/6`, { accept: ["html"], lookup, allowHosts }));
    expect(error.reason).toBe("redirects");
    const fewer = await refusal(safeFetch(`${F}/chain/3`, { accept: ["html"], lookup, allowHosts, maxRedirects: 2 }));
    expect(fewer.reason).toBe("redirects");
  });

  it("a server that never answers, at the time limit", async () => {
    const started = Date.now();
    const error = await refusal(safeFetch(`${F}/never`, { accept: ["html"], lookup, allowHosts, timeoutMs: 300 }));
    expect(error.reason).toBe("timeout");
    // Ended by the 300 ms limit, not by the test's own timeout (a bound loose enough for a loaded machine).
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it("a server that stalls mid-body, at the time limit", async () => {
    const started = Date.now();
    const error = await refusal(safeFetch(`${F}/stall`, { accept: ["html"], lookup, allowHosts, timeoutMs: 300 }));
    expect(error.reason).toBe("timeout");
    // Ended by the 300 ms limit, not by the test's own timeout (a bound loose enough for a loaded machine).
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it("a lookup that never answers, at the time limit", async () => {
    const error = await refusal(
      safeFetch(`${F}/ok`, { accept: ["html"], lookup: hangingLookup, allowHosts, timeoutMs: 300 }),
    );
    expect(error.reason).toBe("timeout");
  });

  it("a declared Content-Length over the limit, closing the socket early", async () => {
    streams.length = 0;
    const error = await refusal(
      safeFetch(`${F}/declared-large`, { accept: ["html"], lookup, allowHosts, maxBytes: 1024 * 1024 }),
    );
    expect(error.reason).toBe("too_large");
    const record = await streams[0]?.done;
    expect(record?.closedEarly).toBe(true);
    expect(record?.written).toBeLessThan(10 * 1024 * 1024);
  });

  it("a chunked body that streams past the limit, closing the socket early", async () => {
    streams.length = 0;
    const error = await refusal(
      safeFetch(`${F}/chunked-large`, { accept: ["html"], lookup, allowHosts, maxBytes: 1024 * 1024 }),
    );
    expect(error.reason).toBe("too_large");
    const record = await streams[0]?.done;
    expect(record?.closedEarly).toBe(true);
    // What the kernel's socket buffers absorbed before the client went away: far below the 50 MB on offer.
    expect(record?.written).toBeLessThan(BIG / 5);
  });

  it("a gzip body that decompresses past the limit", async () => {
    const error = await refusal(
      safeFetch(`${F}/bomb`, { accept: ["html"], lookup, allowHosts, maxBytes: 1024 * 1024 }),
    );
    expect(error.reason).toBe("too_large");
  });

  it("a content type that was not asked for", async () => {
    const json = await refusal(safeFetch(`${F}/json`, { accept: ["html"], lookup, allowHosts }));
    expect(json.reason).toBe("content_type");
    expect(json.message).toContain("application/json");
    const css = await refusal(safeFetch(`${F}/style.css`, { accept: ["html", "image"], lookup, allowHosts }));
    expect(css.reason).toBe("content_type");
    const untyped = await refusal(safeFetch(`${F}/untyped`, { accept: ["html"], lookup, allowHosts }));
    expect(untyped.reason).toBe("content_type");
  });

  it("an encoding it did not ask for", async () => {
    const error = await refusal(safeFetch(`${F}/zstd`, { accept: ["html"], lookup, allowHosts }));
    expect(error.reason).toBe("encoding");
  });

  it("a 404, with the status in the message", async () => {
    const error = await refusal(safeFetch(`${F}/missing`, { accept: ["html"], lookup, allowHosts }));
    expect(error.reason).toBe("status");
    expect(error.status).toBe(404);
    expect(error.message).toContain("404");
  });
});
