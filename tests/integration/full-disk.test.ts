import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as live } from "@/app/api/health/route";
import { GET as ready } from "@/app/api/health/ready/route";
import { adoptDatabase, type Database, openPglite } from "@/lib/db/client";
import { type ApiResponse, call, createUser, type TestUser } from "../helpers/api";
import { createDeck, deckSource } from "../helpers/decks";
import { solidPng } from "../helpers/image-fixtures";

// A full disk (issue 34, item 12), really full: DATA_DIR on a tmpfs of its own, filled to the last byte,
// with the embedded database and the local file store in it. A version write and an image upload answer
// 507 insufficient_storage with Retry-After (not a 500); the upload leaves no temporary file; the log line
// names the cause and holds none of the deck's source; readiness says 503 while liveness stays 200; and
// once there is room again everything works. Needs root to mount the tmpfs; skipped elsewhere.

const disk = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-full-disk-"));
const mounted = (() => {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=96m", "tmpfs", disk], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
if (!mounted) fs.rmSync(disk, { recursive: true });
const filler = path.join(disk, "filler");

// Takes every byte left on the disk.
function fill() {
  const { bavail, bsize } = fs.statfsSync(disk);
  const fd = fs.openSync(filler, "a");
  try {
    fs.writeSync(fd, Buffer.alloc(Number(bavail) * Number(bsize)));
    for (;;) fs.writeSync(fd, Buffer.alloc(4096));
  } catch (error) {
    expect((error as NodeJS.ErrnoException).code).toBe("ENOSPC");
  } finally {
    fs.closeSync(fd);
  }
}

const temporaryFiles = () =>
  (fs.readdirSync(path.join(disk, "blobs"), { recursive: true }) as string[]).filter((name) => name.endsWith(".tmp"));

describe.skipIf(!mounted)("a full disk", () => {
  let database: Database;
  let user: TestUser;
  let deck: { id: string };
  const logged: string[] = [];

  beforeAll(async () => {
    vi.stubEnv("DATA_DIR", disk);
    vi.stubEnv("BLOB_READ_WRITE_TOKEN", "");
    database = await openPglite(path.join(disk, "pglite"));
    adoptDatabase(database);
    user = await createUser();
    deck = await createDeck(user);
    fs.mkdirSync(path.join(disk, "blobs"), { recursive: true });
    vi.spyOn(process.stderr, "write").mockImplementation((line: unknown) => logged.push(String(line)) > 0);
  }, 120_000);

  afterAll(async () => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
    await database?.close();
    execFileSync("umount", ["-l", disk]);
    fs.rmSync(disk, { recursive: true, force: true });
  });

  const upload = async (colour: string) =>
    call("POST", "/assets", {
      key: user.key,
      rawBody: new Uint8Array(await solidPng(400, 300, colour)),
      headers: { "content-type": "image/png" },
    });
  const saveVersion = (source: string) => call("PUT", `/decks/${deck.id}/content`, { key: user.key, body: { source } });
  const expectFull = (res: ApiResponse) => {
    expect({ status: res.status, code: res.body.error.code }).toEqual({ status: 507, code: "insufficient_storage" });
    expect(res.body.error.message).toMatch(/disk is full/);
    expect(res.headers.get("retry-after")).toBe("60");
  };

  describe("while it is full", () => {
    beforeAll(fill);
    afterAll(() => fs.rmSync(filler));

    it("answers a version write 507 with Retry-After, logged with its cause and without the source", async () => {
      // A source large enough to need new pages of the table: a 300 KB comment.
      const marker = "NOT-IN-THE-LOG";
      const saved = await saveVersion(deckSource(["Full"], `// ${marker} ${"x".repeat(300_000)}`));
      const line = logged.find((entry) => entry.includes(saved.headers.get("x-request-id")!));
      expect(line).toMatch(/53100/);
      expect(line).toMatch(/No space left on device/);
      expect(line).not.toContain(marker);
      expect(line!.length).toBeLessThan(2000);
      expectFull(saved);
    });

    it("answers an image upload 507 with Retry-After and leaves no temporary file", async () => {
      const uploaded = await upload("#16a34a");
      expect(temporaryFiles()).toEqual([]);
      expectFull(uploaded);
    });

    it("is not ready (503, storage full) while liveness stays 200", async () => {
      const readiness = await ready();
      expect(readiness.status).toBe(503);
      expect(await readiness.json()).toMatchObject({ status: "unavailable", storage: "full" });
      expect(live().status).toBe(200);
    });
  });

  it("works again once there is room", async () => {
    expect((await ready()).status).toBe(200);
    expect((await saveVersion(deckSource(["Room again"]))).status).toBe(200);
    expect((await upload("#9333ea")).status).toBe(201);
    expect(temporaryFiles()).toEqual([]);
  });
});
