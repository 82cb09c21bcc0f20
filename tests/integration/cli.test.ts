import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, openPglite } from "@/lib/db/client";
import { acquireDataDirLock } from "@/lib/db/pglite-lock";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import { decks } from "@/lib/db/schema/decks";
import type { Db } from "@/lib/db/types";

const run = promisify(execFile);
const tsx = path.resolve("node_modules/.bin/tsx");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-cli-"));
// On PostgreSQL runs the CLI uses the server; otherwise its own embedded database in a temp DATA_DIR.
const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: process.env.TEST_DATABASE_URL ?? "" };

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function keys(...args: string[]) {
  return run(tsx, ["--conditions=react-server", "scripts/keys.ts", ...args], { env, cwd: process.cwd() });
}

describe("the keys CLI", () => {
  it("creates a user, an organization and a key printed alone on the last line; revokes it", async () => {
    const org = `CLI Org ${Date.now()}`;
    const first = await keys("create", "--email", "Dana@Example.test", "--org", org, "--name", "laptop");
    const key = first.stdout.trim().split("\n").at(-1)!;
    expect(key).toMatch(/^dk_[0-9A-Za-z]{43}$/);
    expect(first.stderr).toMatch(/\(new\)/);

    const second = await keys("create", "--email", "eli@example.test", "--org", org);
    expect(second.stderr).not.toMatch(/\(new\)/);
    const orgOf = (stderr: string) => /organization ([0-9a-f-]{36})/.exec(stderr)![1];
    expect(orgOf(second.stderr)).toBe(orgOf(first.stderr));

    expect((await keys("revoke", key)).stdout).toMatch(/Revoked/);
    await expect(keys("revoke", key)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/No active key/),
    });
  }, 60_000);

  it("sets, shows and unsets an organization's monthly allowance", async () => {
    const org = `Allowance Org ${Date.now()}`;
    await keys("create", "--email", "ally@example.test", "--org", org);
    const allowance = (...args: string[]) =>
      run(tsx, ["--conditions=react-server", "scripts/allowance.ts", ...args], { env, cwd: process.cwd() });
    const set = await allowance("set", "--org", org, "--feature", "ai_generations", "--limit", "7");
    expect(set.stdout).toContain(`${org}\tai_generations\t0/7`);
    expect(set.stdout).toContain(`${org}\tversion_edits\t0/1000`);
    const unset = await allowance("unset", "--org", org, "--feature", "ai_generations");
    expect(unset.stdout).toContain(`${org}\tai_generations\t0/200`);
    await expect(allowance("set", "--org", org, "--feature", "pixels", "--limit", "1")).rejects.toMatchObject({
      stderr: expect.stringMatching(/--feature must be one of/),
    });
  }, 60_000);

  it("explains its usage when the email is missing", async () => {
    await expect(keys("create", "--org", "x")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/Usage/),
    });
  }, 30_000);

  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    "fails fast with a clear message while another process holds the embedded database",
    async () => {
      const lockedDir = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-locked-"));
      const release = acquireDataDirLock(lockedDir);
      try {
        await expect(
          run(tsx, ["--conditions=react-server", "scripts/keys.ts", "create", "--email", "f@example.test"], {
            env: { ...env, DATA_DIR: lockedDir },
          }),
        ).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/in use by another process \(pid \d+\)/) });
      } finally {
        release();
        fs.rmSync(lockedDir, { recursive: true, force: true });
      }
    },
    30_000,
  );
});

describe("the import CLI", () => {
  const importFile = (...args: string[]) =>
    run(tsx, ["--conditions=react-server", "scripts/import.ts", ...args], { env, cwd: process.cwd() });

  it("imports a Markdown file as a deck of the member's organization and prints its id on the last line", async () => {
    const org = `Import Org ${Date.now()}`;
    await keys("create", "--email", "ida@example.test", "--org", org);
    const file = path.join(dataDir, "talk.md");
    fs.writeFileSync(file, "# Field notes\n\n## Why\n\n- Decks take too long\n- Briefs are everywhere\n");
    const imported = await importFile(
      file,
      "--email",
      "IDA@example.test",
      "--org",
      org,
      "--title",
      "From the CLI",
      "--public",
    );
    const id = imported.stdout.trim().split("\n").at(-1)!;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(imported.stderr).toContain(`Imported "From the CLI" into ${org}: `);
    expect(imported.stderr).toMatch(/shared at \S+\/d\/[0-9a-z]+/);

    // The deck and its first version are in the database the CLI wrote to.
    await withCliDatabase(async (db) => {
      const [deck] = await db.select().from(decks).where(eq(decks.id, id));
      expect(deck).toMatchObject({ title: "From the CLI", format: "slides", visibility: "public", versionCount: 1 });
      const versions = await db.select().from(deckVersions).where(eq(deckVersions.deckId, id));
      expect(versions.map((version) => [version.version, version.prompt, version.outline])).toEqual([
        [1, "Imported from Markdown", ["Cover", "Why", "Thank you"]],
      ]);
    });
  }, 90_000);

  it("refuses a file it cannot read, a missing file and a person outside the organization; saves nothing", async () => {
    const org = `Import Refusals ${Date.now()}`;
    const created = await keys("create", "--email", "rae@example.test", "--org", org);
    const organizationId = /organization ([0-9a-f-]{36})/.exec(created.stderr)![1]!;
    const broken = path.join(dataDir, "broken.md");
    fs.writeFileSync(broken, "---\ntitle: [unclosed\n---\n\n# Deck\n");
    await expect(importFile(broken, "--email", "rae@example.test")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^invalid_request: Line \d+: the front matter is not valid YAML/),
    });
    await expect(importFile(path.join(dataDir, "absent.md"), "--email", "rae@example.test")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/absent\.md: no such file/),
    });
    await expect(importFile(broken, "--email", "rae@example.test", "--org", "Not Hers")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/rae@example\.test is not a member of an organization named "Not Hers"/),
    });
    await withCliDatabase(async (db) => {
      expect(await db.select().from(decks).where(eq(decks.organizationId, organizationId))).toEqual([]);
    });
  }, 90_000);
});

/** The database the CLIs write to, opened once they have let go of it (PGlite takes one process at a time). */
async function withCliDatabase(check: (db: Db) => Promise<void>): Promise<void> {
  const database = process.env.TEST_DATABASE_URL
    ? await openDatabase(process.env.TEST_DATABASE_URL)
    : await openPglite(path.join(dataDir, "pglite"));
  try {
    await check(database.db);
  } finally {
    await database.close();
  }
}
