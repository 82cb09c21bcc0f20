import type { z } from "zod";
import { AppError } from "@/lib/core/errors";
import type { Ctx } from "@/lib/auth/caller";
import { brands } from "@/lib/db/schema/brands";
import { FetchRefusedError, safeFetch } from "@/lib/net/safe-fetch";
import { ALLOW_HOSTS_HINT } from "@/lib/net/address-policy";
import { type AssetOwner, ownerOf, storeImage } from "@/lib/assets/assets";
import { assertAllowanceLeft, consumeAllowance } from "@/lib/usage/consume-allowance";
import { BRAND_BOOK_SCHEMA_VERSION, type BrandBook, brandBookSchema, type Logo } from "./brand-book";
import type { LogoCandidate } from "./extract/discover-resources";
import { extractionLimits } from "./extract/limits";
import { ExtractionAbortedError, type Extractor, startExtractor } from "./extract/off-thread";
import { assertFailuresLeft, countFailure } from "./extraction-failures";
import { brandDetailSchema, type createBrandBody } from "./schemas";
import { synthesizeTokensCss } from "./synthesize-tokens";

// POST /brands: fetch a public page and its stylesheets through the SSRF-safe fetcher, extract the
// brand deterministically, store the logo, synthesise the deck tokens, save the brand book.

const MAX_STYLESHEETS = 12;
const limits = {
  page: { maxBytes: 3 * 1024 * 1024, timeoutMs: 10_000 },
  css: { maxBytes: 2 * 1024 * 1024, timeoutMs: 8_000 },
  logo: { maxBytes: 1024 * 1024, timeoutMs: 8_000 },
};

// The declared charset, else a <meta charset> in the first bytes, else UTF-8.
export function decode(body: Buffer, charset: string | null): string {
  const declared =
    charset ??
    /<meta[^>]+charset=["']?([\w-]+)/i.exec(body.subarray(0, 2048).toString("latin1"))?.[1]?.toLowerCase() ??
    "utf-8";
  try {
    return new TextDecoder(declared).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

// Stylesheets the page links, plus the ones they @import (one level), fetched in parallel; a sheet
// that cannot be fetched is skipped rather than failing the brand, and sheets past the total size limit
// are left unread.
async function fetchStylesheets(urls: string[], extractor: Extractor): Promise<{ url: string; css: string }[]> {
  let budget = extractionLimits.cssBytes;
  const fetchOne = async (url: string) => {
    if (budget <= 0) return null;
    try {
      const response = await safeFetch(url, { accept: ["css"], ...limits.css });
      if (response.body.length > budget) {
        budget = 0;
        return null;
      }
      budget -= response.body.length;
      return { url: response.url, css: decode(response.body, response.charset) };
    } catch {
      return null;
    }
  };
  const first = (await Promise.all(urls.slice(0, MAX_STYLESHEETS).map(fetchOne))).filter((sheet) => sheet !== null);
  const imports = await extractor.run({ kind: "imports", sheets: first });
  const seen = new Set(first.map((sheet) => sheet.url));
  const nested = (
    await Promise.all(
      [...new Set(imports)]
        .filter((url) => !seen.has(url))
        .slice(0, MAX_STYLESHEETS)
        .map(fetchOne),
    )
  ).filter((sheet) => sheet !== null);
  // Imported sheets come first, as the cascade would apply them.
  return [...nested, ...first];
}

// The page's stylesheets, fetched here, and the brand read from them on the extraction's worker thread.
async function readSite(url: string, html: string) {
  const extractor = startExtractor();
  try {
    const resources = await extractor.run({ kind: "discover", html, url });
    const stylesheets = await fetchStylesheets(resources.stylesheets, extractor);
    const extracted = await extractor.run({ kind: "extract", site: { url, html, stylesheets } });
    return { stylesheets, extracted };
  } finally {
    extractor.close();
  }
}

// The first candidate that can be fetched and is an image becomes one of the organization's images
// (lib/assets: sniffed, SVG sanitised and rasterised, downscaled), which the logo route and <Logo> serve.
async function storeLogo(owner: AssetOwner, name: string, candidates: LogoCandidate[]): Promise<Logo | null> {
  for (const candidate of candidates.slice(0, 4)) {
    try {
      const fetched =
        candidate.kind === "svg"
          ? { body: Buffer.from(candidate.svg, "utf8"), url: null }
          : await safeFetch(candidate.url, { accept: ["image"], ...limits.logo });
      const asset = await storeImage(owner, fetched.body, {
        alt: `${name} logo`,
        sourceUrl: fetched.url,
        what: "The logo",
      });
      return {
        kind: asset.originalType === "image/svg+xml" ? "svg" : "image",
        source: candidate.kind === "svg" ? "inline-svg" : candidate.source,
        sourceUrl: fetched.url,
        storedKey: asset.storedKey,
        contentType: asset.contentType,
        width: asset.width,
        height: asset.height,
        confidence:
          candidate.kind === "svg"
            ? 0.85
            : candidate.source === "header-image"
              ? 0.8
              : candidate.source === "og-image"
                ? 0.35
                : 0.55,
        assetId: asset.id,
      };
    } catch {
      // not fetched, not an image, or no room left for it: try the next candidate
    }
  }
  return null;
}

// create_brand_from_url's spec lists no 402: a used-up month answers 429 until the next month starts,
// still naming the feature.
function asQuota(error: unknown): unknown {
  if (!(error instanceof AppError) || error.code !== "allowance_exhausted") return error;
  const now = new Date();
  const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return new AppError("quota_exceeded", error.message, {
    featureId: error.featureId,
    retryAfterSeconds: Math.ceil((nextMonth - now.getTime()) / 1000),
  });
}

// Refusals say why without echoing what an internal name resolved to.
function describeRefusal(url: string, error: FetchRefusedError): string {
  if (error.reason === "address")
    return `Could not read ${url}: it is not a public address; only public websites can be read. ${ALLOW_HOSTS_HINT}`;
  if (error.reason === "dns") return `Could not read ${url}: the host name does not resolve to a public website.`;
  return `Could not read ${url}: ${error.message}`;
}

export async function createBrandFromUrl(ctx: Ctx, input: z.output<typeof createBrandBody>) {
  await assertAllowanceLeft(ctx.db, ctx.caller.organizationId, "brand_extractions").catch((error: unknown) => {
    throw asQuota(error);
  });
  // A refused or failed extraction is free for the allowance but not unlimited: each one counts toward
  // the caller's hourly limit of failures, checked before any work starts.
  await assertFailuresLeft(ctx);
  try {
    return await extractAndSave(ctx, input);
  } catch (error) {
    if (!(error instanceof AppError && error.code === "quota_exceeded")) await countFailure(ctx);
    throw error;
  }
}

async function extractAndSave(ctx: Ctx, input: z.output<typeof createBrandBody>) {
  const started = Date.now();
  let page;
  try {
    page = await safeFetch(input.url, { accept: ["html"], ...limits.page });
  } catch (error) {
    if (error instanceof FetchRefusedError) throw new AppError("invalid_request", describeRefusal(input.url, error));
    throw error;
  }
  const html = decode(page.body, page.charset);
  let site;
  try {
    site = await readSite(page.url, html);
  } catch (error) {
    if (!(error instanceof ExtractionAbortedError)) throw error;
    throw new AppError(
      "invalid_request",
      `Could not extract a brand from ${input.url}: ${error.message}. The page and its stylesheets are too large or too complex to read.`,
    );
  }
  const { stylesheets, extracted } = site;
  const logo = await storeLogo(ownerOf(ctx), extracted.name, extracted.logoCandidates);

  const book: BrandBook = brandBookSchema.parse({
    schemaVersion: BRAND_BOOK_SCHEMA_VERSION,
    name: extracted.name,
    sourceUrl: page.url,
    palette: extracted.palette,
    typography: extracted.typography,
    logo,
    voice: extracted.voice,
    imagery: extracted.imagery,
    tokensCss: synthesizeTokensCss(extracted),
    sources: {
      pages: [page.url, ...page.redirects],
      stylesheets: stylesheets.map((sheet) => sheet.url),
      fetchedAt: new Date().toISOString(),
    },
    extraction: { model: null, durationMs: Date.now() - started },
  });

  const row = await ctx.db.transaction(async (tx) => {
    await consumeAllowance(tx, ctx.caller.organizationId, "brand_extractions").catch((error: unknown) => {
      throw asQuota(error);
    });
    const [inserted] = await tx
      .insert(brands)
      .values({
        organizationId: ctx.caller.organizationId,
        createdBy: ctx.caller.userId,
        name: book.name.slice(0, 200) || new URL(page.url).hostname,
        sourceUrl: new URL(input.url).toString(),
        data: book,
      })
      .returning();
    return inserted;
  });
  return brandDetailSchema.parse(row);
}
