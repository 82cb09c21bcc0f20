import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { GET as getAsset } from "@/app/assets/[name]/route";
import { sniffImageType } from "@/lib/assets/image";
import type { Ctx } from "@/lib/auth/caller";
import type { Database } from "@/lib/db/client";
import { startFromTemplate } from "@/lib/decks/start-from-template";
import { call, createUser, type TestUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, publishDeck, setContent } from "../helpers/decks";
import { hostileSvg, type ImageHost, serveImageHost, solidJpeg, solidPng } from "../helpers/image-fixtures";

// Issue 17: the asset store through the API (upload in every form, list, delete), how assets are served,
// what is refused (by type, size, pixels, storage), remote images imported when a version is written, and
// images that outlive deletions: shared by two decks, or copied with another organization's template.

let owner: TestUser;
let colleague: TestUser;
let outsider: TestUser;
let host: ImageHost;
let photo: Buffer;
let database: Database;

beforeAll(async () => {
  database = await setUpTestDatabase();
  process.env.FETCH_ALLOW_HOSTS = "localhost";
  owner = await createUser({ org: "assets-org" });
  colleague = await createUser({ org: "assets-org" });
  outsider = await createUser();
  photo = await solidJpeg(640, 360, "#2563eb");
  host = await serveImageHost({
    "/photo.jpg": { body: photo, type: "image/jpeg" },
    "/other.png": { body: await solidPng(300, 200, "#dc2626"), type: "image/png" },
    "/template.png": { body: await solidPng(260, 160, "#0891b2"), type: "image/png" },
  });
}, 60_000);

afterAll(async () => {
  delete process.env.FETCH_ALLOW_HOSTS;
  await host?.close();
});

function upload(user: TestUser, bytes: Buffer, type = "image/png", query = "") {
  return call("POST", `/assets${query}`, {
    key: user.key,
    rawBody: new Uint8Array(bytes),
    headers: { "content-type": type },
  });
}

async function fetchAsset(url: string, headers: Record<string, string> = {}) {
  const { pathname } = new URL(url);
  const name = pathname.slice("/assets/".length);
  return getAsset(new Request(`http://localhost${pathname}`, { headers }), { params: Promise.resolve({ name }) });
}

async function assetCount(user: TestUser): Promise<number> {
  const res = await call("GET", "/assets", { key: user.key });
  expect(res.status).toBe(200);
  return res.body.length;
}

const imageDeck = (body: string) =>
  `import { Deck, Slide, Title, Image } from "@deckhand/player";
export default function Pictures() {
  return (
    <Deck>
      <Slide label="Pictures">
        <Title>Pictures</Title>
        ${body}
      </Slide>
    </Deck>
  );
}
`;

describe("uploading images", () => {
  it("stores a PNG sent as raw bytes and serves it as an immutable image with nosniff", async () => {
    const png = await solidPng(800, 450, "#0ea5e9");
    const res = await upload(owner, png, "image/png", "?alt=A%20blue%20square");
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(String),
      url: expect.stringMatching(/^http:\/\/localhost(:\d+)?\/assets\/[0-9a-f]{64}\.png$/),
      width: 800,
      height: 450,
      contentType: "image/png",
      bytes: expect.any(Number),
      alt: "A blue square",
      sourceUrl: null,
    });
    const served = await fetchAsset(res.body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(served.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(served.headers.get("access-control-allow-origin")).toBe("*");
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.length).toBe(res.body.bytes);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: "png", width: 800, height: 450 });
    // Small enough and without metadata: the file itself, not a second encoding, at the hash of its bytes.
    expect(bytes.equals(png)).toBe(true);
    expect(res.body.url).toContain(`/assets/${createHash("sha256").update(png).digest("hex")}.png`);
    const again = await fetchAsset(res.body.url, { "if-none-match": served.headers.get("etag")! });
    expect(again.status).toBe(304);
    // The path must name the stored type: the same hash with another extension is not an image here.
    expect((await fetchAsset(res.body.url.replace(/\.png$/, ".gif"))).status).toBe(404);
  });

  it("answers the same asset for the same bytes, sent raw, as multipart or as base64 JSON", async () => {
    const png = await solidPng(120, 80, "#f97316");
    const raw = await upload(owner, png);
    expect(raw.status).toBe(201);
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "orange.png");
    const multipart = await call("POST", "/assets", { key: owner.key, rawBody: form });
    expect(multipart.status, JSON.stringify(multipart.body)).toBe(201);
    const json = await call("POST", "/assets", { key: owner.key, body: { data: png.toString("base64") } });
    expect(json.status, JSON.stringify(json.body)).toBe(201);
    expect(new Set([raw.body.id, multipart.body.id, json.body.id]).size).toBe(1);
    // Another organization gets an asset of its own for the same bytes (one stored file behind both).
    const theirs = await upload(outsider, png);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(raw.body.id);
    expect(theirs.body.url).toBe(raw.body.url);
  });

  it("keeps a camera JPEG's pixels but not its EXIF: the served file has no GPS position", async () => {
    const plain = await solidJpeg(400, 300, "#7c3aed");
    const camera = await sharp(plain)
      .withExif({ IFD0: { Make: "Phone" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 12/1" } })
      .jpeg({ quality: 90 })
      .toBuffer();
    expect((await sharp(camera).metadata()).exif).toBeDefined();
    const res = await upload(owner, camera, "image/jpeg");
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ width: 400, height: 300, contentType: "image/jpeg" });
    // Addressed by the bytes received; what is served is those bytes less their metadata.
    expect(res.body.url).toContain(`/assets/${createHash("sha256").update(camera).digest("hex")}.jpg`);
    const bytes = Buffer.from(await (await fetchAsset(res.body.url)).arrayBuffer());
    expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    expect(bytes.includes(Buffer.from("Exif"))).toBe(false);
    expect(bytes.includes(Buffer.from("Phone"))).toBe(false);
    expect(bytes.length).toBeLessThan(camera.length);
    expect((await sharp(bytes).raw().toBuffer()).equals(await sharp(camera).raw().toBuffer())).toBe(true);
  });

  it("downscales a large image to what a slide needs and converts WebP", async () => {
    const big = await sharp(await solidPng(5000, 3000, "#22c55e"))
      .webp({ quality: 80 })
      .toBuffer();
    const res = await upload(owner, big, "application/octet-stream");
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ width: 3600, height: 2160, contentType: "image/jpeg" });
  });

  it("rasterises an SVG: no script, handler or external reference survives, and nothing is fetched", async () => {
    const res = await upload(owner, hostileSvg(host.canaryOrigin), "image/svg+xml");
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.contentType).toBe("image/png");
    expect(res.body.url).toMatch(/\.png$/);
    const served = await fetchAsset(res.body.url);
    expect(served.headers.get("content-type")).toBe("image/png");
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(sniffImageType(bytes)).toBe("png");
    expect(bytes.includes(Buffer.from("script"))).toBe(false);
    // Drawn: the green background and the yellow circle.
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3),
    ];
    expect(at(info.width - 5, 5)).toEqual([0x16, 0xa3, 0x4a]);
    expect(at(info.width / 2, info.height / 2)).toEqual([0xfa, 0xcc, 0x15]);
    expect(host.canaryRequests).toEqual([]);
  });

  it("refuses what is not an accepted image, judged by its bytes, and stores nothing", async () => {
    const before = await assetCount(owner);
    const text = new FormData();
    text.append("file", new Blob(["just some text, not a picture"], { type: "image/png" }), "picture.png");
    const named = await call("POST", "/assets", { key: owner.key, rawBody: text });
    expect(named.status).toBe(422);
    expect(named.body.error.code).toBe("invalid_request");
    expect(named.body.error.message).toMatch(/not an image of an accepted type/);

    const huge = await sharp({ create: { width: 10_000, height: 5_000, channels: 3, background: "#ffffff" } })
      .png()
      .toBuffer();
    const tooMany = await upload(owner, huge);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.code).toBe("payload_too_large");
    expect(tooMany.body.error.message).toMatch(/10000x5000 \(50 megapixels\).*at most 40 megapixels/);

    const jpeg = await solidJpeg(800, 600, "#a855f7");
    const truncated = await upload(owner, jpeg.subarray(0, Math.floor(jpeg.length / 2)), "image/jpeg");
    expect(truncated.status).toBe(422);
    expect(truncated.body.error.message).toMatch(/could not be decoded.*truncated or damaged/);

    const html = await upload(owner, Buffer.from("<!doctype html><script>alert(1)</script>"), "image/png");
    expect(html.status).toBe(422);

    const empty = await upload(owner, Buffer.alloc(0));
    expect(empty.status).toBe(422);
    expect(await assetCount(owner)).toBe(before);
  });

  it("refuses a file over ASSET_MAX_BYTES and an image past the organization's storage", async () => {
    process.env.ASSET_MAX_BYTES = "2048";
    try {
      const res = await upload(
        owner,
        await solidJpeg(600, 600, "#000000").then((b) => Buffer.concat([b, Buffer.alloc(4096)])),
      );
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe("payload_too_large");
    } finally {
      delete process.env.ASSET_MAX_BYTES;
    }
    const small = await createUser();
    process.env.ASSET_STORAGE_BYTES = "1000";
    try {
      const res = await upload(small, await solidPng(400, 400, "#14b8a6"));
      expect(res.status).toBe(429);
      expect(res.body.error.code).toBe("quota_exceeded");
      expect(await assetCount(small)).toBe(0);
    } finally {
      delete process.env.ASSET_STORAGE_BYTES;
    }
  });

  it("lists only the organization's assets, newest first", async () => {
    const mine = await call("GET", "/assets", { key: colleague.key });
    const theirs = await call("GET", "/assets", { key: outsider.key });
    expect(mine.body.length).toBeGreaterThan(2);
    expect(theirs.body.length).toBe(1);
    const times = mine.body.map((asset: { createdAt: string }) => Date.parse(asset.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });
});

describe("images in deck versions", () => {
  it("imports a remote image when a version is written: the module refers to the asset, the source keeps the URL", async () => {
    const deck = await createDeck(owner);
    const url = `${host.origin}/photo.jpg`;
    const source = imageDeck(`<Image src="${url}" alt="A photo" />`);
    const res = await setContent(owner, deck.id, { source });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const version = await call("GET", `/decks/${deck.id}/versions/${res.body.version}`, { key: owner.key });
    expect(version.body.source).toBe(source);
    expect(version.body.compiledJs).not.toContain(url);
    const path = /"(\/assets\/[0-9a-f]{64}\.jpg)"/.exec(version.body.compiledJs)?.[1];
    expect(path).toBeDefined();
    const assets = await call("GET", "/assets", { key: owner.key });
    const imported = assets.body.find((asset: { sourceUrl: string | null }) => asset.sourceUrl === url);
    expect(imported).toMatchObject({ width: 640, height: 360, contentType: "image/jpeg" });
    expect(new URL(imported.url).pathname).toBe(path);

    // Written again: the organization's copy is used, the URL is not fetched a second time.
    const fetched = host.requests.filter((p) => p === "/photo.jpg").length;
    const second = await setContent(owner, deck.id, { source: source.replace("Pictures</Title>", "Photos</Title>") });
    expect(second.status).toBe(200);
    expect(host.requests.filter((p) => p === "/photo.jpg").length).toBe(fetched);

    // The asset is in use: the person whose write imported it cannot delete it.
    const refused = await call("DELETE", `/assets/${imported.id}`, { key: owner.key });
    expect(refused.status).toBe(409);
  });

  it("writes uploaded assets' URLs as paths of the asset folder, and refuses another organization's", async () => {
    const png = await solidPng(200, 200, "#eab308");
    const mine = await upload(owner, png);
    const deck = await createDeck(owner);
    const res = await setContent(owner, deck.id, {
      source: imageDeck(`<Image src="${mine.body.url}" alt="Yellow" />`),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const version = await call("GET", `/decks/${deck.id}/versions/${res.body.version}`, { key: owner.key });
    expect(version.body.compiledJs).toContain(`"${new URL(mine.body.url).pathname}"`);

    const theirs = await upload(outsider, await solidPng(210, 210, "#84cc16"));
    const other = await setContent(owner, deck.id, {
      source: imageDeck(`<Image src="${theirs.body.url}" alt="Not ours" />`),
    });
    expect(other.status).toBe(422);
    expect(other.body.error.message).toContain(theirs.body.url);
    expect(other.body.error.message).toMatch(/not an image of this organization/);
  });

  it("refuses a version whose image cannot be imported, naming the URL, and saves nothing", async () => {
    const deck = await createDeck(owner);
    const first = await setContent(owner, deck.id, { source: imageDeck("") });
    expect(first.status).toBe(200);
    const before = await assetCount(owner);
    const good = `${host.origin}/other.png`;
    const cases: [string, RegExp][] = [
      [`${host.origin}/page.html`, /not an image.*text\/html/],
      [`${host.origin}/lying.png`, /not an image of an accepted type/],
      [`${host.origin}/to-canary.png`, /not at a public address/],
      [`${host.origin}/missing.png`, /answered 404/],
      ["https://169.254.169.254/latest/meta-data.png", /not at a public address/],
    ];
    for (const [url, reason] of cases) {
      const res = await setContent(owner, deck.id, {
        source: imageDeck(`<Image src="${good}" alt="Fine" /><Image src="${url}" alt="Broken" />`),
      });
      expect(res.status, url).toBe(422);
      expect(res.body.error.message).toContain(url);
      expect(res.body.error.message, url).toMatch(reason);
    }
    expect(host.canaryRequests).toEqual([]);
    const versions = await call("GET", `/decks/${deck.id}/versions`, { key: owner.key });
    expect(versions.body.length).toBe(1);
    // The good image of the refused writes was fetched but not stored.
    expect(await assetCount(owner)).toBe(before);
  });
});

describe("images in imported Markdown", () => {
  it("imports a Markdown image with the deck, and one that is not an image as a placeholder with a warning", async () => {
    const url = `${host.origin}/other.png`;
    const res = await call("POST", "/decks/import", {
      key: owner.key,
      body: { markdown: `# Pictures\n\n---\n\n## A red one\n\n![A red square](${url})\n` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const deck = await call("GET", `/decks/${res.body.id}`, { key: owner.key });
    expect(deck.body.latestVersion.source).toContain(url);
    expect(deck.body.latestVersion.compiledJs).not.toContain(url);
    expect(deck.body.latestVersion.compiledJs).toMatch(/"\/assets\/[0-9a-f]{64}\.png"/);

    // A page where a picture should be: the deck is imported without it, and the answer says so.
    const bad = `${host.origin}/page.html`;
    const kept = await call("POST", "/decks/import", {
      key: owner.key,
      body: { markdown: `# Pictures\n\n---\n\n## Not a picture\n\n![A page](${bad})\n` },
    });
    expect(kept.status, JSON.stringify(kept.body)).toBe(201);
    expect(kept.body.warnings).toEqual([
      expect.objectContaining({ kind: "image-not-imported", message: expect.stringContaining(bad) }),
    ]);
    const version = await call("GET", `/decks/${kept.body.id}/versions/1`, { key: owner.key });
    expect(version.body.source).not.toContain(bad);
    expect(version.body.source).toContain('<Image src="" alt="A page"');
  });
});

describe("deleting images", () => {
  it("lets the uploader delete an image no version shows; others get 403, a shown one stays (409)", async () => {
    const png = await solidPng(90, 90, "#be185d");
    const res = await upload(owner, png);
    expect((await call("DELETE", `/assets/${res.body.id}`, { key: colleague.key })).status).toBe(403);
    expect((await call("DELETE", `/assets/${res.body.id}`, { key: outsider.key })).status).toBe(404);

    const deck = await createDeck(owner);
    expect(
      (await setContent(owner, deck.id, { source: imageDeck(`<Image src="${res.body.url}" alt="Pink" />`) })).status,
    ).toBe(200);
    const used = await call("DELETE", `/assets/${res.body.id}`, { key: owner.key });
    expect(used.status).toBe(409);
    expect(used.body.error.code).toBe("conflict");

    // Deleting the deck removes the versions that showed it; then the image may go.
    expect((await call("DELETE", `/decks/${deck.id}`, { key: owner.key })).status).toBe(200);
    const gone = await call("DELETE", `/assets/${res.body.id}`, { key: owner.key });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    expect(gone.body).toEqual({ deleted: true });
    expect((await fetchAsset(res.body.url)).status).toBe(404);
  });

  it("keeps the stored file while another organization holds the same image", async () => {
    const png = await solidPng(70, 70, "#0f766e");
    const mine = await upload(owner, png);
    const theirs = await upload(outsider, png);
    expect((await call("DELETE", `/assets/${mine.body.id}`, { key: owner.key })).status).toBe(200);
    expect((await fetchAsset(theirs.body.url)).status).toBe(200);
  });
});

describe("images that outlive a deletion", () => {
  const ctxOf = (user: TestUser): Ctx => ({
    db: database.db,
    caller: { userId: user.userId, organizationId: user.organizationId, apiKeyId: null },
  });
  const latest = async (user: TestUser, deckId: string) =>
    (await call("GET", `/decks/${deckId}`, { key: user.key })).body.latestVersion as {
      source: string;
      compiledJs: string;
    };
  const pathsIn = (compiledJs: string) => [...new Set(compiledJs.match(/\/assets\/[0-9a-f]{64}\.(?:png|jpg|gif)/g))];

  it("keeps another organization's template images for a deck started from it, whatever that organization deletes", async () => {
    const author = await createUser();
    const reader = await createUser();
    const uploaded = await upload(author, await solidPng(240, 140, "#9333ea"));
    expect(uploaded.status).toBe(201);
    const remote = `${host.origin}/template.png`;
    const template = await publishDeck(author, {
      source: imageDeck(
        `<Image src="${uploaded.body.url}" alt="Purple" /><Image src="${remote}" alt="Teal, imported" />`,
      ),
    });
    const paths = pathsIn((await latest(author, template.id)).compiledJs);
    expect(paths).toHaveLength(2);

    const copy = await startFromTemplate(ctxOf(reader), { fromDeckId: template.id });
    const copied = await latest(reader, copy.id);
    expect(pathsIn(copied.compiledJs).sort()).toEqual([...paths].sort());
    // The reader's organization holds both images now: rows of its own, the files shared.
    const readerAssets = await call("GET", "/assets", { key: reader.key });
    expect(readerAssets.body.map((asset: { url: string }) => new URL(asset.url).pathname).sort()).toEqual(
      [...paths].sort(),
    );
    expect(readerAssets.body.find((asset: { sourceUrl: string | null }) => asset.sourceUrl === remote)).toMatchObject({
      alt: null,
      width: 260,
      height: 160,
    });

    // The author deletes the template, then every image of it: allowed (no deck of theirs shows them)…
    expect((await call("DELETE", `/decks/${template.id}`, { key: author.key })).status).toBe(200);
    const authorAssets = await call("GET", "/assets", { key: author.key });
    expect(authorAssets.body).toHaveLength(2);
    for (const asset of authorAssets.body as { id: string }[]) {
      const deleted = await call("DELETE", `/assets/${asset.id}`, { key: author.key });
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    }
    expect((await call("GET", "/assets", { key: author.key })).body).toEqual([]);
    // …and the copy's images are still served, and the copy still shows them.
    for (const path of paths) {
      const served = await fetchAsset(`http://localhost${path}`);
      expect(served.status, path).toBe(200);
      expect(sniffImageType(Buffer.from(await served.arrayBuffer()))).toBe("png");
    }

    // The reader saves the copy again, as the editor would: the author's asset URL in the source is now the
    // reader's own image, and the imported URL is not fetched a second time.
    const fetched = host.requests.filter((p) => p === "/template.png").length;
    const saved = await setContent(reader, copy.id, {
      source: copied.source.replace("Pictures</Title>", "Ours</Title>"),
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(pathsIn((await latest(reader, copy.id)).compiledJs).sort()).toEqual([...paths].sort());
    expect(host.requests.filter((p) => p === "/template.png").length).toBe(fetched);
    // The reader's images are in use by the copy: they stay.
    for (const asset of readerAssets.body as { id: string }[]) {
      expect((await call("DELETE", `/assets/${asset.id}`, { key: reader.key })).status).toBe(409);
    }
  });

  it("starts nothing when the organization's storage cannot hold the template's images", async () => {
    const author = await createUser();
    const reader = await createUser();
    const uploaded = await upload(author, await solidPng(300, 300, "#65a30d"));
    const template = await publishDeck(author, {
      source: imageDeck(`<Image src="${uploaded.body.url}" alt="Green" />`),
    });
    const decksBefore = (await call("GET", "/decks", { key: reader.key })).body.length;
    process.env.ASSET_STORAGE_BYTES = String(uploaded.body.bytes - 1);
    try {
      await expect(startFromTemplate(ctxOf(reader), { fromDeckId: template.id })).rejects.toMatchObject({
        code: "quota_exceeded",
      });
    } finally {
      delete process.env.ASSET_STORAGE_BYTES;
    }
    expect((await call("GET", "/decks", { key: reader.key })).body.length).toBe(decksBefore);
    expect((await call("GET", "/assets", { key: reader.key })).body).toEqual([]);
  });

  it("keeps an image two decks of one organization show until neither does", async () => {
    const user = await createUser();
    const uploaded = await upload(user, await solidPng(180, 120, "#ca8a04"));
    const source = imageDeck(`<Image src="${uploaded.body.url}" alt="Ochre" />`);
    const first = await createDeck(user);
    const second = await createDeck(user);
    expect((await setContent(user, first.id, { source })).status).toBe(200);
    expect((await setContent(user, second.id, { source })).status).toBe(200);

    expect((await call("DELETE", `/decks/${first.id}`, { key: user.key })).status).toBe(200);
    const stillShown = await call("DELETE", `/assets/${uploaded.body.id}`, { key: user.key });
    expect(stillShown.status).toBe(409);
    expect((await fetchAsset(uploaded.body.url)).status).toBe(200);
    const kept = await latest(user, second.id);
    expect(kept.compiledJs).toContain(`"${new URL(uploaded.body.url).pathname}"`);

    expect((await call("DELETE", `/decks/${second.id}`, { key: user.key })).status).toBe(200);
    expect((await call("DELETE", `/assets/${uploaded.body.id}`, { key: user.key })).status).toBe(200);
    expect((await fetchAsset(uploaded.body.url)).status).toBe(404);
  });
});
