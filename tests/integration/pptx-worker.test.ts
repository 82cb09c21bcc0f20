import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/core/errors";
import { workerPool } from "@/lib/core/worker-pool";
import { readPptxOffThread } from "@/lib/import/pptx/off-thread";
import { readPptx } from "@/lib/import/pptx/read-pptx";

// The PowerPoint reader on its worker thread (built into dist/ by the test run's global setup): the same
// result as in-process, the same refusals as AppErrors, a package of millions of elements refused before it
// is parsed; and a job that needs more memory than a pool's heap cap costs only that worker.

const SAMPLES = path.join(import.meta.dirname, "../fixtures/pptx");

describe("reading a PowerPoint package on the worker thread", () => {
  it("gives what the in-process reader gives, pictures included", async () => {
    const bytes = fs.readFileSync(`${SAMPLES}/python-pptx-shp-picture.pptx`);
    const offThread = await readPptxOffThread(new Uint8Array(bytes));
    expect(offThread).toEqual(readPptx(bytes));
    expect(Object.keys(offThread.media)).toHaveLength(2);
  });

  it("answers the invalid sample with the same 422", async () => {
    const error = await readPptxOffThread(fs.readFileSync(`${SAMPLES}/poi-Divino_Revelado.pptx`)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "invalid_request", message: expect.stringMatching(/not a ZIP archive/) });
  });

  it("refuses a package of millions of elements before parsing it, and reads the next one", async () => {
    const zip = await JSZip.loadAsync(fs.readFileSync(`${SAMPLES}/python-pptx-sld-notes.pptx`));
    // Small elements with names that do not compress: within the ratio and size caps, far past the heap cap
    // once parsed, so they are counted first.
    const names = crypto
      .randomBytes(6 * 1024 * 1024)
      .toString("base64url")
      .match(/.{1,6}/g)!;
    const body = names.map((name) => `<a${name}/>`).join("");
    zip.file("ppt/slides/slide1.xml", `<?xml version="1.0"?><p:sld xmlns:p="urn:p">${body}</p:sld>`);
    const bytes = await zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
    const error = await readPptxOffThread(bytes).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: "payload_too_large",
      message: "The package's part ppt/slides/slide1.xml holds more than 500,000 XML elements; it is not read.",
    });
    const next = await readPptxOffThread(fs.readFileSync(`${SAMPLES}/python-pptx-sld-notes.pptx`));
    expect(next.slides[0]?.notes).toBe("Notes");
  });
});

// The heap cap itself (lib/core/worker-pool.ts): a job that needs more memory costs its worker and is
// answered with the pool's outOfMemory error; the next job gets a new worker.
describe("a worker pool with a heap cap", () => {
  it("answers a job that runs out of memory with its error, and the next job", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-heap-"));
    const file = path.join(dir, "greedy-worker.mjs");
    fs.writeFileSync(
      file,
      `import { parentPort } from "node:worker_threads";
parentPort.on("message", ({ id, message }) => {
  if (message === "grow") { const kept = []; for (;;) kept.push(new Array(100000).fill(id)); }
  parentPort.postMessage({ id, result: "small" });
});
`,
    );
    const pool = workerPool<string, string>({
      name: "greedy worker",
      file: () => file,
      enabled: () => true,
      inProcess: async () => "in process",
      resourceLimits: { maxOldGenerationSizeMb: 16 },
      outOfMemory: () => new AppError("payload_too_large", "It needs more memory than the worker has."),
    });
    try {
      const error = await pool.run("grow").catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "payload_too_large", message: "It needs more memory than the worker has." });
      expect(await pool.run("small")).toBe("small");
    } finally {
      await pool.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
