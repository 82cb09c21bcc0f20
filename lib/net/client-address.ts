import { randomBytes, timingSafeEqual } from "node:crypto";
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import ipaddr from "ipaddr.js";
import { config, setting } from "@/lib/core/config";

// Which address a request came from: the one answer every limit and count that goes by address uses (a
// password link's unlock attempts, the analytics viewer hash). A header a client can write is believed
// only as far as the operator says proxies wrote it:
// - On Vercel, Vercel's proxy's `x-real-ip` (what `@vercel/functions`' `ipAddress()` reads; Vercel
//   overwrites what a client sends).
// - Elsewhere, TRUSTED_PROXIES counts the proxies in front of the server, each appending the address it got
//   the request from to X-Forwarded-For; the client is the entry just before theirs. With 0 (the default)
//   every forwarding header is ignored and the client is the socket's peer.
// A route handler of `next start` cannot see its socket, and Next.js itself fills X-Forwarded-For with the
// peer only when the client sent none. So the server stamps the peer into a header of its own as Node.js
// parses each request (the `http.server.request.start` diagnostics channel, subscribed at start-up by
// instrumentation-node.ts), after the per-process secret that proves the stamp is the server's: a client
// that sends the header is overwritten, and one that raced the start-up has no secret. Without the stamp
// (a handler called by tests, a serverless platform other than Vercel) and no trusted proxy, the address is
// unknown ("").

const PEER_HEADER = "x-deckhand-peer";

const holder = globalThis as typeof globalThis & { __deckhandPeerStamp?: string };

/** Stamps every request this process's HTTP servers parse from now on with its socket's peer address. */
export function stampPeerAddresses(): void {
  if (holder.__deckhandPeerStamp) return;
  const secret = randomBytes(18).toString("base64url");
  holder.__deckhandPeerStamp = secret;
  subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    request.headers[PEER_HEADER] = `${secret} ${socket.remoteAddress ?? ""}`;
  });
}

/** The peer this server stamped on the request, or null when it carries no stamp of this process. */
function stampedPeer(headers: Headers): string | null {
  const secret = holder.__deckhandPeerStamp;
  const value = headers.get(PEER_HEADER);
  if (!secret || !value) return null;
  const given = Buffer.from(value.slice(0, secret.length));
  const expected = Buffer.from(secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected) || value[secret.length] !== " ") {
    return null;
  }
  return value.slice(secret.length + 1);
}

/**
 * An address as a proxy or the socket writes it, normalised: IPv4-mapped IPv6 as IPv4, IPv6 compressed, a
 * port (`192.0.2.1:4711`, `[2001:db8::1]:443`) and brackets dropped. Null when it is not an IP address.
 */
export function normalizeAddress(text: string | null | undefined): string | null {
  let value = (text ?? "").trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) value = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(":"));
  // Four dotted numbers only: ipaddr.js also reads "2130706433" or "0x7f.1" as IPv4, which no proxy writes.
  if (!ipaddr.IPv4.isValidFourPartDecimal(value) && !ipaddr.IPv6.isValid(value)) return null;
  return ipaddr.process(value).toString();
}

/**
 * The client of a request that passed `trustedProxies` proxies, each appending the address it got the request
 * from to X-Forwarded-For; `peer` is the socket's peer (the nearest proxy, or the client itself). With no
 * trusted proxy the header is not read. A chain shorter than the proxies (a request that skipped some)
 * gives its first entry; one with none gives the peer.
 */
export function forwardedClient(
  forwardedFor: string | null,
  peer: string | null,
  trustedProxies: number,
): string | null {
  if (trustedProxies === 0) return normalizeAddress(peer);
  const hops = (forwardedFor ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  if (hops.length === 0) return normalizeAddress(peer);
  return normalizeAddress(hops[Math.max(0, hops.length - trustedProxies)]);
}

/** The request's client address as this deployment can know it, normalised; "" when it cannot. */
export function clientAddress(headers: Headers): string {
  const address = config.onVercel
    ? normalizeAddress(headers.get("x-real-ip"))
    : forwardedClient(headers.get("x-forwarded-for"), stampedPeer(headers), setting("TRUSTED_PROXIES"));
  return address ?? "";
}

/**
 * The unit a per-address limit counts: an IPv4 address, or an IPv6 address's /64 (the prefix one subscriber
 * or host is given, whose 2^64 addresses are all theirs); "unknown" for the requests of an unknown address.
 */
export function addressBucket(address: string): string {
  if (!address) return "unknown";
  if (!ipaddr.IPv6.isValid(address)) return address;
  const parts = ipaddr.IPv6.parse(address).parts.slice(0, 4);
  return `${parts.map((part) => part.toString(16)).join(":")}::/64`;
}
