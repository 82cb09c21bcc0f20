import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { setUpTestDatabase } from "../helpers/database";
import { deckSource } from "../helpers/decks";

// @deckhand/client as someone outside this repository gets it: built (tsc), packed, installed from the
// tarball into a scratch project (offline: its one dependency comes from npm's cache), type-checked there
// with a deliberate unknown body field that must be a type error, and run against the app on loopback.

const run = promisify(execFile);
const root = path.resolve(".");
const packageDir = path.join(root, "packages/client");
const tsc = path.join(root, "node_modules/.bin/tsc");

let server: AppServer;
let user: TestUser;
let scratch: string;

beforeAll(async () => {
  await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  user = await createUser();
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-client-scratch-"));
});

afterAll(async () => {
  delete process.env.APP_URL;
  await server.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const program = `
import { createDeckhandClient, DeckhandError, unwrap, type Deck, type Body } from "@deckhand/client";

declare const process: { env: Record<string, string | undefined> };

const client = createDeckhandClient({ baseUrl: process.env.DECKHAND_URL!, apiKey: process.env.DECKHAND_KEY! });
const { api } = client;

// Never called: it only has to fail the type check where the comment says so.
export function typeErrors(id: string) {
  // @ts-expect-error "colour" is not a field of create_deck's body
  void api.POST("/decks", { body: { title: "x", colour: "red" } });
  // @ts-expect-error "formats" is not a field of create_export's body
  const body: Body<"/decks/{id}/exports", "post"> = { format: "pdf", formats: ["pdf"] };
  // @ts-expect-error "page" is not a query parameter of list_decks
  void api.GET("/decks", { params: { query: { page: 2 } } });
  // @ts-expect-error set_deck_content needs the deck's id in its path
  void api.PUT("/decks/{id}/content", { body: { source: "" } });
  void client.exportDeck(id, body);
}

const deck: Deck = unwrap(await api.POST("/decks", { body: { title: "From the package" } }));
const written = unwrap(
  await api.PUT("/decks/{id}/content", { params: { path: { id: deck.id } }, body: { source: process.env.SOURCE! } }),
);
let notFound: { status: number; code: string } | undefined;
try {
  unwrap(await api.GET("/decks/{id}", { params: { path: { id: "00000000-0000-4000-8000-000000000000" } } }));
} catch (error) {
  if (error instanceof DeckhandError) notFound = { status: error.status, code: error.code };
}
const done = await client.exportDeck(deck.id, { format: "pdf" });
const raw = await api.GET("/exports/{id}/download", { params: { path: { id: done.id } } });
const link = await client.exportDownloadUrl(done.id);
const file = await client.downloadExport(done.id);
console.log(
  JSON.stringify({
    deck: deck.title,
    version: written.version,
    notFound,
    export: done.status,
    raw: { status: raw.response.status, location: raw.response.headers.get("location") },
    link,
    file: { type: file.contentType, head: new TextDecoder().decode(file.bytes.slice(0, 5)) },
  }),
);
`;

describe("@deckhand/client as an installed package", () => {
  it("builds, installs from its tarball, type-checks exactly and runs against the API", async () => {
    // Build and pack (the tarball holds dist/ and the README, nothing of the repository).
    await run(tsc, ["-p", path.join(packageDir, "tsconfig.json")]);
    const { stdout: packed } = await run(
      "npm",
      ["pack", packageDir, "--ignore-scripts", "--json", "--pack-destination", scratch],
      { cwd: scratch },
    );
    const [tarball] = JSON.parse(packed) as { filename: string; files: { path: string }[] }[];
    const files = tarball!.files.map((f) => f.path).sort();
    expect(files).toEqual(expect.arrayContaining(["README.md", "dist/index.d.ts", "dist/index.js", "package.json"]));
    expect(files.every((f) => !f.startsWith("src/"))).toBe(true);

    fs.writeFileSync(
      path.join(scratch, "package.json"),
      JSON.stringify({ name: "scratch", private: true, type: "module" }, null, 2),
    );
    // Its dependency (openapi-fetch and its helpers) is packed from this repository's node_modules, so the
    // install needs no registry at all.
    const dependencies: string[] = [];
    for (const name of ["openapi-fetch", "openapi-typescript-helpers"]) {
      const { stdout } = await run(
        "npm",
        ["pack", path.join(root, "node_modules", name), "--ignore-scripts", "--json", "--pack-destination", scratch],
        { cwd: scratch },
      );
      dependencies.push(path.join(scratch, (JSON.parse(stdout) as { filename: string }[])[0]!.filename));
    }
    await run(
      "npm",
      [
        "install",
        "--offline",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        ...dependencies,
        path.join(scratch, tarball!.filename),
      ],
      { cwd: scratch },
    );
    expect(fs.existsSync(path.join(scratch, "node_modules/@deckhand/client/dist/index.d.ts"))).toBe(true);

    fs.writeFileSync(path.join(scratch, "index.ts"), program);
    fs.writeFileSync(
      path.join(scratch, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2022", "DOM", "DOM.Iterable"],
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          types: [],
          outDir: "out",
        },
        files: ["index.ts"],
      }),
    );
    // The type check: any error (an unused @ts-expect-error among them) fails it with tsc's message.
    await run(tsc, ["-p", path.join(scratch, "tsconfig.json")], { cwd: scratch }).catch((error: { stdout: string }) => {
      throw new Error(`tsc failed in the scratch project:\n${error.stdout}`);
    });

    const { stdout } = await run(process.execPath, [path.join(scratch, "out/index.js")], {
      cwd: scratch,
      env: {
        NODE_ENV: "production",
        PATH: process.env.PATH,
        DECKHAND_URL: `${server.origin}/api/v1`,
        DECKHAND_KEY: user.key,
        SOURCE: deckSource(["Packaged"]),
      },
    });
    const result = JSON.parse(stdout.trim().split("\n").at(-1)!);
    expect(result).toMatchObject({
      deck: "From the package",
      version: 1,
      notFound: { status: 404, code: "not_found" },
      export: "completed",
      raw: { status: 302, location: expect.stringMatching(new RegExp(`^${server.origin}/files/`)) },
      link: expect.stringMatching(new RegExp(`^${server.origin}/files/`)),
      file: { type: "application/pdf", head: "%PDF-" },
    });
  }, 180_000);
});
