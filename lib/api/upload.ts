import type { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { parseInput, readBodyBytes, readJsonBody } from "./input";

// The body of an upload (upload_asset): the file's raw bytes (any Content-Type but JSON and multipart, such
// as image/png or application/octet-stream), multipart/form-data with the file in a part named `file`, or
// JSON with the bytes in base64 (`data`, what the MCP tool sends). Each is read with a byte cap while
// streaming and turned into the operation's JSON shape, so one schema validates every form.

export async function readUploadBody<S extends z.ZodType>(
  req: Request,
  schema: S,
  maxFileBytes: number,
): Promise<z.output<S>> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  // base64 is 4/3 of the bytes; the JSON around it is small.
  if (type === "application/json") return readJsonBody(req, schema, Math.ceil((maxFileBytes * 4) / 3) + 64 * 1024);
  if (type === "multipart/form-data") {
    const raw = await readBodyBytes(req, maxFileBytes + 64 * 1024);
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(raw), {
        headers: { "content-type": req.headers.get("content-type")! },
      }).formData();
    } catch {
      throw new AppError("invalid_request", "The request body is not valid multipart/form-data.");
    }
    const file = form.get("file");
    if (!(file instanceof Blob)) {
      throw new AppError("invalid_request", 'body: the multipart body needs the image in a part named "file".');
    }
    const data = Buffer.from(await file.arrayBuffer());
    return parseInput(schema, { data: data.toString("base64") }, "body");
  }
  const data = await readBodyBytes(req, maxFileBytes);
  if (data.length === 0) throw new AppError("invalid_request", "body: the request has no image bytes.");
  return parseInput(schema, { data: data.toString("base64") }, "body");
}
