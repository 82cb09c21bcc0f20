import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleDeckSource } from "@/lib/source/instructions";
import { closeRenderBrowser } from "@/lib/render/browser";
import { call, createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { createDeck, setContent } from "../helpers/decks";
import { setUpTestDatabase } from "../helpers/database";
import { chromiumBelow } from "../helpers/processes";

// The renderer's Chromium (deck checks, exports) runs at a lower CPU priority than the server, as in
// production (RENDERER_NICENESS defaults to 10; the other suites run it at 0, vitest.config.ts), and none of
// its processes raises itself above that, though this process may (tests run as root here).

const NICENESS = 10;
let server: AppServer;
let author: TestUser;

beforeAll(async () => {
  process.env.RENDERER_NICENESS = String(NICENESS);
  await setUpTestDatabase();
  server = await startAppServer();
  author = await createUser();
}, 120_000);

afterAll(async () => {
  await closeRenderBrowser();
  await server?.close();
});

describe("the renderer's CPU priority", () => {
  it("draws a deck check in a renderer whose every process is niced below the server", async () => {
    const deck = await createDeck(author);
    expect((await setContent(author, deck.id, { source: exampleDeckSource })).status).toBe(200);
    expect((await call("GET", `/decks/${deck.id}/check`, { key: author.key })).status).toBe(200);
    // Browser, zygotes, renderer, GPU and utility processes: all launched below this process.
    const renderer = chromiumBelow(process.pid);
    expect(renderer.length).toBeGreaterThan(1);
    const niced = Math.min(19, os.getPriority() + NICENESS);
    expect(renderer.map((pid) => os.getPriority(pid))).toEqual(renderer.map(() => niced));
  }, 90_000);
});
