import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema/api-keys";
import { exports } from "@/lib/db/schema/exports";
import { type FileStore, getFileStore, LocalFileStore, VercelBlobFileStore } from "@/lib/storage/storage";
import { call, createUser } from "../helpers/api";
import { dispatch } from "../helpers/app-router";
import { type BlobServer, startBlobServer } from "../helpers/blob-server";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, deckSource, setContent } from "../helpers/decks";

// One contract for both file stores: local files (DATA_DIR/blobs) and Vercel Blob through the SDK,
// against tests/helpers/blob-server.ts (the Blob HTTP API on loopback). Downloads from either are the
// app's signed, expiring /files/ links; a Blob file is private, so its own URL gives nothing away.

let database: Database;
let blobServer: BlobServer;
let dataDir: string;

beforeAll(async () => {
  database = await setUpTestDatabase();
  blobServer = await startBlobServer();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-files-"));
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await blobServer?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const stores: { name: string; use: () => void }[] = [
  {
    name: "local files",
    use: () => {
      vi.stubEnv("BLOB_READ_WRITE_TOKEN", "");
      vi.stubEnv("DATA_DIR", dataDir);
    },
  },
  {
    name: "Vercel Blob",
    use: () => {
      vi.stubEnv("BLOB_READ_WRITE_TOKEN", blobServer.token);
      vi.stubEnv("VERCEL_BLOB_API_URL", blobServer.apiUrl);
    },
  },
];

// Follows a download link the way a browser does: through the app's /files route.
const open = (url: string) => dispatch(new Request(url));

describe.each(stores)("the file store contract: $name", ({ name, use }) => {
  let store: FileStore;
  const folder = `contract-${randomUUID()}`;

  beforeAll(() => {
    use();
    vi.stubEnv("APP_URL", "http://localhost:3000");
    store = getFileStore();
    expect(store).toBeInstanceOf(name === "Vercel Blob" ? VercelBlobFileStore : LocalFileStore);
  });

  it("reads back what it stored, with its type, by the locator put returned", async () => {
    const pdf = Buffer.from("%PDF-1.7 contract");
    const locator = await store.put(`exports/${folder}.pdf`, pdf, "application/pdf");
    expect(await store.get(locator)).toEqual({ data: pdf, contentType: "application/pdf" });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const image = await store.get(await store.put(`assets/${folder}.png`, png, "image/png"));
    expect(image).toEqual({ data: png, contentType: "image/png" });
  });

  it("finds fixed-key preview images by key, overwrites them, and answers null for a missing file", async () => {
    const key = `og/${folder}/v1.png`;
    await store.put(key, Buffer.from("first"), "image/png");
    await store.put(key, Buffer.from("second"), "image/png");
    expect((await store.get(key))?.data.toString()).toBe("second");
    expect(await store.get(`og/${folder}/v2.png`)).toBeNull();
  });

  it("deletes one file, and every file under a prefix and nothing else", async () => {
    const gone = await store.put(`exports/${folder}-gone.pdf`, Buffer.from("x"), "application/pdf");
    await store.delete(gone);
    expect(await store.get(gone)).toBeNull();

    const kept = await store.put(`og/${folder}-kept/v1.png`, Buffer.from("kept"), "image/png");
    for (const n of [1, 2, 3]) await store.put(`og/${folder}-swept/v${n}.png`, Buffer.from(String(n)), "image/png");
    await store.deletePrefix(`og/${folder}-swept/`);
    for (const n of [1, 2, 3]) expect(await store.get(`og/${folder}-swept/v${n}.png`)).toBeNull();
    expect((await store.get(kept))?.data.toString()).toBe("kept");
  });

  it("refuses keys that could leave its folder", async () => {
    for (const key of ["../escape.pdf", "/abs.pdf", "a//b.pdf", "exports/../x.pdf"]) {
      await expect(store.put(key, Buffer.from("x"), "application/pdf")).rejects.toThrow(/Invalid storage key/);
    }
  });

  it("downloads through a signed, expiring link to the app, saved under the given name", async () => {
    const bytes = Buffer.from("%PDF-1.7 download");
    const locator = await store.put(`exports/${folder}-dl.pdf`, bytes, "application/pdf");
    const link = await store.downloadUrl(locator, "Quarterly review-v3.pdf");
    expect(link.startsWith("http://localhost:3000/files/exports/")).toBe(true);
    const file = await open(link);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(bytes);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(file.headers.get("content-disposition")).toContain("Quarterly review-v3.pdf");
    expect(file.headers.get("cache-control")).toBe("private, no-store");

    // Another name, a changed signature, or a link past its time: refused.
    const forged = new URL(link);
    forged.searchParams.set("name", "other.pdf");
    expect((await open(forged.toString())).status).toBe(403);
    forged.searchParams.set("name", "Quarterly review-v3.pdf");
    forged.searchParams.set("signature", "A".repeat(43));
    expect((await open(forged.toString())).status).toBe(403);
    const expired = await store.downloadUrl(locator, "late.pdf", -1);
    expect((await open(expired)).status).toBe(403);
  });
});

describe("Vercel Blob keeps every file private", () => {
  beforeAll(() => {
    stores[1]!.use();
    vi.stubEnv("APP_URL", "http://localhost:3000");
  });

  it("stores private blobs under an unguessable name; their URLs answer nothing without the store's token", async () => {
    const store = getFileStore();
    const locator = await store.put("exports/secret.pdf", Buffer.from("%PDF secret"), "application/pdf");
    const blob = blobServer.blobs.get(new URL(locator).pathname.slice(1))!;
    expect(blob).toMatchObject({ access: "private", contentType: "application/pdf" });
    expect(blob.pathname).toMatch(/^exports\/secret-[A-Za-z0-9]{20}\.pdf$/);
    for (const url of [locator, `${locator}?download=1`]) expect((await fetch(url)).status).toBe(403);
    // The download link is the app's, not the store's.
    expect(new URL(await store.downloadUrl(locator, "secret.pdf")).origin).toBe("http://localhost:3000");
  });

  it("never sends its token to a host that is not the store's", async () => {
    await expect(getFileStore().get("http://127.0.0.2:9/exports/x.pdf")).rejects.toThrow(/Not a Vercel Blob URL/);
  });

  it("serves a completed export through the API: a 302 to the signed link, the bytes, nothing for outsiders", async () => {
    const owner = await createUser();
    const deck = await createDeck(owner, { title: "Blob export" });
    expect((await setContent(owner, deck.id, { source: deckSource(["One"]) })).status).toBe(200);
    const [key] = await database.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.userId, owner.userId));
    const [row] = await database.db
      .insert(exports)
      .values({
        organizationId: owner.organizationId,
        deckId: deck.id,
        version: 1,
        format: "pdf",
        requestedByUserId: owner.userId,
        requestedByKeyId: key!.id,
        fileName: "Blob export-v1.pdf",
      })
      .returning();
    const bytes = Buffer.from("%PDF-1.7 rendered export");
    const blobKey = await getFileStore().put(`exports/${row!.id}.pdf`, bytes, "application/pdf");
    await database.db
      .update(exports)
      .set({ status: "completed", blobKey, completedAt: new Date() })
      .where(eq(exports.id, row!.id));

    const res = await call("GET", `/exports/${row!.id}/download`, { key: owner.key });
    expect(res.status).toBe(302);
    const file = await open(res.headers.get("location")!);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(bytes);
    expect(file.headers.get("content-disposition")).toContain("Blob export-v1.pdf");

    const outsider = await createUser();
    expect((await call("GET", `/exports/${row!.id}/download`, { key: outsider.key })).status).toBe(404);
    expect((await fetch(blobKey)).status).toBe(403);
  });
});

describe("temporary files of the local store", () => {
  it("are swept once stale (a write a killed process never finished); younger ones, and stored files, are kept", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-sweep-"));
    const store = new LocalFileStore(root);
    await store.put("assets/kept.png", Buffer.from("stored"));
    fs.mkdirSync(path.join(root, "exports"));
    const stale = path.join(root, "assets", "lost.png.4242.1700000000000.tmp");
    const young = path.join(root, "exports", "writing.pdf.4343.1700000000000.tmp");
    fs.writeFileSync(stale, "half a file");
    fs.writeFileSync(young, "another instance's write in progress");
    const tenMinutesAgo = new Date(Date.now() - 10 * 60 * 1000);
    fs.utimesSync(stale, tenMinutesAgo, tenMinutesAgo);

    expect(await store.sweepTemporaryFiles()).toBe(1);
    expect([fs.existsSync(stale), fs.existsSync(young)]).toEqual([false, true]);
    expect((await store.get("assets/kept.png"))?.data.toString()).toBe("stored");
    fs.rmSync(root, { recursive: true, force: true });
  });
});
