import fs from "node:fs";
import path from "node:path";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pollUntil } from "@/lib/core/poll";
import { type NextServer, startNextServer } from "../helpers/next-server";

// A PowerPoint imported in faithful mode (the default) by the real server (`next start` of the production
// build, on loopback) draws and exports: a PDF of as many pages as the deck has slides, and a PPTX whose
// slides hold the original's words as native text, its bulleted lists as PowerPoint bullets, at the places
// the Frames put them, over the theme's background gradient.

const PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation";
const SAMPLE = path.join(import.meta.dirname, "../fixtures/pptx/poi-ae.ac.uaeu.faculty_nafaachbili_GeomLec1.pptx");

let server: NextServer;
let key: string;

beforeAll(async () => {
  server = await startNextServer({ withApiKey: true });
  key = server.key;
}, 600_000);

afterAll(async () => {
  await server?.stop();
});

// The fields of the answers this test reads.
type Answer = {
  id: string;
  status: string;
  importReport: { mode: string; slides: number };
  findings: Array<{ kind: string }>;
};

async function api(method: string, route: string, body?: BodyInit, type = "application/json") {
  const res = await fetch(`${server.origin}/api/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": type } : {}) },
    body,
    redirect: "manual",
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : {}) as Answer };
}

async function exported(deckId: string, format: "pdf" | "pptx"): Promise<Buffer> {
  const queued = await api("POST", `/decks/${deckId}/exports`, JSON.stringify({ format }));
  expect(queued.status, JSON.stringify(queued.body)).toBeLessThan(300);
  const done = await pollUntil(
    async () => {
      const state = await api("GET", `/exports/${queued.body.id}`);
      return state.body.status === "completed" || state.body.status === "failed" ? state.body : undefined;
    },
    { deadline: Date.now() + 240_000, timeout: () => new Error(`the ${format} export did not finish`) },
  );
  expect(done.status, JSON.stringify(done)).toBe("completed");
  const download = await api("GET", `/exports/${queued.body.id}/download`);
  return Buffer.from(await (await fetch(download.headers.get("location")!)).arrayBuffer());
}

describe("a PowerPoint imported as it looks", () => {
  it("draws and exports to PDF and to PPTX with native text and bullets", async () => {
    const imported = await api("POST", "/decks/import?title=Geometry", new Uint8Array(fs.readFileSync(SAMPLE)), PPTX);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body.importReport).toMatchObject({ mode: "faithful", slides: 14 });

    const check = await api("GET", `/decks/${imported.body.id}/check`);
    expect(check.status, JSON.stringify(check.body)).toBe(200);
    const failed = check.body.findings.filter((finding) => finding.kind === "render-failed");
    expect(failed).toEqual([]);

    const pdf = await exported(imported.body.id, "pdf");
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.toString("latin1").match(/\/Type\s*\/Page\b/g)).toHaveLength(14);

    const pptx = await JSZip.loadAsync(await exported(imported.body.id, "pptx"));
    const slides = Object.keys(pptx.files).filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name));
    expect(slides).toHaveLength(14);
    const second = await pptx.file("ppt/slides/slide2.xml")!.async("string");
    expect(second).toContain("Greek Mathematician");
    expect(second).toMatch(/<a:buChar /);
    // The layout's background (the theme's background style bgRef 1003, a radial gradient) stays a gradient.
    expect(second).toMatch(/<a:gradFill[\s\S]*?<a:path path="circle"/);
    // The bullets' frame keeps its place: its text box starts right of the slide's middle, as in the original.
    const box = /<p:sp>(?:(?!<\/p:sp>)[\s\S])*Greek Mathematician[\s\S]*?<\/p:sp>/.exec(second)?.[0] ?? "";
    const x = Number(/<a:off x="(\d+)"/.exec(box)?.[1]);
    expect(x).toBeGreaterThan(12_192_000 / 2);
  }, 600_000);
});
