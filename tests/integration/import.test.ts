import fs from "node:fs";
import net from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { brands } from "@/lib/db/schema/brands";
import { allowances, usage } from "@/lib/db/schema/usage";
import { call, createUser, type TestUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { type ImageHost, serveImageHost } from "../helpers/image-fixtures";

// POST /decks/import: a Markdown deck becomes a deck and its first version in one call, or nothing at all.

let database: Database;
let host: ImageHost;
let slidev: string;
let marp: string;

// The samples' images (http://localhost:8799/…) are imported when the version is written: they are served
// from a loopback port, which FETCH_ALLOW_HOSTS lets the safe fetcher reach.
beforeAll(async () => {
  database = await setUpTestDatabase();
  const images = "tests/fixtures/samples/images";
  host = await serveImageHost(
    Object.fromEntries(
      fs
        .readdirSync(images)
        .map((file) => [`/${file}`, { body: fs.readFileSync(`${images}/${file}`), type: "image/png" }]),
    ),
  );
  process.env.FETCH_ALLOW_HOSTS = "localhost";
  const sample = (file: string) =>
    fs.readFileSync(`tests/fixtures/samples/${file}`, "utf8").replaceAll("http://localhost:8799", host.origin);
  slidev = sample("slidev-deck.md");
  marp = sample("marp-deck.md");
});

afterAll(async () => {
  delete process.env.FETCH_ALLOW_HOSTS;
  await host?.close();
});

async function deckCount(user: TestUser): Promise<number> {
  const res = await call("GET", "/decks", { key: user.key });
  return (res.body as unknown[]).length;
}

describe("POST /decks/import", () => {
  it("creates a slides deck and its first version from a Slidev deck, consuming one version edit", async () => {
    const user = await createUser();
    const res = await call("POST", "/decks/import", {
      key: user.key,
      body: { markdown: slidev, visibility: "public" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ format: "slides", visibility: "public", warnings: [] });
    expect(res.body.title).toBe("Designing a rate limiter");
    expect(res.body.publicUrl).toMatch(/\/d\/[0-9a-z]+$/);
    const version = await call("GET", `/decks/${res.body.id}/versions/1`, { key: user.key });
    expect(version.body.prompt).toBe("Imported from Markdown");
    expect(version.body.outline.length).toBeGreaterThanOrEqual(8);
    expect(version.body.source).toContain("<Code");
    expect(version.body.source).toContain("<Table");
    expect((await call("GET", `/decks/${res.body.id}`, { key: user.key })).body.versionCount).toBe(1);
    const used = await database.db.select().from(usage).where(eq(usage.organizationId, user.organizationId));
    expect(used.filter((row) => row.featureId === "version_edits").map((row) => row.used)).toEqual([1]);
  });

  it("takes the title it is given, and a Marp deck's comments as notes", async () => {
    const user = await createUser();
    const res = await call("POST", "/decks/import", { key: user.key, body: { markdown: marp, title: "Build times" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: "Build times", visibility: "private", publicUrl: null });
    const version = await call("GET", `/decks/${res.body.id}/versions/1`, { key: user.key });
    expect(version.body.source).toMatch(/notes=/);
    expect(version.body.source).not.toContain("<!--");
  });

  it("styles the deck with a brand of the organization: its tokens go into the first version", async () => {
    const user = await createUser();
    const [brand] = await database.db
      .insert(brands)
      .values({
        organizationId: user.organizationId,
        name: "Acme",
        sourceUrl: "https://acme.test",
        data: { tokensCss: ":root { --color-primary: #e4002b; }" },
      })
      .returning();
    const res = await call("POST", "/decks/import", {
      key: user.key,
      body: { markdown: "# Acme update\n\n## Plan\n\n- Ship it\n- Tell people", brandId: brand!.id },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ title: "Acme update", brandId: brand!.id });
    const detail = await call("GET", `/decks/${res.body.id}`, { key: user.key });
    expect(detail.body.versionCount).toBe(1);
    expect(detail.body.latestVersion.tokensCss).toContain("#e4002b");
    expect(detail.body.latestVersion.outline).toEqual(["Cover", "Plan", "Thank you"]);
  });

  it("imports a deck whose images cannot be fetched: placeholders in their places, a warning for each (issue 35, item 3)", async () => {
    const user = await createUser();
    // A loopback port nothing listens on, a refused address, a 404, a page that is not an image.
    const closed = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const urls = {
      closed: `http://localhost:${closed}/chart.png`,
      refused: `${host.canaryOrigin}/secret.png`,
      missing: `${host.origin}/missing.png`,
      page: `${host.origin}/page.html`,
    };
    const markdown = [
      "---\nmarp: true\n---\n\n# Imported anyway",
      `## Closed port\n\n![The weekly chart](${urls.closed})`,
      `## Refused address\n\n![A secret](${urls.refused})`,
      `![bg right:40%](${urls.missing})\n\n## Beside the text\n\n- The words stay`,
      `![bg](${urls.page})\n\n## Behind the text\n\n- Still here`,
      `## A good one\n\n![Build times](${host.origin}/build-times.png)`,
    ].join("\n\n---\n\n");
    const requestsBefore = host.requests.length;
    const res = await call("POST", "/decks/import", { key: user.key, body: { markdown } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.warnings).toEqual([
      { kind: "image-not-imported", slide: "Closed port", message: expect.stringContaining(urls.closed) },
      { kind: "image-not-imported", slide: "Refused address", message: expect.stringContaining(urls.refused) },
      { kind: "image-not-imported", slide: "Beside the text", message: expect.stringContaining(urls.missing) },
      { kind: "image-not-imported", slide: "Behind the text", message: expect.stringContaining(urls.page) },
    ]);
    expect(res.body.warnings[1].message).toMatch(/not at a public address/);
    expect(res.body.warnings[2].message).toMatch(/answered 404.*placeholder/);
    expect(res.body.warnings[3].message).toMatch(/not an image.*without its background/);
    expect(host.canaryRequests).toEqual([]);
    // Each picture is fetched once: the check before the write hands its bodies to the write.
    expect(host.requests.slice(requestsBefore).filter((path) => path === "/build-times.png")).toEqual([
      "/build-times.png",
    ]);
    const version = await call("GET", `/decks/${res.body.id}/versions/1`, { key: user.key });
    const source = version.body.source as string;
    for (const url of Object.values(urls)) expect(source).not.toContain(url);
    // Each picture keeps its place and alt text with no address: the player draws its placeholder.
    expect(source).toContain('<Image src="" alt="The weekly chart"');
    expect(source).toContain('<Image src="" alt="A secret"');
    expect(source).toMatch(/image=""\s+imageSide="right"/);
    expect(source).toContain(`${host.origin}/build-times.png`);
    expect(version.body.compiledJs).toMatch(/\/assets\/[0-9a-f]{64}\.png/);
  });

  it("refuses what it cannot take with a 422 naming the problem, and saves nothing", async () => {
    const user = await createUser();
    const refusals: Array<[unknown, RegExp]> = [
      [{ markdown: "   " }, /markdown: must not be empty/],
      [{ markdown: "x".repeat(1024 * 1024 + 1) }, /at most 1 MB/],
      [{ markdown: "# Hi", extra: true }, /extra/],
      [{ markdown: "---\ntitle: [unclosed\n---\n\n# Deck\n" }, /^Line \d+/],
      [{ markdown: "# Deck", visibility: "everyone" }, /visibility/],
    ];
    for (const [body, message] of refusals) {
      const res = await call("POST", "/decks/import", { key: user.key, body });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.error.message).toMatch(message);
    }
    const otherOrg = await createUser();
    const brands = await call("POST", "/decks/import", {
      key: user.key,
      body: { markdown: "# Deck\n\n- one", brandId: "00000000-0000-4000-8000-000000000000" },
    });
    expect(brands.status).toBe(404);
    expect(await deckCount(user)).toBe(0);
    expect(await deckCount(otherOrg)).toBe(0);
  });

  it("answers 402 and leaves no deck behind when the month's version edits are used up", async () => {
    const user = await createUser();
    await database.db
      .insert(allowances)
      .values({ organizationId: user.organizationId, featureId: "version_edits", monthlyLimit: 0 });
    const res = await call("POST", "/decks/import", { key: user.key, body: { markdown: slidev } });
    expect(res.status).toBe(402);
    expect(await deckCount(user)).toBe(0);
  });
});
