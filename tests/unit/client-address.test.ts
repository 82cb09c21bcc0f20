import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  addressBucket,
  clientAddress,
  forwardedClient,
  normalizeAddress,
  stampPeerAddresses,
} from "@/lib/net/client-address";

// The one answer to "which address is this request from" (lib/net/client-address.ts): X-Forwarded-For is read
// only as far as TRUSTED_PROXIES proxies wrote it, Vercel's x-real-ip only on Vercel, and otherwise the
// socket's peer as the server stamped it; a client's own copies of any of these headers change nothing.

afterEach(() => vi.unstubAllEnvs());

describe("the client behind trusted proxies", () => {
  const spoofed = "203.0.113.66, 198.51.100.9";

  it("ignores X-Forwarded-For when no proxy is trusted: the peer is the client", () => {
    expect(forwardedClient(spoofed, "192.0.2.10", 0)).toBe("192.0.2.10");
    expect(forwardedClient(null, "192.0.2.10", 0)).toBe("192.0.2.10");
    expect(forwardedClient(spoofed, null, 0)).toBeNull();
  });

  it("takes the entry just before the trusted hops, whatever the client prepended", () => {
    // client 198.51.100.7 → proxy A (appends 198.51.100.7) → proxy B (appends A's 10.0.0.2) → server
    const chain = "203.0.113.66, 198.51.100.7, 10.0.0.2";
    expect(forwardedClient(chain, "10.0.0.3", 2)).toBe("198.51.100.7");
    expect(forwardedClient(chain, "10.0.0.3", 1)).toBe("10.0.0.2");
    // The client's own entries are further left: rotating them changes nothing.
    expect(forwardedClient("1.1.1.1, 2.2.2.2, 198.51.100.7, 10.0.0.2", "10.0.0.3", 2)).toBe("198.51.100.7");
    expect(forwardedClient("198.51.100.7", null, 1)).toBe("198.51.100.7");
  });

  it("gives the first entry of a chain shorter than the proxies, and the peer when there is none", () => {
    expect(forwardedClient("198.51.100.7", "10.0.0.3", 3)).toBe("198.51.100.7");
    expect(forwardedClient(null, "192.0.2.10", 1)).toBe("192.0.2.10");
    expect(forwardedClient(" , ", "192.0.2.10", 1)).toBe("192.0.2.10");
    expect(forwardedClient(null, null, 1)).toBeNull();
  });

  it("normalises what proxies write and refuses what is not an address", () => {
    expect(normalizeAddress("::ffff:127.0.0.2")).toBe("127.0.0.2");
    expect(normalizeAddress(" 2001:DB8:0:0::1 ")).toBe("2001:db8::1");
    expect(normalizeAddress("192.0.2.1:4711")).toBe("192.0.2.1");
    expect(normalizeAddress("[2001:db8::1]:443")).toBe("2001:db8::1");
    for (const bad of ["", "unknown", "2130706433", "0x7f.1", "x".repeat(500), "1.2.3.4.5", null, undefined]) {
      expect(normalizeAddress(bad)).toBeNull();
    }
    expect(forwardedClient("203.0.113.66, garbage", "10.0.0.3", 1)).toBeNull();
  });

  it("counts an IPv6 address by its /64 and an unknown one as one", () => {
    expect(addressBucket("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("192.0.2.1")).toBe("192.0.2.1");
    expect(addressBucket("")).toBe("unknown");
  });
});

describe("clientAddress", () => {
  it("believes no forwarding header without trusted proxies, and X-Forwarded-For's hop with them", () => {
    const headers = new Headers({ "x-forwarded-for": "203.0.113.66, 198.51.100.7", "x-real-ip": "203.0.113.67" });
    expect(clientAddress(headers)).toBe("");
    vi.stubEnv("TRUSTED_PROXIES", "1");
    expect(clientAddress(headers)).toBe("198.51.100.7");
    vi.stubEnv("TRUSTED_PROXIES", "2");
    expect(clientAddress(headers)).toBe("203.0.113.66");
  });

  it("takes Vercel's x-real-ip on Vercel", () => {
    vi.stubEnv("VERCEL", "1");
    vi.stubEnv("TRUSTED_PROXIES", "1");
    expect(clientAddress(new Headers({ "x-forwarded-for": "203.0.113.66", "x-real-ip": "198.51.100.8" }))).toBe(
      "198.51.100.8",
    );
  });

  it("reads the socket's peer as the server stamped it; a client's copy of the stamp is overwritten", async () => {
    stampPeerAddresses();
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      seen.push(clientAddress(headers));
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const get = (localAddress: string, headers: Record<string, string>) =>
      new Promise<void>((resolve, reject) => {
        http
          .get({ host: "127.0.0.1", port, localAddress, headers, agent: false }, (res) =>
            res.resume().on("end", resolve),
          )
          .on("error", reject);
      });
    await get("127.0.0.2", { "x-forwarded-for": "203.0.113.66", "x-deckhand-peer": "forged 203.0.113.67" });
    await get("127.0.0.3", {});
    await new Promise((resolve) => server.close(resolve));
    expect(seen).toEqual(["127.0.0.2", "127.0.0.3"]);
    // A request the server never stamped (a handler called directly) may claim anything: it is not believed.
    expect(clientAddress(new Headers({ "x-deckhand-peer": "forged 203.0.113.67" }))).toBe("");
  });
});
