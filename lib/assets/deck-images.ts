import { AppError } from "@/lib/core/errors";
import { type CompiledDeck, replaceImageUrls } from "@/lib/source/compile";
import { FetchRefusedError, safeFetch } from "@/lib/net/safe-fetch";
import {
  assetHashOf,
  assetPath,
  type AssetOwner,
  commitImage,
  findAssetsByHash,
  findImportedAsset,
  imageLimits,
  type PreparedImage,
  prepareImage,
  preparedBytes,
} from "./assets";

// The images of a deck being written. The compiler reports every static image URL of the module
// (`<Image src>`, `<Slide image>`, `<Beat image>`); here each becomes an address on the asset path:
// - an asset URL (`/assets/<hash>.<ext>`, or that path on the app's or the content origin) must name an
//   image of the organization, and is written as the path, so it loads from whatever origin serves the deck;
// - an http(s) URL is fetched through the SSRF-safe fetcher, checked and stored as an asset (a URL the
//   organization imported before is not fetched again), and the module refers to the stored copy.
// The source keeps what the author wrote; only the compiled module changes. A URL that cannot be fetched
// or is not an image is a 422 naming it, and nothing is stored: every image is fetched and checked first.
// data: URLs stay as written; anything else stays too, and the frame's CSP refuses it (the deck check says so).

/** Remote images fetched at once while a version is written. */
const FETCH_CONCURRENCY = 4;
const FETCH_TIMEOUT_MS = 15_000;

export type ResolveOptions = {
  /**
   * Fetch remote images not imported yet. The editor's live preview passes false: it resolves asset URLs and
   * images imported before, and leaves new URLs for the save, which fetches them.
   */
  fetchRemote: boolean;
  /**
   * Store what was fetched (default). False: fetch and check every image as a write would, but store
   * nothing; the module shows a new image as a data: URL. For checking a module that may be thrown away
   * (a model's draft): nothing is kept for it, and the write that follows fetches again.
   */
  store?: boolean;
  /** Bodies of remote images fetched earlier in the same request (findUnavailableImages): not fetched again. */
  fetched?: ReadonlyMap<string, Buffer>;
};

export async function resolveDeckImages(
  owner: AssetOwner,
  compiled: CompiledDeck,
  options: ResolveOptions = { fetchRemote: true },
): Promise<CompiledDeck> {
  const urls = [...new Set(compiled.images.map((image) => image.url))];
  if (urls.length === 0) return compiled;
  const replacements = new Map<string, string>();

  const hashes = new Map<string, string>();
  for (const url of urls) {
    const hash = assetHashOf(url);
    if (hash) hashes.set(url, hash);
  }
  if (hashes.size > 0) {
    const found = new Map(
      (await findAssetsByHash(owner, [...new Set(hashes.values())])).map((row) => [row.sha256, row]),
    );
    for (const [url, hash] of hashes) {
      const row = found.get(hash);
      if (!row) {
        throw new AppError(
          "invalid_request",
          `The image ${url} is not an image of this organization. Upload it (upload_asset, POST /api/v1/assets) and use the URL it answers.`,
        );
      }
      replacements.set(url, assetPath(row));
    }
  }

  const remote = urls.filter((url) => !hashes.has(url) && /^https?:\/\//i.test(url));
  const toFetch: string[] = [];
  for (const url of remote) {
    const imported = await findImportedAsset(owner, url);
    if (imported) replacements.set(url, assetPath(imported));
    else toFetch.push(url);
  }

  if (options.fetchRemote && toFetch.length > 0) {
    // Everything is fetched and checked before anything is stored.
    const prepared: { url: string; image: PreparedImage }[] = [];
    let adding = 0;
    await eachLimited(toFetch, FETCH_CONCURRENCY, async (url) => {
      const body = options.fetched?.get(url) ?? (await fetchImage(url));
      const image = await prepareImage(owner, body, {
        sourceUrl: url,
        what: `The image at ${url}`,
        alsoAdding: adding,
      });
      adding += preparedBytes(image);
      prepared.push({ url, image });
    });
    for (const { url, image } of prepared) {
      replacements.set(url, options.store === false ? unstoredUrl(image) : assetPath(await commitImage(image)));
    }
  }

  if (replacements.size === 0) return compiled;
  return { ...compiled, compiledJs: replaceImageUrls(compiled.compiledJs, compiled.images, replacements) };
}

/** A remote image of a module that cannot be imported, and why, as `resolveDeckImages` would refuse it. */
export type UnavailableImage = { url: string; message: string };

/**
 * The remote images of a module that a write would refuse (unreachable, a refused address, not an image,
 * too large), each with the reason, instead of refusing the first: what an import leaves out so that the
 * rest of a deck still arrives. Nothing is stored; images the organization imported before are not fetched.
 */
export async function findUnavailableImages(
  owner: AssetOwner,
  compiled: CompiledDeck,
): Promise<{ unavailable: UnavailableImage[]; fetched: Map<string, Buffer> }> {
  const urls = [...new Set(compiled.images.map((image) => image.url))].filter(
    (url) => !assetHashOf(url) && /^https?:\/\//i.test(url),
  );
  const unavailable: UnavailableImage[] = [];
  const fetched = new Map<string, Buffer>();
  await eachLimited(urls, FETCH_CONCURRENCY, async (url) => {
    if (await findImportedAsset(owner, url)) return;
    try {
      const body = await fetchImage(url);
      await prepareImage(owner, body, { sourceUrl: url, what: `The image at ${url}` });
      fetched.set(url, body);
    } catch (error) {
      if (!(error instanceof AppError) || !unimportable.has(error.code)) throw error;
      unavailable.push({ url, message: error.message });
    }
  });
  // The write that follows takes the fetched bodies (ResolveOptions.fetched): each image is fetched once.
  return { unavailable: unavailable.sort((a, b) => urls.indexOf(a.url) - urls.indexOf(b.url)), fetched };
}

// What a write refuses an image for: the address or the answer (invalid_request), or its size.
const unimportable = new Set(["invalid_request", "payload_too_large"]);

// A checked image that is not stored: the organization's asset when it has one, the file shared with
// another organization's, or the bytes themselves.
function unstoredUrl(image: PreparedImage): string {
  if (image.existing) return assetPath(image.existing);
  if (image.file) return assetPath({ sha256: image.sha256, contentType: image.file.contentType });
  const { contentType, data } = image.processed!;
  return `data:${contentType};base64,${data.toString("base64")}`;
}

async function fetchImage(url: string): Promise<Buffer> {
  try {
    const response = await safeFetch(url, {
      accept: ["image"],
      maxBytes: imageLimits().maxBytes,
      timeoutMs: FETCH_TIMEOUT_MS,
    });
    return response.body;
  } catch (error) {
    if (error instanceof FetchRefusedError) {
      throw new AppError("invalid_request", describeImageRefusal(url, error), { cause: error });
    }
    throw error;
  }
}

/** Why a deck's image URL could not be imported, naming the URL as the author wrote it. */
export function describeImageRefusal(url: string, error: FetchRefusedError): string {
  const prefix = `Could not import the image ${url}`;
  switch (error.reason) {
    case "address":
      return `${prefix}: it is not at a public address${error.url !== url ? ` (it redirects to ${error.url})` : ""}; only public images can be imported.`;
    case "dns":
      return `${prefix}: the host name does not resolve to a public address.`;
    case "content_type":
      return `${prefix}: it is not an image (${error.message})`;
    case "too_large":
      return `${prefix}: it is larger than ${imageLimits().maxBytes} bytes.`;
    case "status":
      return `${prefix}: the server answered ${error.status ?? "an error"}.`;
    case "timeout":
      return `${prefix}: it did not arrive within ${FETCH_TIMEOUT_MS / 1000} s.`;
    default:
      return `${prefix}: ${error.message}`;
  }
}

async function eachLimited<T>(items: T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: unknown = null;
  const worker = async () => {
    while (next < items.length && failure === null) {
      const item = items[next++]!;
      try {
        await run(item);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== null) throw failure;
}
