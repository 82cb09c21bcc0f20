import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BLANK_PATH, renderOrigin } from "@/lib/render/player-files";
import { playerAssets } from "@/lib/viewer/assets";

// The render origin's loopback server (lib/render/player-files.ts) serves the player's built files and a blank
// page, and nothing else: no file outside public/player, however the path is spelled.

describe("the render origin's server", () => {
  it("serves a built player file, immutable and readable by a sandboxed document", async () => {
    const origin = await renderOrigin();
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const runtime = playerAssets().runtime;
    const response = await fetch(`${origin}${runtime}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(Buffer.from(await response.arrayBuffer())).toEqual(fs.readFileSync(path.join("public", runtime)));
    expect(await renderOrigin()).toBe(origin); // one server per process
  });

  it("answers its blank page empty and never cached", async () => {
    const response = await fetch(`${await renderOrigin()}${BLANK_PATH}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.text()).toBe("");
  });

  it("refuses everything else: other paths, paths that climb out of the player's folder, other methods", async () => {
    const origin = await renderOrigin();
    const runtime = playerAssets().runtime;
    for (const url of [
      "/",
      "/package.json",
      "/player/",
      "/player/missing.js",
      "/player/..%2F..%2Fpackage.json",
      "/player/%2e%2e/%2e%2e/package.json",
      "/player/%E0%A4%A",
      "/frame",
    ]) {
      const response = await fetch(`${origin}${url}`);
      expect([url, response.status]).toEqual([url, 404]);
    }
    expect((await fetch(`${origin}${runtime}`, { method: "POST", body: "x" })).status).toBe(404);
  });
});
