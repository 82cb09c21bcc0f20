import { createHmac } from "node:crypto";

// Counting viewers without cookies or stored IP addresses, the way privacy-first web analytics do it
// (Plausible, Fathom): a viewer is the hash of their IP address (lib/net/client-address.ts: the socket's,
// or as the deployment's trusted proxies tell it), user agent and the deck under a salt of the day. The
// salt is derived from the server's secret and the UTC date and never stored, so the same person is one
// viewer all day and a different, unlinkable one the next; the IP address is hashed in memory and dropped.
// Nothing here reads the clock or the secret: the caller passes both, so the tests can pin the day.

/** The UTC day (YYYY-MM-DD) of a moment. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The day's salt: HMAC-SHA-256 of the server's secret over a label and the date. */
export function daySalt(secret: Buffer, day: string): Buffer {
  return createHmac("sha256", secret).update(`deckhand analytics visitor salt ${day}`).digest();
}

/** The viewer of one deck on one day: 128 bits of HMAC(salt, ip, user agent, deck), base64url. */
export function visitorHash(input: {
  secret: Buffer;
  day: string;
  ip: string;
  userAgent: string;
  deckId: string;
}): string {
  return createHmac("sha256", daySalt(input.secret, input.day))
    .update(`${input.ip}\u0000${input.userAgent}\u0000${input.deckId}`)
    .digest()
    .subarray(0, 16)
    .toString("base64url");
}

/** Do-Not-Track (DNT: 1) or Global Privacy Control (Sec-GPC: 1): nothing is recorded. */
export function optedOut(headers: Headers): boolean {
  return headers.get("dnt")?.trim() === "1" || headers.get("sec-gpc")?.trim() === "1";
}

// Crawlers, link unfurlers, monitoring and scripted or headless browsers. A user agent that names none
// of these is counted; an empty one is not.
const botPattern =
  /bot\b|bot\/|crawl|spider|slurp|mediapartners|headless|lighthouse|pagespeed|preview|facebookexternalhit|embedly|quora link|whatsapp|vkshare|w3c_validator|curl\/|wget\/|python-|httpclient|go-http|java\/|okhttp|node-fetch|undici|axios|phantomjs|puppeteer|playwright|selenium|electron\/.*render|monitor|uptime|pingdom/i;

export function isBot(userAgent: string | null): boolean {
  return !userAgent || userAgent.trim() === "" || botPattern.test(userAgent);
}
