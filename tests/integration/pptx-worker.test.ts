import crypto from "node:crypto";
import fs from "node:fs";
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/core/errors";
import { readPptxOffThread } from "@/lib/import/pptx/off-thread";
import { readPptx } from "@/lib/import/pptx/read-pptx";

// The PowerPoint reader on its worker thread (built into dist/ by the test run's global setup): the same
// result as in-process, the same refusals as AppErrors, and a package that needs more memory than the
// worker's heap cap costs the worker, is answered 422, and the next import is read by a new worker.

const SAMPLES = "/work/shared/samples/pptx";

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

  it("answers a package too big for the worker's heap with 422, and reads the next one", async () => {
    const zip = await JSZip.loadAsync(fs.readFileSync(`${SAMPLES}/python-pptx-sld-notes.pptx`));
    // Millions of small elements with names that do not compress: within the ratio and size caps, far past
    // the heap cap once parsed.
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
      message: expect.stringMatching(/more than 384 MB of memory/),
    });
    const next = await readPptxOffThread(fs.readFileSync(`${SAMPLES}/python-pptx-sld-notes.pptx`));
    expect(next.slides[0]?.notes).toBe("Notes");
  });
});
