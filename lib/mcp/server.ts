import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "@/lib/core/errors";
import { errorStatus } from "@/lib/api/status";
import { pollUntil } from "@/lib/core/poll";
import { toAppError } from "@/lib/api/handler";
import { parseInput } from "@/lib/api/input";
import { buildOpenApiDocument, oneNullSpelling } from "@/lib/api/openapi";
import type { ImageResult, Operation } from "@/lib/api/operation";
import { operationList, operations } from "@/lib/api/operations";
import type { CheckResult } from "@/lib/render/check-deck";
import { CHECK_IMAGES } from "@/lib/render/check-schemas";
import { getSlideImage } from "@/lib/render/slide-image";
import { rateLimitError, takeRateLimit } from "@/lib/limits/rate-limit";
import type { Ctx } from "@/lib/auth/caller";
import { config } from "@/lib/core/config";
import { buildAuthoringBrief } from "@/lib/source/instructions";
import { listDecks } from "@/lib/decks/list-decks";
import { deckDetailSchema, versionSchema } from "@/lib/decks/schemas";
import { exportSchema } from "@/lib/exports/schemas";
import { getExport, getExportDownloadUrl } from "@/lib/exports/get-export";
import { z } from "zod";

// Deckhand as a Model Context Protocol server: one tool per API operation (same schemas, same domain calls,
// same access rules and allowances, called as the API key's creator), a tool that exports and waits, the
// authoring brief as a prompt and a resource, and decks and versions as resources.

type JsonSchema = { type?: string; properties?: Record<string, unknown>; required?: string[]; $ref?: string };

const EXPORT_WAIT_DEFAULT_SECONDS = 120;
/** MCP's JSON-RPC error code for an unknown resource (the SDK 1.32 has no constant for it). */
const RESOURCE_NOT_FOUND = -32002;
const EXPORT_WAIT_MAX_SECONDS = 280;

// Tool input schemas: the operation's path and query parameters and body fields as one object, taken from
// the OpenAPI document so a model sees exactly what the REST reference shows. Header parameters
// (If-None-Match) are left out: a tool call has no headers, and its answer no ETag to send back.
function toolInputSchemas(): Map<string, JsonSchema> {
  const doc = buildOpenApiDocument(`${config.appUrl}/api/v1`);
  const schemas = doc.components.schemas as Record<string, JsonSchema>;
  const result = new Map<string, JsonSchema>();
  for (const methods of Object.values(doc.paths)) {
    for (const op of Object.values(methods) as {
      operationId: string;
      parameters: { name: string; in: string; required: boolean; description?: string; schema: object }[];
      requestBody?: { content: { "application/json": { schema: JsonSchema } } };
    }[]) {
      const properties: Record<string, unknown> = {};
      const required: string[] = [];
      for (const p of op.parameters) {
        if (p.in === "header") continue;
        properties[p.name] = { ...p.schema, ...(p.description ? { description: p.description } : {}) };
        if (p.required) required.push(p.name);
      }
      const ref = op.requestBody?.content["application/json"].schema.$ref;
      const body = ref ? schemas[ref.split("/").at(-1)!]! : undefined;
      for (const [name, schema] of Object.entries(body?.properties ?? {})) {
        if (name in properties) throw new Error(`${op.operationId}: "${name}" is both a parameter and a body field`);
        properties[name] = schema;
      }
      required.push(...(body?.required ?? []));
      result.set(op.operationId, { type: "object", properties, required, additionalProperties: false } as JsonSchema);
    }
  }
  return result;
}

// What a tool answers as structured content (MCP requires an object): the operation's response as sent,
// a list wrapped as { items } (a paged list with its nextCursor), download_export's link as { url }. get_deck and get_deck_version leave out
// compiledJs (the module the player runs: half of a deck's answer, never useful to a model).
const mcpDeckDetailSchema = deckDetailSchema.extend({
  latestVersion: deckDetailSchema.shape.latestVersion.unwrap().omit({ compiledJs: true }).nullable(),
});
const mcpVersionSchema = versionSchema.omit({ compiledJs: true });
const withoutCompiledJs: Partial<Record<string, z.ZodType>> = {
  get_deck: mcpDeckDetailSchema,
  get_deck_version: mcpVersionSchema,
};
const exportWithFileSchema = exportSchema.extend({
  fileUrl: z.string().describe("A short-lived link of the rendered file."),
});

// A tool error, as structured content too: the API's code and HTTP status, and when to retry a 429.
const toolErrorSchema = z.object({
  error: z.object({
    code: z.string().describe("The API's error code (lib/core/errors.ts), such as not_found or rate_limited."),
    status: z.int().describe("The HTTP status the REST API answers for the same error."),
    message: z.string(),
    featureId: z.string().optional().describe("402: the metered feature that ran out of allowance."),
    retryAfterSeconds: z.int().optional().describe("429, 503, 507: whole seconds to wait before calling again."),
    requestId: z.string().optional().describe("500: quote it when reporting the problem."),
  }),
});

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  return oneNullSpelling(rest);
}

/** The structured content a tool's result is sent as. */
function resultSchemaOf(op: Operation): z.ZodType {
  if (op.success.status === 302) return z.object({ url: z.string().describe("A short-lived link of the file.") });
  const override = withoutCompiledJs[op.id];
  if (override) return override;
  const schema = op.success.schema;
  if (op.paged) {
    return z.object({
      items: schema,
      nextCursor: z
        .string()
        .nullable()
        .describe("Pass it back as cursor (with the same arguments) for the next page; null on the last one."),
    });
  }
  return schema instanceof z.ZodArray ? z.object({ items: schema }) : schema;
}

function outputSchemaOf(result: z.ZodType): Tool["outputSchema"] {
  return {
    type: "object",
    description: "The result, or { error } when the call failed (isError).",
    anyOf: [jsonSchemaOf(result), jsonSchemaOf(toolErrorSchema)],
  } as Tool["outputSchema"];
}

let cachedTools: Tool[] | undefined;

export function listTools(): Tool[] {
  if (cachedTools) return cachedTools;
  const inputs = toolInputSchemas();
  const tools: Tool[] = operationList.map((op) => ({
    name: op.id,
    title: op.summary,
    description:
      op.id === "download_export"
        ? "Returns a short-lived link of a completed export's file (the REST endpoint answers it as a 302 redirect). Only the API key that requested the export may download it."
        : "media" in op.success
          ? `${op.description} Over MCP the image is the answer's image content (base64), its metadata the structured content.`
          : op.id === "get_deck" || op.id === "get_deck_version"
            ? `${op.description} Over MCP the compiled module (compiledJs) is left out; the REST API answers it.`
            : op.description,
    inputSchema: inputs.get(op.id)! as Tool["inputSchema"],
    outputSchema: outputSchemaOf(resultSchemaOf(op)),
    annotations: {
      readOnlyHint: !op.writes,
      destructiveHint: op.writes?.destructive ?? false,
      idempotentHint: op.writes?.idempotent ?? true,
      openWorldHint: op.openWorld ?? false,
    },
  }));
  tools.push({
    name: "export_deck",
    title: "Export a deck and wait for the file",
    description:
      "Exports a 'slides' deck to PDF or PPTX and waits until the file is rendered (usually a few seconds), then returns the export with fileUrl, a short-lived link of the file. For a printable handout of the slides with their speaker notes, use format 'pdf' with layout 'notes'. Use this rather than create_export + get_export polling. If the render takes longer than timeoutSeconds, returns an error naming the export id: call get_export with it until the status is 'completed', then download_export.",
    inputSchema: {
      type: "object",
      properties: {
        ...(inputs.get("create_export")!.properties ?? {}),
        timeoutSeconds: {
          type: "integer",
          minimum: 1,
          maximum: EXPORT_WAIT_MAX_SECONDS,
          default: EXPORT_WAIT_DEFAULT_SECONDS,
          description: "How long to wait for the render.",
        },
      },
      required: ["id", "format"],
      additionalProperties: false,
    },
    outputSchema: outputSchemaOf(exportWithFileSchema),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  });
  cachedTools = tools;
  return tools;
}

// One rule for numbers in every tool: an argument the input schema types as an integer (or number) may be
// given as a JSON number or as its decimal text ("2"); anything else is refused by the operation's schema.
function coerceNumbers(tool: string, args: Record<string, unknown>): Record<string, unknown> {
  const properties = (listTools().find((t) => t.name === tool)?.inputSchema.properties ?? {}) as Record<
    string,
    { type?: unknown }
  >;
  return Object.fromEntries(
    Object.entries(args).map(([name, value]) => {
      const type = properties[name]?.type;
      const numeric = type === "integer" || type === "number";
      if (numeric && typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value.trim())) {
        return [name, Number(value.trim())];
      }
      return [name, value];
    }),
  );
}

// Splits a tool's arguments back into path, query and body and validates each with the operation's own
// schemas; path and query values are strings on the wire, so numbers and booleans are given as text.
async function callOperation(op: Operation, ctx: Ctx, args: Record<string, unknown>): Promise<unknown> {
  const pathShape = Object.keys((op.params as z.ZodObject).shape);
  const queryShape = Object.keys((op.query as z.ZodObject).shape);
  const pick = (names: string[], asText: boolean) =>
    Object.fromEntries(names.filter((n) => args[n] !== undefined).map((n) => [n, asText ? String(args[n]) : args[n]]));
  const bodyArgs = Object.fromEntries(
    Object.entries(args).filter(([name]) => !pathShape.includes(name) && !queryShape.includes(name)),
  );
  if (!op.body && Object.keys(bodyArgs).length > 0) {
    throw new AppError(
      "invalid_request",
      `Unknown argument${Object.keys(bodyArgs).length > 1 ? "s" : ""}: ${Object.keys(bodyArgs).join(", ")}.`,
    );
  }
  if (op.limit !== "default") {
    const rate = await takeRateLimit(ctx.db, `key:${ctx.caller.apiKeyId}`, op.limit);
    if (rate.exceeded) throw rateLimitError(rate);
  }
  const result = await op.run({
    ctx,
    params: parseInput(op.params, pick(pathShape, true), "arguments"),
    query: parseInput(op.query, pick(queryShape, true), "arguments"),
    body: op.body ? parseInput(op.body, bodyArgs, "arguments") : {},
  });
  return op.success.status === 302 ? { url: result } : result;
}

/** A tool's answer as its structured content: shaped by its result schema (lists as { items }). */
function structured(tool: string, value: unknown): Record<string, unknown> {
  if (Array.isArray(value)) return { items: value };
  const result = value as Record<string, unknown>;
  if (tool === "get_deck_version") return omitCompiledJs(result);
  if (tool === "get_deck" && result.latestVersion) {
    return { ...result, latestVersion: omitCompiledJs(result.latestVersion as Record<string, unknown>) };
  }
  return result;
}

function omitCompiledJs({ compiledJs: _compiledJs, ...rest }: Record<string, unknown>) {
  return rest;
}

async function exportAndWait(ctx: Ctx, args: Record<string, unknown>) {
  const { timeoutSeconds, ...exportArgs } = parseInput(
    z
      .object({ timeoutSeconds: z.int().min(1).max(EXPORT_WAIT_MAX_SECONDS).default(EXPORT_WAIT_DEFAULT_SECONDS) })
      .passthrough(),
    args,
    "arguments",
  );
  const queued = (await callOperation(operations.create_export, ctx, exportArgs)) as {
    id: string;
    status: string;
  };
  let status = queued.status;
  const completed = await pollUntil(
    async () => {
      const current = await getExport(ctx, queued.id);
      status = current.status;
      if (current.status === "failed") {
        throw new AppError("conflict", `Export ${current.id} failed: ${current.error ?? "unknown error"}.`);
      }
      return current.status === "completed" ? current : undefined;
    },
    {
      deadline: Date.now() + timeoutSeconds * 1000,
      timeout: () =>
        new AppError(
          "conflict",
          `Export ${queued.id} is still ${status} after ${timeoutSeconds} s; call get_export with id ${queued.id} until its status is 'completed', then download_export.`,
        ),
    },
  );
  return { ...completed, fileUrl: await getExportDownloadUrl(ctx, completed.id) };
}

// The structured content, and the same JSON as text for clients that read only text (MCP's advice).
function toolResult(tool: string, value: unknown): CallToolResult {
  const content = structured(tool, value);
  return { content: [{ type: "text", text: JSON.stringify(content, null, 2) }], structuredContent: content };
}

// An image (get_slide_image) as MCP image content, its metadata as structured content and text.
function imageResult({ data, contentType, etag: _etag, immutable: _immutable, ...meta }: ImageResult): CallToolResult {
  return {
    content: [
      { type: "image", data: data.toString("base64"), mimeType: contentType },
      { type: "text", text: JSON.stringify(meta, null, 2) },
    ],
    structuredContent: meta,
  };
}

// A tool error carries the API's error code, HTTP status and (429, 503, 507) retryAfterSeconds as structured
// fields, and the same JSON in the text a model reads.
function toolError(error: unknown, requestId: string): CallToolResult {
  const apiError = toAppError(error, requestId);
  const body = {
    error: {
      code: apiError.code,
      status: errorStatus[apiError.code],
      message: apiError.message,
      ...(apiError.featureId ? { featureId: apiError.featureId } : {}),
      ...(apiError.retryAfterSeconds ? { retryAfterSeconds: apiError.retryAfterSeconds } : {}),
      ...(apiError.code === "internal" ? { requestId } : {}),
    },
  };
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
}

// The steps a deck takes through the tools: write, check, fix one slide at a time, then export or publish.
// get_deck's publicUrl is null until the deck is public, so the link to share is update_deck's answer.
const writeDeckSteps = [
  "1. create_deck with a title, then set_deck_content with the whole module. A module that does not compile is refused with the compiler's message (compile_failed, naming the line): fix it and write again.",
  "2. check_deck: it draws the new version as the export does and lists what is broken, slide by slide; get_slide_image shows you a slide as it is drawn. Fix every 'error' one slide at a time: replace_slide with only the slide a finding names (list_slides gives each slide's TSX; insert_slide, delete_slide and move_slide change one slide too), leave the other slides as they are, and check again until no 'error' is left.",
  "3. Deliver: export_deck (format 'pdf' or 'pptx') answers fileUrl, a short-lived link of the file; to share the deck itself, update_deck with visibility 'public' and give its publicUrl (null until the deck is public).",
].join("\n");

const briefPrompt = (topic?: string) =>
  [
    buildAuthoringBrief(),
    "",
    topic
      ? `Write a deck about: ${topic}\n\n${writeDeckSteps}`
      : `To write a deck that follows this brief with Deckhand's tools:\n${writeDeckSteps}`,
  ].join("\n");

// check_deck with attach "images": the findings, then a picture of each slide they name (the first few),
// drawn as get_slide_image draws it (kept per version), each after a line saying which slide it is.
async function withSlideImages(ctx: Ctx, deckId: string, check: CheckResult, findings: CallToolResult) {
  const slides = [...new Set(check.findings.flatMap((finding) => (finding.slide ? [finding.slide] : [])))];
  const content = [...findings.content];
  for (const slide of slides.slice(0, CHECK_IMAGES.slides)) {
    const image = await getSlideImage(ctx, deckId, slide, {
      version: check.version,
      width: CHECK_IMAGES.width,
      format: "png",
    });
    content.push(
      { type: "text", text: `Slide ${slide} as drawn (version ${check.version}, render ${image.renderHash}):` },
      { type: "image", data: image.data.toString("base64"), mimeType: image.contentType },
    );
  }
  return { ...findings, content };
}

// A fresh server per HTTP request: the transport is stateless, so any instance can answer any request.
export function createMcpServer(ctx: Ctx, requestId: string): Server {
  const server = new Server(
    { name: "deckhand", title: "Deckhand", version: "1.0.0" },
    {
      capabilities: { tools: {}, prompts: {}, resources: {} },
      instructions:
        "Deckhand stores slide decks as versioned TSX modules. Read the authoring brief (prompt 'authoring_brief' or resource deckhand://instructions) before writing a deck; then create_deck and set_deck_content. After every write, look at what you made: check_deck, and get_slide_image for the slides it names. Fix its 'error' findings one slide at a time with replace_slide (list_slides gives each slide's TSX), changing only the slide each names. Then export_deck for a PDF or PPTX, or update_deck with visibility 'public' for a link to share (its publicUrl).",
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listTools() }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const name = request.params.name;
    try {
      const op = operationList.find((o) => o.id === name);
      if (!op && name !== "export_deck") throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
      const args = coerceNumbers(name, (request.params.arguments ?? {}) as Record<string, unknown>);
      if (!op) return toolResult(name, await exportAndWait(ctx, args));
      const result = await callOperation(op, ctx, args);
      if ("media" in op.success) return imageResult(result as ImageResult);
      if (name === "check_deck" && args.attach === "images") {
        return withSlideImages(ctx, String(args.id), result as CheckResult, toolResult(name, result));
      }
      return toolResult(name, result);
    } catch (error) {
      if (error instanceof McpError) throw error;
      return toolError(error, requestId);
    }
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [
      {
        name: "authoring_brief",
        title: "Deckhand authoring brief",
        description: "The rules, component vocabulary and an example for writing a Deckhand deck module.",
      },
      {
        name: "write_deck",
        title: "Write a deck",
        description: "The authoring brief plus the steps to write a deck on a topic with Deckhand's tools.",
        arguments: [{ name: "topic", description: "What the deck is about", required: true }],
      },
    ],
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const { name, arguments: promptArgs } = request.params;
    if (name !== "authoring_brief" && name !== "write_deck") {
      throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
    }
    const topic = name === "write_deck" ? promptArgs?.topic?.trim() : undefined;
    if (name === "write_deck" && !topic) throw new McpError(ErrorCode.InvalidParams, "write_deck needs a topic.");
    return {
      description: name === "write_deck" ? `Write a deck about ${topic}` : "The Deckhand authoring brief",
      messages: [{ role: "user", content: { type: "text", text: briefPrompt(topic) } }],
    };
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const { items: decks } = await listDecks(ctx, { scope: "mine", includeArchived: false });
    return {
      resources: [
        {
          uri: "deckhand://instructions",
          name: "instructions",
          title: "Authoring brief",
          mimeType: "text/plain",
          description: "Read before writing or changing a deck.",
        },
        ...decks.map((deck) => ({
          uri: `deckhand://decks/${deck.id}`,
          name: deck.title,
          mimeType: "application/json",
          description: `Deck (${deck.format}, ${deck.visibility}) with its newest version's source`,
        })),
      ],
    };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: "deckhand://decks/{id}",
        name: "deck",
        mimeType: "application/json",
        description: "A deck with its newest version (as get_deck).",
      },
      {
        uriTemplate: "deckhand://decks/{id}/versions/{version}",
        name: "deck-version",
        mimeType: "application/json",
        description: "One version of a deck with its full content (as get_deck_version).",
      },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    const text = (value: unknown, mimeType = "application/json") => ({
      contents: [{ uri, mimeType, text: typeof value === "string" ? value : JSON.stringify(value, null, 2) }],
    });
    if (uri === "deckhand://instructions") return text(buildAuthoringBrief(), "text/plain");
    const match = /^deckhand:\/\/decks\/([^/]+)(?:\/versions\/([^/]+))?$/.exec(uri);
    // MCP's code for a resource that does not exist (-32002), with the URI as its data.
    if (!match) throw new McpError(RESOURCE_NOT_FOUND, `Unknown resource: ${uri}`, { uri });
    try {
      const [, id, version] = match;
      return version
        ? text(structured("get_deck_version", await callOperation(operations.get_deck_version, ctx, { id, version })))
        : text(structured("get_deck", await callOperation(operations.get_deck, ctx, { id })));
    } catch (error) {
      const apiError = toAppError(error, requestId);
      const status = errorStatus[apiError.code];
      const code =
        status === 404 ? RESOURCE_NOT_FOUND : status === 422 ? ErrorCode.InvalidParams : ErrorCode.InternalError;
      throw new McpError(code, `${apiError.code}: ${apiError.message}`, {
        uri,
        code: apiError.code,
        status,
        ...(apiError.retryAfterSeconds ? { retryAfterSeconds: apiError.retryAfterSeconds } : {}),
      });
    }
  });

  return server;
}
