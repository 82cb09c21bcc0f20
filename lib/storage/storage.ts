import fs from "node:fs/promises";
import path from "node:path";
import { config } from "@/lib/config";

// Where rendered files live (exports, preview images, brand logos). DATA_DIR/blobs on one machine;
// Vercel Blob when BLOB_READ_WRITE_TOKEN is set (added with the export pipeline).

export type StoredFile = { data: Buffer; contentType: string };

export interface FileStore {
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<StoredFile | null>;
  delete(key: string): Promise<void>;
}

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

export class LocalFileStore implements FileStore {
  constructor(private readonly root: string) {}

  private resolve(key: string): string {
    if (!keyPattern.test(key) || key.includes("..")) throw new Error(`Invalid storage key: ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, data: Buffer): Promise<void> {
    const file = this.resolve(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Write then rename, so a reader never sees half a file.
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await fs.writeFile(temp, data);
    await fs.rename(temp, file);
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
}

export function getFileStore(): FileStore {
  return new LocalFileStore(path.join(config.dataDir, "blobs"));
}
