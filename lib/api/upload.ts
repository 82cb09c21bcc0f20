import type { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { parseInput, readBodyBytes, readJsonBody } from "./input";

// The body of an upload (upload_asset, import_deck): the file's raw bytes (any Content-Type but JSON and
// multipart, such as image/png or application/octet-stream), multipart/form-data with the file in a part
// named `file`, or JSON with the bytes in base64 (what the MCP tool sends). Each is read with a byte cap while
// streaming and turned into the operation's JSON shape, so one schema validates every form. An operation
// whose other fields may come beside the raw file (`fieldsBeside`) takes them from the query string or, in
// multipart, from the other parts.

export type Upload = {
  /** This many bytes of file at most. */
  maxBytes: () => number;
  /** The body field that holds the file in base64; default "data". */
  field?: string;
  /** The Content-Types of the raw file, for the reference; default image/*. */
  types?: string[];
  fieldsBeside?: boolean;
  /** What the file is, in messages; default "image". */
  what?: string;
};

export async function readUploadBody<S extends z.ZodType>(
  req: Request,
  schema: S,
  upload: Upload,
): Promise<z.output<S>> {
  const maxFileBytes = upload.maxBytes();
  const field = upload.field ?? "data";
  const what = upload.what ?? "image";
  const beside = upload.fieldsBeside ? queryFields(req) : {};
  const type = (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  // base64 is 4/3 of the bytes; the JSON around it is small.
  if (type === "application/json") {
    if (Object.keys(beside).length > 0) {
      throw new AppError("invalid_request", "query: with a JSON body, give every field in the body.");
    }
    return readJsonBody(req, schema, Math.ceil((maxFileBytes * 4) / 3) + 64 * 1024);
  }
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
      throw new AppError("invalid_request", `body: the multipart body needs the ${what} in a part named "file".`);
    }
    const parts: Record<string, string> = {};
    if (upload.fieldsBeside) {
      for (const [name, value] of form) if (name !== "file" && typeof value === "string") parts[name] = value;
    }
    const data = Buffer.from(await file.arrayBuffer());
    return parseInput(schema, { ...beside, ...parts, [field]: data.toString("base64") }, "body");
  }
  const data = await readBodyBytes(req, maxFileBytes);
  if (data.length === 0) throw new AppError("invalid_request", `body: the request has no ${what} bytes.`);
  return parseInput(schema, { ...beside, [field]: data.toString("base64") }, "body");
}

function queryFields(req: Request): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of new URL(req.url).searchParams) {
    if (name in query) throw new AppError("invalid_request", `Query parameter "${name}" is given more than once.`);
    query[name] = value;
  }
  return query;
}
