// Server-side fetcher for brand extraction. The user names the URL, so everything about it is hostile: the
// host is resolved here, every address is vetted, and the socket connects to exactly the vetted address
// (no second DNS lookup an attacker could answer differently), on every redirect hop.
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { Transform, Writable, pipeline, type Readable } from "node:stream";
import zlib from "node:zlib";
import {
  ALLOW_HOSTS_HINT,
  checkResolvedAddresses,
  checkUrl,
  hostnameToAddress,
  isAllowedHost,
  parseAllowHosts,
} from "@/lib/net/address-policy";
import { setting } from "@/lib/core/config";

export type FetchRefusalReason =
  | "invalid_url"
  | "scheme"
  | "credentials"
  | "address"
  | "dns"
  | "redirects"
  | "timeout"
  | "too_large"
  | "content_type"
  | "encoding"
  | "status"
  | "network";

export class FetchRefusedError extends Error {
  override readonly name = "FetchRefusedError";
  readonly reason: FetchRefusalReason;
  /** The URL of the hop that was refused (may differ from the requested one after redirects). */
  readonly url: string;
  readonly status: number | undefined;

  constructor(reason: FetchRefusalReason, message: string, details: { url: string; status?: number; cause?: unknown }) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.reason = reason;
    this.url = details.url;
    this.status = details.status;
  }
}

type FetchKind = "html" | "css" | "image" | "font";

export type LookupFn = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;

export interface SafeFetchOptions {
  accept: FetchKind[];
  /** Limit on the body after decompression (and on the bytes on the wire). Default 5 MB. */
  maxBytes?: number;
  /** Limit on the whole fetch: DNS, every redirect hop and the body. Default 10 s. */
  timeoutMs?: number;
  maxRedirects?: number;
  lookup?: LookupFn;
  /** Names (optionally name:port) that may resolve to loopback/private addresses. Default: FETCH_ALLOW_HOSTS. */
  allowHosts?: string[];
}

export interface SafeFetchResult {
  /** The final URL, after redirects. */
  url: string;
  status: number;
  /** Lower-case media type without parameters, e.g. "text/html". */
  contentType: string;
  /** The charset parameter of Content-Type, lower-cased, when the server sent one. */
  charset: string | null;
  body: Buffer;
  /** Each URL redirected to, in order. */
  redirects: string[];
}

const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_REDIRECTS = 5;
const USER_AGENT = "DeckhandBrandBot/1.0 (+https://deckhand.dev/bot)";

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const ACCEPT_HEADERS: Record<FetchKind, string> = {
  html: "text/html, application/xhtml+xml;q=0.9",
  css: "text/css",
  image: "image/avif, image/webp, image/png, image/svg+xml, image/*;q=0.8",
  font: "font/woff2, font/woff, font/ttf, font/otf, application/font-woff;q=0.9",
};

function acceptsMediaType(kind: FetchKind, type: string): boolean {
  switch (kind) {
    case "html":
      return type === "text/html" || type === "application/xhtml+xml";
    case "css":
      return type === "text/css";
    case "image":
      return /^image\/[a-z0-9.+-]+$/.test(type);
    case "font":
      return (
        /^font\/[a-z0-9.+-]+$/.test(type) ||
        type.startsWith("application/font-woff") ||
        type.startsWith("application/x-font-") ||
        type === "application/vnd.ms-fontobject"
      );
  }
}

const defaultLookup: LookupFn = async (hostname) => {
  const results = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return results.map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 }));
};

function effectivePort(url: URL): string {
  return url.port !== "" ? url.port : url.protocol === "https:" ? "443" : "80";
}

/** A lookup for http.request that can only ever answer the address vetted beforehand. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    // Node's happy-eyeballs connect asks for `all: true` and expects an array back.
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (err: null, addresses: { address: string; family: number }[]) => void)(null, [
        { address, family },
      ]);
    } else {
      callback(null, address, family);
    }
  };
}

interface Deadline {
  signal: AbortSignal;
  refusal: () => FetchRefusedError;
}

function abortable<T>(promise: Promise<T>, deadline: Deadline): Promise<T> {
  if (deadline.signal.aborted) return Promise.reject(deadline.refusal());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(deadline.refusal());
    deadline.signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        deadline.signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        deadline.signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

async function resolveVetted(
  url: URL,
  hostIsIp: boolean,
  options: { lookup: LookupFn; allowHosts: string[]; deadline: Deadline },
): Promise<{ address: string; family: 4 | 6 }> {
  const href = url.href;
  if (hostIsIp) {
    // checkUrl already refused non-public literals; allow-listing never applies to literals.
    const address = hostnameToAddress(url.hostname);
    return { address, family: address.includes(":") ? 6 : 4 };
  }
  let results: { address: string; family: 4 | 6 }[];
  try {
    results = await abortable(options.lookup(url.hostname), options.deadline);
  } catch (error) {
    if (error instanceof FetchRefusedError) throw error;
    const code = (error as { code?: string }).code;
    throw new FetchRefusedError(
      "dns",
      `${href}: the host name ${url.hostname} could not be resolved${code ? ` (${code})` : ""}; check the address.`,
      { url: href, cause: error },
    );
  }
  if (results.length === 0) {
    throw new FetchRefusedError("dns", `${href}: the host name ${url.hostname} has no addresses; check the address.`, {
      url: href,
    });
  }
  const hostAllowed = isAllowedHost(url.hostname, effectivePort(url), options.allowHosts);
  const check = checkResolvedAddresses(
    results.map((r) => r.address),
    hostAllowed,
  );
  if (!check.ok) {
    throw new FetchRefusedError(
      "address",
      `${href} resolves to ${check.address}, ${check.verdict.description}; only public websites can be fetched. ${ALLOW_HOSTS_HINT}`,
      { url: href },
    );
  }
  const chosen = results[0];
  if (!chosen) throw new Error("unreachable: vetted an empty address list");
  return { address: chosen.address, family: chosen.family };
}

function request(
  url: URL,
  target: { address: string; family: 4 | 6 },
  accept: string,
  deadline: Deadline,
): Promise<{ req: http.ClientRequest; res: http.IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const req = client.request(url, {
      method: "GET",
      // No pooled sockets: a kept-alive socket is tied to host:port, not to the address vetted for this hop.
      agent: false,
      lookup: pinnedLookup(target.address, target.family),
      family: target.family,
      headers: {
        "user-agent": USER_AGENT,
        accept,
        "accept-encoding": "gzip, deflate, br",
        connection: "close",
      },
    });
    const onAbort = () => {
      const refusal = deadline.refusal();
      req.destroy(refusal);
      reject(refusal);
    };
    deadline.signal.addEventListener("abort", onAbort, { once: true });
    req.once("response", (res) => {
      deadline.signal.removeEventListener("abort", onAbort);
      // From here failures surface through the response stream; a late socket error must not go unhandled.
      req.on("error", () => {});
      resolve({ req, res });
    });
    req.once("error", (error) => {
      deadline.signal.removeEventListener("abort", onAbort);
      if (error instanceof FetchRefusedError) return reject(error);
      const code = (error as NodeJS.ErrnoException).code;
      reject(
        new FetchRefusedError(
          "network",
          `${url.href} could not be fetched (${code ?? error.message}); check that the site is reachable.`,
          { url: url.href, cause: error },
        ),
      );
    });
    req.end();
  });
}

function decoderFor(encoding: string): Transform | undefined {
  switch (encoding) {
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip();
    case "deflate":
      return zlib.createInflate();
    case "br":
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

function tooLarge(href: string, maxBytes: number): FetchRefusedError {
  return new FetchRefusedError(
    "too_large",
    `${href} is larger than ${maxBytes} bytes; point at a smaller page or asset.`,
    { url: href },
  );
}

function readBody(
  href: string,
  req: http.ClientRequest,
  res: http.IncomingMessage,
  maxBytes: number,
  deadline: Deadline,
): Promise<Buffer> {
  const encodings = (res.headers["content-encoding"] ?? "")
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== "" && e !== "identity");
  const decoders: Transform[] = [];
  // Encodings are listed in the order applied, so they are undone in reverse.
  for (const encoding of encodings.reverse()) {
    const decoder = decoderFor(encoding);
    if (!decoder) {
      req.destroy();
      return Promise.reject(
        new FetchRefusedError("encoding", `${href} was sent with an unsupported Content-Encoding "${encoding}".`, {
          url: href,
        }),
      );
    }
    decoders.push(decoder);
  }

  return new Promise<Buffer>((resolve, reject) => {
    let failure: FetchRefusedError | undefined;
    const fail = (error: FetchRefusedError) => {
      failure ??= error;
      // Closing the socket is what stops the server from sending the rest.
      req.destroy();
      res.destroy();
    };

    let wireBytes = 0;
    const wireCounter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        wireBytes += chunk.length;
        if (wireBytes > maxBytes) return callback(tooLarge(href, maxBytes));
        callback(null, chunk);
      },
    });
    const chunks: Buffer[] = [];
    let bodyBytes = 0;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        bodyBytes += chunk.length;
        if (bodyBytes > maxBytes) return callback(tooLarge(href, maxBytes));
        chunks.push(chunk);
        callback();
      },
    });

    const onAbort = () => fail(deadline.refusal());
    deadline.signal.addEventListener("abort", onAbort, { once: true });
    if (deadline.signal.aborted) onAbort();

    const streams: (Readable | Transform | Writable)[] = [res, wireCounter, ...decoders, sink];
    pipeline(streams, (error) => {
      deadline.signal.removeEventListener("abort", onAbort);
      if (error && !failure) {
        if (error instanceof FetchRefusedError) {
          failure = error;
        } else if ((error as NodeJS.ErrnoException).code?.startsWith("Z_") || error.message.includes("decompress")) {
          failure = new FetchRefusedError("encoding", `${href} sent a body that could not be decompressed.`, {
            url: href,
            cause: error,
          });
        } else {
          failure = new FetchRefusedError("network", `${href}: the connection failed while reading the body.`, {
            url: href,
            cause: error,
          });
        }
      }
      if (failure) {
        req.destroy();
        res.destroy();
        return reject(failure);
      }
      resolve(Buffer.concat(chunks, bodyBytes));
    });
  });
}

/**
 * GET a public http(s) URL for brand extraction, refusing (FetchRefusedError) anything that could reach
 * internal services: non-public addresses on any hop, too many redirects, slow or oversized responses and
 * content kinds the caller did not ask for.
 */
export async function safeFetch(url: string, options: SafeFetchOptions): Promise<SafeFetchResult> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const lookup = options.lookup ?? defaultLookup;
  const allowHosts = options.allowHosts ?? parseAllowHosts(setting("FETCH_ALLOW_HOSTS"));
  const kinds = [...new Set(options.accept)];
  if (kinds.length === 0) throw new TypeError("safeFetch: `accept` must name at least one kind");
  const acceptHeader = kinds.map((kind) => ACCEPT_HEADERS[kind]).join(", ");

  let current = url;
  const redirects: string[] = [];
  const controller = new AbortController();
  const deadline: Deadline = {
    signal: controller.signal,
    refusal: () =>
      new FetchRefusedError(
        "timeout",
        `${current} did not finish loading within ${timeoutMs} ms; the site may be slow or unreachable.`,
        { url: current },
      ),
  };
  const timer = setTimeout(() => controller.abort(), timeoutMs);

  try {
    for (;;) {
      const checked = checkUrl(current);
      if (!checked.ok) throw new FetchRefusedError(checked.reason, checked.message, { url: current });
      const hop = checked.url;
      current = hop.href;

      const target = await resolveVetted(hop, checked.hostIsIp, { lookup, allowHosts, deadline });
      const { req, res } = await request(hop, target, acceptHeader, deadline);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;

      if (REDIRECT_STATUSES.has(status) && location !== undefined) {
        req.destroy();
        res.destroy();
        let next: URL;
        try {
          next = new URL(location, hop);
        } catch {
          throw new FetchRefusedError(
            "invalid_url",
            `${current} redirected to "${location}", which is not a valid URL.`,
            { url: current, status },
          );
        }
        next.hash = "";
        if (redirects.length >= maxRedirects) {
          throw new FetchRefusedError(
            "redirects",
            `${url} redirected more than ${maxRedirects} times; give the final address of the page instead.`,
            { url: current, status },
          );
        }
        redirects.push(next.href);
        current = next.href;
        continue;
      }

      if (status < 200 || status > 299) {
        req.destroy();
        res.destroy();
        throw new FetchRefusedError(
          "status",
          `${current} answered HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ""}; check that the page exists and is public.`,
          { url: current, status },
        );
      }

      const contentType = (res.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
      if (!kinds.some((kind) => acceptsMediaType(kind, contentType))) {
        req.destroy();
        res.destroy();
        throw new FetchRefusedError(
          "content_type",
          `${current} is ${contentType === "" ? "of unknown type (no Content-Type)" : contentType}, not ${kinds.join(" or ")} as expected.`,
          { url: current, status },
        );
      }

      const declared = Number(res.headers["content-length"]);
      if (Number.isFinite(declared) && declared > maxBytes) {
        req.destroy();
        res.destroy();
        throw tooLarge(current, maxBytes);
      }

      const body = await readBody(current, req, res, maxBytes, deadline);
      const charset = /charset="?([\w-]+)/i.exec(res.headers["content-type"] ?? "")?.[1]?.toLowerCase() ?? null;
      return { url: current, status, contentType, charset, body, redirects };
    }
  } finally {
    clearTimeout(timer);
  }
}
