// The pure half of the SSRF guard for brand extraction (DESIGN.md, "Trust boundaries"): which URLs and which
// resolved addresses may be fetched. No I/O here, so every rule can be checked by a table of cases.
import ipaddr from "ipaddr.js";

export type AddressVerdict =
  | { allowed: true }
  | {
      allowed: false;
      /** Category such as "loopback", "private", "linkLocal", "metadata", "nat64", "ipv4Compatible". */
      range: string;
      /** Phrase that completes "… resolves to 10.0.0.5, " — e.g. "a private address". */
      description: string;
      message: string;
    };

type UrlRefusalReason = "invalid_url" | "scheme" | "credentials" | "address";

export type UrlCheck =
  { ok: true; url: URL; hostIsIp: boolean } | { ok: false; reason: UrlRefusalReason; message: string };

const PUBLIC_ONLY = "only public websites can be fetched.";

/** What an operator can do about a refused address: allow the host by name (never by IP) in FETCH_ALLOW_HOSTS. */
export const ALLOW_HOSTS_HINT =
  "To fetch a local or intranet site, the server's FETCH_ALLOW_HOSTS setting must name its host (a host name, optionally name:port; an IP address is never allowed).";

const RANGE_LABELS: Record<string, string> = {
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address",
  metadata: "the cloud metadata address",
  loopback: "a loopback address",
  carrierGradeNat: "a carrier-grade NAT (shared) address",
  private: "a private address",
  uniqueLocal: "a private (unique local) address",
  reserved: "a reserved or documentation address",
  benchmarking: "a benchmarking address",
  as112: "an AS112 sink address",
  amt: "an AMT relay address",
  discard: "a discard-only address",
  deprecatedSiteLocal: "a (deprecated) site-local address",
  rfc6145: "an IPv4-translated address",
  teredo: "a Teredo tunnel address",
  ipv4Compatible: "an IPv4-compatible IPv6 address",
  nat64: "a NAT64 address",
  "6to4": "a 6to4 address",
  invalid: "not a valid IP address",
};

/** Human phrase for a range returned by classifyAddress, e.g. "a loopback address". */
function describeRange(range: string): string {
  return RANGE_LABELS[range] ?? `a non-public (${range}) address`;
}

// Only these are relaxed for FETCH_ALLOW_HOSTS names: a local fixture or dev server, never metadata or
// link-local, which is what an attacker who controls an allow-listed name would aim at.
const RELAXABLE_RANGES = new Set(["loopback", "private", "uniqueLocal"]);

function refuse(ip: string, range: string, description = describeRange(range)): AddressVerdict {
  return { allowed: false, range, description, message: `${ip} is ${description}; ${PUBLIC_ONLY}` };
}

function classifyV4(v4: ipaddr.IPv4): { allowed: true } | { allowed: false; range: string } {
  const range = v4.range();
  if (range === "unicast") return { allowed: true };
  if (range === "linkLocal" && v4.toString() === "169.254.169.254") return { allowed: false, range: "metadata" };
  return { allowed: false, range };
}

function embeddedV4(v6: ipaddr.IPv6, firstByte: number): ipaddr.IPv4 {
  const bytes = v6.toByteArray().slice(firstByte, firstByte + 4);
  return new ipaddr.IPv4(bytes);
}

function refuseEmbedded(ip: string, range: string, inner: ipaddr.IPv4): AddressVerdict {
  const innerVerdict = classifyV4(inner);
  const innerText = innerVerdict.allowed ? "" : `, ${describeRange(innerVerdict.range)}`;
  return refuse(ip, range, `${describeRange(range)} embedding ${inner.toString()}${innerText}`);
}

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");

function classifyV6(ip: string, v6: ipaddr.IPv6): AddressVerdict {
  const range = v6.range();
  const parts = v6.parts;
  if (range === "unicast") {
    // ::a.b.c.d (deprecated IPv4-compatible) is "unicast" to ipaddr.js, yet some stacks route it to the v4 host.
    if (parts.slice(0, 6).every((p) => p === 0)) return refuseEmbedded(ip, "ipv4Compatible", embeddedV4(v6, 12));
    if (!v6.match(GLOBAL_UNICAST_V6)) return refuse(ip, "reserved");
    return { allowed: true };
  }
  if (range === "rfc6052") {
    // Well-known-prefix NAT64 is how IPv6-only hosts reach public v4 sites, so it passes when the embedded
    // address would; 64:ff9b:1::/48 is for local use only.
    const wellKnown = parts[0] === 0x64 && parts[1] === 0xff9b && parts.slice(2, 6).every((p) => p === 0);
    const inner = embeddedV4(v6, 12);
    if (wellKnown && classifyV4(inner).allowed) return { allowed: true };
    return refuseEmbedded(ip, "nat64", inner);
  }
  if (range === "6to4") {
    const inner = embeddedV4(v6, 2);
    if (classifyV4(inner).allowed) return { allowed: true };
    return refuseEmbedded(ip, "6to4", inner);
  }
  // Teredo obfuscates its client address, so it is refused outright along with every other special range.
  return refuse(ip, range);
}

// ipaddr.js reads "::a.b.c.d" as if it were "::ffff:a.b.c.d" (so "::8.8.8.8" would pass as 8.8.8.8), while
// the stack treats it as the IPv4-compatible ::808:808. Rewriting IPv6 text the way WHATWG URL does first
// removes the dotted tail, so ipaddr.js sees the real address. The zone is dropped: it does not change the range.
function canonicalV6(text: string): string | undefined {
  if (!text.includes(":")) return text;
  try {
    return new URL(`http://[${text.replace(/%.*$/, "")}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

/**
 * Whether a connection to this address may be made. Accepts IPv4 or IPv6 text, bracketed ("[::1]"),
 * with a zone ("fe80::1%eth0"), and IPv4-mapped forms ("::ffff:127.0.0.1"), which are judged as the v4 address.
 */
export function classifyAddress(ip: string): AddressVerdict {
  const text = canonicalV6(ip.trim().replace(/^\[(.*)\]$/, "$1"));
  if (text === undefined || !ipaddr.isValid(text)) return refuse(ip, "invalid");
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(text);
  } catch {
    return refuse(ip, "invalid");
  }
  if (parsed.kind() === "ipv4") {
    const verdict = classifyV4(parsed as ipaddr.IPv4);
    if (verdict.allowed) return verdict;
    const mapped = ipaddr.IPv6.isValid(text);
    return mapped
      ? refuse(ip, verdict.range, `an IPv4-mapped form of ${parsed.toString()}, ${describeRange(verdict.range)}`)
      : refuse(ip, verdict.range);
  }
  return classifyV6(ip, parsed as ipaddr.IPv6);
}

/**
 * Like classifyAddress, but a name on the allow list may reach loopback and private addresses (local fixtures
 * and dev servers); everything else stays refused for it too.
 */
export function classifyAddressForHost(ip: string, hostAllowed: boolean): AddressVerdict {
  const verdict = classifyAddress(ip);
  if (!verdict.allowed && hostAllowed && RELAXABLE_RANGES.has(verdict.range)) return { allowed: true };
  return verdict;
}

/**
 * Checks every resolved address (not just the first: a name may resolve to one public and one internal
 * address, and the OS could pick either). Returns the first address, which is the one to connect to.
 */
export function checkResolvedAddresses(
  addresses: readonly string[],
  hostAllowed: boolean,
):
  { ok: true; address: string } | { ok: false; address: string; verdict: Extract<AddressVerdict, { allowed: false }> } {
  const first = addresses[0];
  if (first === undefined) {
    return {
      ok: false,
      address: "",
      verdict: { allowed: false, range: "invalid", description: "no address", message: "No address was found." },
    };
  }
  for (const address of addresses) {
    const verdict = classifyAddressForHost(address, hostAllowed);
    if (!verdict.allowed) return { ok: false, address, verdict };
  }
  return { ok: true, address: first };
}

function stripBrackets(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

/** True when the (WHATWG-normalised) hostname is an IP literal rather than a name to resolve. */
function isIpHostname(hostname: string): boolean {
  const bare = stripBrackets(hostname);
  // WHATWG URL already rewrites 127.1, 0x7f.0.0.1, 2130706433 … to dotted decimal; ipaddr.isValid also
  // accepts those legacy spellings, so a hostname that bypassed URL parsing is still recognised.
  return ipaddr.isValid(bare) || bare !== hostname;
}

/** The bare address of an IP-literal hostname ("[::1]" → "::1"). */
export function hostnameToAddress(hostname: string): string {
  return stripBrackets(hostname);
}

/**
 * Static checks on a URL before any DNS: http(s) only, no user:pass@, and an IP-literal host in any spelling
 * must be public. Names still need their resolved addresses checked.
 */
export function checkUrl(url: string): UrlCheck {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: "invalid_url", message: `${url} is not a valid URL; give a full http(s):// address.` };
  }
  const shown = parsed.href;
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return {
      ok: false,
      reason: "scheme",
      message: `${shown} uses ${parsed.protocol}; only http:// and https:// websites can be fetched.`,
    };
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return {
      ok: false,
      reason: "credentials",
      message: `${shown} contains a user name or password; remove the "user:pass@" part and use the public address.`,
    };
  }
  if (parsed.hostname === "") {
    return { ok: false, reason: "invalid_url", message: `${shown} has no host name.` };
  }
  if (!isIpHostname(parsed.hostname)) return { ok: true, url: parsed, hostIsIp: false };
  const address = hostnameToAddress(parsed.hostname);
  const verdict = classifyAddress(address);
  if (!verdict.allowed) {
    return {
      ok: false,
      reason: "address",
      message: `${shown} resolves to ${address}, ${verdict.description}; ${PUBLIC_ONLY} ${ALLOW_HOSTS_HINT}`,
    };
  }
  return { ok: true, url: parsed, hostIsIp: true };
}

function normaliseHostname(hostname: string): string {
  return hostname.trim().toLowerCase().replace(/\.$/, "");
}

/**
 * Whether an allow-list entry ("fixture.test" or "fixture.test:3000") names this host. Exact, case-insensitive
 * name match (a trailing dot is ignored); an entry with a port matches only that port. `port` is the
 * effective port ("80"/"443" when the URL has none). IP literals never match, on either side.
 */
export function isAllowedHost(hostname: string, port: string, allowList: readonly string[]): boolean {
  const host = normaliseHostname(hostname);
  if (host === "" || isIpHostname(host)) return false;
  return allowList.some((raw) => {
    const entry = raw.trim().toLowerCase();
    if (entry === "" || entry.startsWith("[")) return false;
    const colon = entry.lastIndexOf(":");
    const hasPort = colon !== -1 && /^\d+$/.test(entry.slice(colon + 1));
    const entryHost = normaliseHostname(hasPort ? entry.slice(0, colon) : entry);
    if (entryHost === "" || isIpHostname(entryHost) || entryHost.includes(":")) return false;
    if (entryHost !== host) return false;
    return !hasPort || entry.slice(colon + 1) === port;
  });
}

/** Parses FETCH_ALLOW_HOSTS: comma-separated names, optionally name:port; blanks are dropped. */
export function parseAllowHosts(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== "");
}
