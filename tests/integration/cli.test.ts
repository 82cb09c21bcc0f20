import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Database, openPglite } from "@/lib/db/client";
import { acquireDataDirLock } from "@/lib/db/pglite-lock";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import { decks } from "@/lib/db/schema/decks";
import { currentPeriod } from "@/lib/usage/features";
import { allowance } from "../../scripts/cli/allowance";
import { importMarkdown } from "../../scripts/cli/import";
import { keys } from "../../scripts/cli/keys";
import { type CliCommand, execute } from "../../scripts/cli/run";
import { setUpTestDatabase } from "../helpers/database";

// The command-line scripts (scripts/keys.ts, allowance.ts, import.ts). Their commands (scripts/cli/) run in
// process on the suite's database, through the same runner the entry scripts use; one spawned run per entry
// script proves the wiring (arguments, stdout, stderr, exit code, the database of DATA_DIR / DATABASE_URL),
// and one more that a second process is refused the embedded database another holds.

let database: Database;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-cli-"));

beforeAll(async () => {
  database = await setUpTestDatabase();
});

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

type CliRun = { code: number; stdout: string; stderr: string; openedDatabase: boolean };

/** Runs a command in process as its script would: the lines it writes, its exit code and whether it opened
 *  the database. */
async function cli(command: CliCommand, ...args: string[]): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  let openedDatabase = false;
  const code = await execute(command, args, {
    out: (line) => (stdout += `${line}\n`),
    err: (line) => (stderr += `${line}\n`),
    db: async () => {
      openedDatabase = true;
      return database.db;
    },
  });
  return { code, stdout, stderr, openedDatabase };
}

const lastLine = (text: string) => text.trim().split("\n").at(-1)!;
const organizationOf = (stderr: string) => /organization ([0-9a-f-]{36})/.exec(stderr)![1]!;

describe("the keys CLI", () => {
  it("creates a user, an organization and a key printed alone on the last line; revokes it", async () => {
    const org = `CLI Org ${Date.now()}`;
    const first = await cli(keys, "create", "--email", "Dana@Example.test", "--org", org, "--name", "laptop");
    expect(first.code).toBe(0);
    const key = lastLine(first.stdout);
    expect(key).toMatch(/^dk_[0-9A-Za-z]{43}$/);
    expect(first.stdout).toBe(`${key}\n`);
    expect(first.stderr).toMatch(
      new RegExp(
        `^Created key dk_\\w+… for dana@example\\.test in organization [0-9a-f-]{36} \\(new\\)\\. It is shown once; store it now\\.\\n$`,
      ),
    );

    const second = await cli(keys, "create", "--email", "eli@example.test", "--org", org);
    expect(second.code).toBe(0);
    expect(second.stderr).not.toMatch(/\(new\)/);
    expect(organizationOf(second.stderr)).toBe(organizationOf(first.stderr));

    expect(await cli(keys, "revoke", key)).toMatchObject({ code: 0, stdout: "Revoked.\n", stderr: "" });
    expect(await cli(keys, "revoke", key)).toMatchObject({
      code: 1,
      stdout: "",
      stderr: "No active key matches; it may be unknown or already revoked.\n",
    });
  });

  it("explains its usage, opening no database, when the email, the key or the command is missing", async () => {
    expect(await cli(keys, "create", "--org", "x")).toEqual({
      code: 1,
      stdout: "",
      stderr: "Usage: npm run --silent keys:create -- --email <email> [--org <name>] [--name <label>]\n",
      openedDatabase: false,
    });
    expect(await cli(keys, "revoke")).toEqual({
      code: 1,
      stdout: "",
      stderr: "Usage: npm run --silent keys:revoke -- <key>\n",
      openedDatabase: false,
    });
    expect(await cli(keys)).toEqual({
      code: 1,
      stdout: "",
      stderr: "Usage: keys.ts create --email <email> [--org <name>] [--name <label>] | keys.ts revoke <key>\n",
      openedDatabase: false,
    });
    expect(await cli(keys, "create", "--email", "x@example.test", "--colour", "red")).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^Unknown option '--colour'/),
      openedDatabase: false,
    });
  });
});

describe("the allowance CLI", () => {
  it("sets, shows and unsets an organization's monthly allowance", async () => {
    const org = `Allowance Org ${Date.now()}`;
    const created = await cli(keys, "create", "--email", "ally@example.test", "--org", org);
    const period = currentPeriod();
    const set = await cli(allowance, "set", "--org", org, "--feature", "ai_generations", "--limit", "7");
    expect(set).toMatchObject({ code: 0, stderr: "" });
    expect(set.stdout).toBe(
      `${org}\tversion_edits\t0/1000\t${period}\n${org}\tai_generations\t0/7\t${period}\n` +
        `${org}\tbrand_extractions\t0/50\t${period}\n`,
    );
    // By id as well as by name.
    expect((await cli(allowance, "show", "--org", organizationOf(created.stderr))).stdout).toBe(set.stdout);
    const unset = await cli(allowance, "unset", "--org", org, "--feature", "ai_generations");
    expect(unset.code).toBe(0);
    expect(unset.stdout).toContain(`${org}\tai_generations\t0/200\t${period}\n`);
  });

  it("refuses an unknown feature, a bad limit, a missing organization and bad usage", async () => {
    const refused = (stderr: string, openedDatabase: boolean) => ({ code: 1, stdout: "", stderr, openedDatabase });
    expect(await cli(allowance, "set", "--org", "Acme", "--feature", "pixels", "--limit", "1")).toEqual(
      refused("--feature must be one of: version_edits, ai_generations, brand_extractions\n", false),
    );
    expect(await cli(allowance, "set", "--org", "Acme", "--feature", "ai_generations", "--limit", "1.5")).toEqual(
      refused("--limit must be a whole number ≥ 0\n", false),
    );
    expect(await cli(allowance, "show")).toEqual(
      refused("Usage: allowance set|unset|show --org <name or id> [--feature <feature>] [--limit <n>]\n", false),
    );
    expect(await cli(allowance, "show", "--org", "Nobody's Org")).toEqual(
      refused(`No organization named or with the id "Nobody's Org".\n`, true),
    );
  });
});

describe("the import CLI", () => {
  it("imports a Markdown file as a deck of the member's organization and prints its id on the last line", async () => {
    const org = `Import Org ${Date.now()}`;
    await cli(keys, "create", "--email", "ida@example.test", "--org", org);
    const file = path.join(dataDir, "talk.md");
    fs.writeFileSync(file, "# Field notes\n\n## Why\n\n- Decks take too long\n- Briefs are everywhere\n");
    const imported = await cli(
      importMarkdown,
      file,
      "--email",
      "IDA@example.test",
      "--org",
      org,
      "--title",
      "From the CLI",
      "--public",
    );
    expect(imported.code).toBe(0);
    const id = lastLine(imported.stdout);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(imported.stdout).toBe(`${id}\n`);
    expect(imported.stderr).toMatch(
      new RegExp(`^Imported "From the CLI" into ${org}: \\S+/decks/${id}, shared at \\S+/d/[0-9a-z]+\\n$`),
    );

    // The deck and its first version are in the database.
    const [deck] = await database.db.select().from(decks).where(eq(decks.id, id));
    expect(deck).toMatchObject({ title: "From the CLI", format: "slides", visibility: "public", versionCount: 1 });
    const versions = await database.db.select().from(deckVersions).where(eq(deckVersions.deckId, id));
    expect(versions.map((version) => [version.version, version.prompt, version.outline])).toEqual([
      [1, "Imported from Markdown", ["Cover", "Why", "Thank you"]],
    ]);
  });

  it("refuses a file it cannot read, a missing file and a person outside the organization; saves nothing", async () => {
    const org = `Import Refusals ${Date.now()}`;
    const created = await cli(keys, "create", "--email", "rae@example.test", "--org", org);
    const broken = path.join(dataDir, "broken.md");
    fs.writeFileSync(broken, "---\ntitle: [unclosed\n---\n\n# Deck\n");
    expect(await cli(importMarkdown, broken, "--email", "rae@example.test")).toMatchObject({
      code: 1,
      stdout: "",
      stderr: expect.stringMatching(/^invalid_request: Line \d+: the front matter is not valid YAML/),
    });
    const absent = path.join(dataDir, "absent.md");
    expect(await cli(importMarkdown, absent, "--email", "rae@example.test")).toEqual({
      code: 1,
      stdout: "",
      stderr: `${absent}: no such file.\n`,
      openedDatabase: false,
    });
    const fine = path.join(dataDir, "fine.md");
    fs.writeFileSync(fine, "# Deck\n\n## One\n");
    expect(await cli(importMarkdown, fine, "--email", "rae@example.test", "--org", "Not Hers")).toMatchObject({
      code: 1,
      stdout: "",
      stderr:
        'rae@example.test is not a member of an organization named "Not Hers"; sign up in the app or run keys:create first.\n',
    });
    expect(await cli(importMarkdown, fine, "--email", "nobody@example.test")).toMatchObject({
      code: 1,
      stderr: "nobody@example.test is not a member of any organization; sign up in the app or run keys:create first.\n",
    });
    expect(await cli(importMarkdown, "--email", "rae@example.test")).toMatchObject({
      code: 1,
      stderr:
        "Usage: npm run --silent import -- <file.md> --email <email> [--org <name>] [--title <title>] [--public]\n",
      openedDatabase: false,
    });
    const organizationId = organizationOf(created.stderr);
    expect(await database.db.select().from(decks).where(eq(decks.organizationId, organizationId))).toEqual([]);
  });
});

describe("the entry scripts", () => {
  const run = promisify(execFile);
  const tsx = path.resolve("node_modules/.bin/tsx");
  // On PostgreSQL runs a script uses the server; otherwise its own embedded database in a temp DATA_DIR.
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: process.env.TEST_DATABASE_URL ?? "" };
  const script = (name: string, ...args: string[]) =>
    run(tsx, ["--conditions=react-server", `scripts/${name}`, ...args], { env, cwd: process.cwd() });

  // On PGlite the scripts' DATA_DIR starts as a copy of the migrated template, as the suites' databases do,
  // so no script spends its run creating and migrating one (the end-to-end servers' first keys:create does).
  beforeAll(async () => {
    if (process.env.TEST_DATABASE_URL) return;
    const template = new Blob([fs.readFileSync(inject("pgliteTemplate"))]);
    await (await openPglite(path.join(dataDir, "pglite"), { loadDataDir: template })).close();
  });

  it("run their command on the process: a key, an organization's allowances, an imported deck", async () => {
    const org = `Script Org ${Date.now()}`;
    const created = await script("keys.ts", "create", "--email", "sam@example.test", "--org", org);
    expect(lastLine(created.stdout)).toMatch(/^dk_[0-9A-Za-z]{43}$/);
    expect(created.stderr).toMatch(/^Created key dk_\w+… for sam@example\.test in organization .+ \(new\)\./);

    const shown = await script("allowance.ts", "show", "--org", org);
    expect(shown.stdout).toMatch(new RegExp(`^${org}\\tversion_edits\\t0/1000\\t\\d{4}-\\d{2}\\n`));
    expect(shown.stdout.trim().split("\n")).toHaveLength(3);

    const file = path.join(dataDir, "script.md");
    fs.writeFileSync(file, "# From a script\n\n## One\n");
    // The import script ends its process itself (its worker threads would keep it alive): it must return.
    const imported = await script("import.ts", file, "--email", "sam@example.test");
    expect(lastLine(imported.stdout)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(imported.stderr).toContain(`Imported "From a script" into ${org}: `);
  }, 120_000);

  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    "fail fast with a clear message while another process holds the embedded database",
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
