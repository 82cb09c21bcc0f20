import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { config, setting } from "@/lib/core/config";
import { faultOf } from "@/lib/core/faults";
import { serverSecret } from "@/lib/core/secret";
import { logger } from "@/lib/core/log";

// Where rendered files live (exports, preview images, brand logos): Vercel Blob when
// BLOB_READ_WRITE_TOKEN is set, else DATA_DIR/blobs. `put` returns the file's locator (what callers
// keep), `downloadUrl` a short-lived signed link to the app that makes the browser save the file under a
// given name. Both stores keep every file private: the app serves them, after its own access checks.

export type StoredFile = { data: Buffer; contentType: string };

export interface FileStore {
  put(key: string, data: Buffer, contentType: string): Promise<string>;
  get(locator: string): Promise<StoredFile | null>;
  delete(locator: string): Promise<void>;
  /** Removes every file whose key starts with `prefix` (a folder such as `og/<deckId>/`). */
  deletePrefix(prefix: string): Promise<void>;
  downloadUrl(locator: string, fileName: string, ttlMs?: number): Promise<string>;
}

const DOWNLOAD_TTL_MS = 5 * 60 * 1000;
const TEMP_SUFFIX = ".tmp";
/** No write of a file takes this long: a temporary file older than this was left by a process that died. */
const STALE_TEMP_MS = 5 * 60 * 1000;
const keyPattern = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i;

const contentTypes: Record<string, string> = {
  ".png": "image/png",
  ".pdf": "application/pdf",
  ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  ".svg": "image/svg+xml",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
};

function contentTypeFor(key: string): string {
  return contentTypes[path.extname(key).toLowerCase()] ?? "application/octet-stream";
}

function signDownload(key: string, fileName: string, expires: number): string {
  return createHmac("sha256", serverSecret()).update(`file\n${key}\n${fileName}\n${expires}`).digest("base64url");
}

function checkKey(key: string): string {
  if (!keyPattern.test(key) || key.includes("..")) throw new Error(`Invalid storage key: ${key}`);
  return key;
}

// The download link of both stores: `/files/<key>` on the app, signed with the server's secret and
// expiring, answered by app/files/[...key]/route.ts from the store.
function signedFileUrl(key: string, fileName: string, ttlMs: number): string {
  checkKey(key);
  const expires = Date.now() + ttlMs;
  const query = new URLSearchParams({
    name: fileName,
    expires: String(expires),
    signature: signDownload(key, fileName, expires),
  });
  return `${config.appUrl}/files/${key}?${query}`;
}

// Checks a download link made by signedFileUrl.
export function verifyDownload(key: string, fileName: string, expires: number, signature: string): boolean {
  if (!Number.isFinite(expires) || expires < Date.now()) return false;
  const expected = Buffer.from(signDownload(key, fileName, expires));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export class LocalFileStore implements FileStore {
  constructor(private readonly root: string) {}

  private resolve(key: string): string {
    return path.join(this.root, checkKey(key));
  }

  async put(key: string, data: Buffer): Promise<string> {
    const file = this.resolve(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Write then rename, so a reader never sees half a file; a write that fails (a full disk) leaves nothing.
    const temp = `${file}.${process.pid}.${Date.now()}${TEMP_SUFFIX}`;
    try {
      await fs.writeFile(temp, data);
      await fs.rename(temp, file);
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
    return key;
  }

  /**
   * Removes the temporary files of writes that never finished (a process killed mid-write) once they are
   * older than `olderThanMs`: younger ones may be another instance's write in progress (a shared DATA_DIR).
   * At start-up; never throws. Returns how many it removed.
   */
  async sweepTemporaryFiles(olderThanMs = STALE_TEMP_MS): Promise<number> {
    let removed = 0;
    const entries = await fs.readdir(this.root, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isFile() || !entry.name.endsWith(TEMP_SUFFIX)) continue;
      const file = path.join(entry.parentPath, entry.name);
      const stat = await fs.stat(file).catch(() => null);
      if (!stat || Date.now() - stat.mtimeMs < olderThanMs) continue;
      try {
        await fs.rm(file);
        removed++;
      } catch {
        // Gone already: another instance swept it.
      }
    }
    if (removed > 0) logger("storage").info("temp_swept", { removed });
    return removed;
  }

  async get(key: string): Promise<StoredFile | null> {
    try {
      return { data: await fs.readFile(this.resolve(key)), contentType: contentTypeFor(key) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.resolve(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await fs.rm(this.resolve(prefix.replace(/\/+$/, "")), { recursive: true, force: true });
  }

  async downloadUrl(key: string, fileName: string, ttlMs = DOWNLOAD_TTL_MS): Promise<string> {
    return signedFileUrl(key, fileName, ttlMs);
  }
}

// Vercel Blob: every file is stored `private` (readable only with the store's token), under a random
// suffix for everything but the fixed-key preview images. The locator is the blob's URL; reads send the
// token (as the SDK's `get` does), and downloads go through the same signed, expiring `/files/...` link
// as the local store's, so no URL that Blob hands out makes a file readable without the app's signature.
// Files stored `public` by earlier versions are read and downloaded the same way.
export class VercelBlobFileStore implements FileStore {
  constructor(private readonly token: string) {}

  async put(key: string, data: Buffer, contentType: string): Promise<string> {
    checkKey(key);
    const { put } = await import("@vercel/blob");
    const blob = await put(key, data, {
      access: "private",
      contentType,
      token: this.token,
      addRandomSuffix: !key.startsWith("og/"),
      allowOverwrite: true,
    });
    return blob.url;
  }

  async get(locator: string): Promise<StoredFile | null> {
    let url = locator;
    if (!isUrl(locator)) {
      checkKey(locator);
      const { head, BlobNotFoundError } = await import("@vercel/blob");
      try {
        url = (await head(locator, { token: this.token })).url;
      } catch (error) {
        if (error instanceof BlobNotFoundError) return null;
        throw error;
      }
    }
    // The token goes only to the store's own hosts.
    if (!isBlobStoreUrl(url)) throw new Error(`Not a Vercel Blob URL: ${new URL(url).origin}`);
    const response = await fetch(url, { headers: { authorization: `Bearer ${this.token}` }, cache: "no-store" });
    if (response.status === 404) return null;
    if (!response.ok) throw new Error(`Blob store answered ${response.status}`);
    return { data: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get("content-type") ?? "" };
  }

  async delete(locator: string): Promise<void> {
    const { del } = await import("@vercel/blob");
    await del(locator, { token: this.token });
  }

  async deletePrefix(prefix: string): Promise<void> {
    const { del, list } = await import("@vercel/blob");
    for (let cursor: string | undefined; ;) {
      const page = await list({ prefix, cursor, token: this.token });
      if (page.blobs.length > 0)
        await del(
          page.blobs.map((blob) => blob.url),
          { token: this.token },
        );
      if (!page.hasMore) break;
      cursor = page.cursor;
    }
  }

  async downloadUrl(locator: string, fileName: string, ttlMs = DOWNLOAD_TTL_MS): Promise<string> {
    // A blob's pathname is its key in this store: the /files route reads it back with `get`.
    const key = isUrl(locator) ? decodeURIComponent(new URL(locator).pathname.slice(1)) : locator;
    return signedFileUrl(key, fileName, ttlMs);
  }
}

const isUrl = (locator: string) => /^https?:\/\//.test(locator);

// Vercel's store hosts (https://<store>.<access>.blob.vercel-storage.com), or the API's own origin when
// VERCEL_BLOB_API_URL points the SDK at another server (the tests' local Blob server).
function isBlobStoreUrl(url: string): boolean {
  const parsed = new URL(url);
  if (parsed.protocol === "https:" && parsed.hostname.endsWith(".blob.vercel-storage.com")) return true;
  const api = setting("VERCEL_BLOB_API_URL");
  return api !== undefined && new URL(api).origin === parsed.origin;
}

/** The local store when files are kept in DATA_DIR/blobs (no Vercel Blob token), else null. */
export function localFileStore(): LocalFileStore | null {
  return setting("BLOB_READ_WRITE_TOKEN") ? null : new LocalFileStore(path.join(config.dataDir, "blobs"));
}

export function getFileStore(): FileStore {
  return localFileStore() ?? new VercelBlobFileStore(setting("BLOB_READ_WRITE_TOKEN")!);
}

/**
 * Whether a file can be written in DATA_DIR now, for the readiness check: "full" when the disk has no space
 * left, "unwritable" for any other failure, "unused" when nothing is kept there (a server database and
 * Vercel Blob). Writes a small file and removes it.
 */
export async function probeDataFolder(): Promise<"ok" | "full" | "unwritable" | "unused"> {
  if (config.databaseUrl && !localFileStore()) return "unused";
  const probe = path.join(config.dataDir, `.ready-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    await fs.mkdir(config.dataDir, { recursive: true });
    await fs.writeFile(probe, Buffer.alloc(4096));
    return "ok";
  } catch (error) {
    return faultOf(error)?.kind === "disk_full" ? "full" : "unwritable";
  } finally {
    await fs.rm(probe, { force: true });
  }
}
