import { createHmac, timingSafeEqual } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { config, setting } from "@/lib/core/config";
import { serverSecret } from "@/lib/core/secret";

// Where rendered files live (exports, preview images, brand logos): Vercel Blob when
// BLOB_READ_WRITE_TOKEN is set, else DATA_DIR/blobs. `put` returns the file's locator (what callers
// keep), `downloadUrl` a short-lived link that makes the browser save the file under a given name.

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
const keyPattern = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i;

const contentTypes: Record<string, string> = {
  ".png": "image/png",
  ".pdf": "application/pdf",
  ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  ".svg": "image/svg+xml",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
};

export function contentTypeFor(key: string): string {
  return contentTypes[path.extname(key).toLowerCase()] ?? "application/octet-stream";
}

function signDownload(key: string, fileName: string, expires: number): string {
  return createHmac("sha256", serverSecret()).update(`file\n${key}\n${fileName}\n${expires}`).digest("base64url");
}

// Checks a local download link made by LocalFileStore.downloadUrl.
export function verifyDownload(key: string, fileName: string, expires: number, signature: string): boolean {
  if (!Number.isFinite(expires) || expires < Date.now()) return false;
  const expected = Buffer.from(signDownload(key, fileName, expires));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export class LocalFileStore implements FileStore {
  constructor(private readonly root: string) {}

  private resolve(key: string): string {
    if (!keyPattern.test(key) || key.includes("..")) throw new Error(`Invalid storage key: ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, data: Buffer): Promise<string> {
    const file = this.resolve(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Write then rename, so a reader never sees half a file.
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await fs.writeFile(temp, data);
    await fs.rename(temp, file);
    return key;
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
    this.resolve(key);
    const expires = Date.now() + ttlMs;
    const query = new URLSearchParams({
      name: fileName,
      expires: String(expires),
      signature: signDownload(key, fileName, expires),
    });
    return `${config.appUrl}/files/${key}?${query}`;
  }
}

// Vercel Blob: files are stored with a random suffix, so a blob's public URL is unguessable even to
// someone who knows the export's id, and it is handed out only through the download redirect. Public
// preview images keep fixed keys (they show public slides) and are found again with `head`.
export class VercelBlobFileStore implements FileStore {
  constructor(private readonly token: string) {}

  async put(key: string, data: Buffer, contentType: string): Promise<string> {
    const { put } = await import("@vercel/blob");
    const blob = await put(key, data, {
      access: "public",
      contentType,
      token: this.token,
      addRandomSuffix: !key.startsWith("og/"),
      allowOverwrite: true,
    });
    return blob.url;
  }

  async get(locator: string): Promise<StoredFile | null> {
    let url = locator;
    if (!/^https:\/\//.test(locator)) {
      const { head, BlobNotFoundError } = await import("@vercel/blob");
      try {
        url = (await head(locator, { token: this.token })).url;
      } catch (error) {
        if (error instanceof BlobNotFoundError) return null;
        throw error;
      }
    }
    const response = await fetch(url);
    if (response.status === 404) return null;
    if (!response.ok) throw new Error(`Blob store answered ${response.status}`);
    return { data: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get("content-type") ?? "" };
  }

  async delete(url: string): Promise<void> {
    const { del } = await import("@vercel/blob");
    await del(url, { token: this.token });
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

  async downloadUrl(url: string, fileName: string): Promise<string> {
    const link = new URL(url);
    link.searchParams.set("download", fileName);
    return link.toString();
  }
}

export function getFileStore(): FileStore {
  const token = setting("BLOB_READ_WRITE_TOKEN");
  return token ? new VercelBlobFileStore(token) : new LocalFileStore(path.join(config.dataDir, "blobs"));
}
