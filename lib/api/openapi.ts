import { importWarningSchema } from "@/lib/ai/import-deck";
import { importDeckResponse } from "@/lib/import/import-deck-request";
import { assetSchema } from "@/lib/assets/schemas";
import { z } from "zod";
import { checkResultSchema, findingSchema } from "@/lib/render/check-schemas";
import { deckAnalyticsSchema } from "@/lib/analytics/schemas";
import { shareLinkSchema } from "@/lib/decks/share-link";
import { brandDetailSchema, brandSchema } from "@/lib/brands/schemas";
import { slideListSchema } from "@/lib/decks/slide-schemas";
import {
  deckDetailSchema,
  deckSchema,
  deletedSchema,
  versionSchema,
  versionSummarySchema,
  versionWriteResultSchema,
} from "@/lib/decks/schemas";
import { exportSchema } from "@/lib/exports/schemas";
import { MAX_BODY_BYTES } from "./input";
import { type ErrorStatus, errorBodySchema, type Operation } from "./operation";
import { instructionsSchema, operationList } from "./operations";
import { rateLimitFor } from "@/lib/limits/rate-limit";

// The OpenAPI 3.1 document of /api/v1, generated from the operations registry and its zod schemas: request
// schemas as they are accepted (io "input"), response schemas as they are sent (io "output").

type JsonSchema = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

// Response components, named after SPEC.md's resources.
const resources = new Map<z.ZodType, string>([
  [deckSchema, "Deck"],
  [importDeckResponse, "ImportedDeck"],
  [deckDetailSchema, "DeckDetail"],
  [versionSummarySchema, "DeckVersionSummary"],
  [versionSchema, "DeckVersion"],
  [versionWriteResultSchema, "VersionWriteResult"],
  [exportSchema, "Export"],
  [brandSchema, "Brand"],
  [brandDetailSchema, "BrandDetail"],
  [assetSchema, "Asset"],
  [deletedSchema, "Deleted"],
  [instructionsSchema, "Instructions"],
  [checkResultSchema, "DeckCheck"],
  [findingSchema, "Finding"],
  [deckAnalyticsSchema, "DeckAnalytics"],
  [shareLinkSchema, "ShareLink"],
  [importDeckResponse, "ImportResult"],
  [importWarningSchema, "ImportWarning"],
  [slideListSchema, "SlideList"],
  [errorBodySchema, "Error"],
]);

const errorResponses: Record<ErrorStatus, { name: string; description: string }> = {
  401: { name: "Unauthorized", description: "Missing, malformed, unknown or revoked API key." },
  402: {
    name: "AllowanceExhausted",
    description: "Out of allowance for a metered feature; error.featureId names it. Allowances renew each UTC month.",
  },
  403: { name: "Forbidden", description: "The key's creator lacks access to the resource." },
  404: { name: "NotFound", description: "The resource does not exist or is not visible to the caller." },
  409: { name: "Conflict", description: "The resource is not in a state that allows this request." },
  422: {
    name: "InvalidRequest",
    description:
      "Input failed validation (codes invalid_request, payload_too_large, compile_failed); the message names each field.",
  },
  429: {
    name: "RateLimited",
    description:
      "Too many requests for this key (code rate_limited) or a monthly quota used up (quota_exceeded); retry after Retry-After seconds.",
  },
  500: {
    name: "ServerError",
    description:
      "Unexpected server error (internal, with a requestId to quote), or the AI model failed (ai_failed) or timed out (ai_timeout).",
  },
  503: {
    name: "ServiceUnavailable",
    description:
      "The database could not be reached or cannot take the request now (service_unavailable); retry after Retry-After seconds. A write may or may not have been applied.",
  },
  507: {
    name: "InsufficientStorage",
    description:
      "The server's disk is full, so nothing was saved (insufficient_storage); retry after Retry-After seconds.",
  },
};

// Any operation can meet an unreachable database; any write, a full disk.
const outsideFailures = (op: Operation): ErrorStatus[] => (op.method === "GET" ? [503] : [503, 507]);

const pascal = (id: string) => id.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

// Patterns that repeat a format (uuid, date-time) and the safe-integer bounds zod puts on every integer only
// add noise for a reader; a path segment documented as an integer ({version}) keeps no string pattern.
function tidy({ jsonSchema }: { jsonSchema: JsonSchema }) {
  if ((jsonSchema.format || jsonSchema.type === "integer") && jsonSchema.pattern) delete jsonSchema.pattern;
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
}

function convertRegistry(entries: [z.ZodType, string][], io: "input" | "output"): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of entries) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io,
    target: "draft-2020-12",
    uri: (id) => `#/components/schemas/${id}`,
    override: tidy,
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _schema, $id: _id, ...rest } = schema as JsonSchema;
      return [id, rest];
    }),
  );
}

function convert(schema: z.ZodType): JsonSchema {
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, { io: "input", override: tidy }) as JsonSchema;
  return oneNullSpelling(rest);
}

// One spelling of "or null" in the whole document: `anyOf: [<schema>, { type: "null" }]`, the one that also
// works around a $ref. zod writes `type: [T, "null"]` for some schemas (and `enum: [..., null]`); they are
// rewritten, recursively, into the anyOf form.
export function oneNullSpelling<T>(node: T): T {
  if (Array.isArray(node)) return node.map(oneNullSpelling) as T;
  if (!node || typeof node !== "object") return node;
  const out: JsonSchema = Object.fromEntries(
    Object.entries(node as JsonSchema).map(([key, value]) => [key, oneNullSpelling(value)]),
  );
  const type = out.type;
  const enumValues = out.enum as unknown[] | undefined;
  const nullInType = Array.isArray(type) && type.includes("null");
  const nullInEnum = Array.isArray(enumValues) && enumValues.includes(null);
  if (!nullInType && !nullInEnum) return out as T;
  const { type: _type, enum: _enum, description, title, default: fallback, ...rest } = out;
  const rest2: JsonSchema = { ...rest };
  if (Array.isArray(type)) {
    const others = type.filter((t) => t !== "null");
    if (others.length > 0) rest2.type = others.length === 1 ? others[0] : others;
  } else if (type !== undefined) rest2.type = type;
  if (enumValues) rest2.enum = enumValues.filter((v) => v !== null);
  return {
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(fallback !== undefined ? { default: fallback } : {}),
    anyOf: [rest2, { type: "null" }],
  } as T;
}

function responseSchemaName(schema: z.ZodType): string {
  const name = resources.get(schema);
  if (name) return name;
  if (schema instanceof z.ZodArray) {
    const element = resources.get(schema.element as z.ZodType);
    if (element) return `${element}List`;
  }
  throw new Error("A response schema of an operation is not named in lib/api/openapi.ts");
}

function parameters(op: Operation) {
  const list: JsonSchema[] = [];
  for (const [where, schema] of [
    ["path", op.params],
    ["query", op.query],
  ] as const) {
    const object = convert(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(object.properties ?? {})) {
      const { description, ...propertySchema } = property;
      list.push({
        name,
        in: where,
        required: where === "path" || (object.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: propertySchema,
      });
    }
  }
  return list;
}

const header = (description: string, schema: JsonSchema = { type: "integer" }) => ({ description, schema });

// The one redirecting operation (download_export) also says what a client that follows the redirect ends
// up with: the file, from a link that needs no key.
const file = { type: "string", contentMediaType: "application/octet-stream" };
const followedRedirect = {
  description:
    "The file itself, as a client that follows the 302 receives it (the Location link needs no key and expires within minutes).",
  content: {
    "application/pdf": { schema: file },
    "application/vnd.openxmlformats-officedocument.presentationml.presentation": { schema: file },
  },
};

export function buildOpenApiDocument(serverUrl: string) {
  const requestBodies: [z.ZodType, string][] = [];
  const responseSchemas = new Map<z.ZodType, string>(resources);
  for (const op of operationList) {
    if (op.body) requestBodies.push([op.body, `${pascal(op.id)}Request`]);
    if (op.success.status !== 302 && !("media" in op.success)) {
      responseSchemas.set(op.success.schema, responseSchemaName(op.success.schema));
    }
  }
  const schemas = oneNullSpelling({
    ...convertRegistry([...responseSchemas], "output"),
    ...convertRegistry(requestBodies, "input"),
    ...jsonRpcSchemas,
  });

  // The file of an upload, in base64: at most the operation's byte limit (ASSET_MAX_BYTES) once decoded.
  for (const op of operationList) {
    if (!op.upload) continue;
    const data = (schemas[`${pascal(op.id)}Request`] as { properties?: Record<string, JsonSchema> }).properties?.[
      op.upload.field ?? "data"
    ];
    if (data) data.maxLength = 4 * Math.ceil(op.upload.maxBytes() / 3);
  }

  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operationList) {
    const success =
      op.success.status === 302
        ? {
            description: op.success.description,
            headers: {
              Location: header("Short-lived link of the rendered file.", { type: "string", format: "uri" }),
              "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" },
            },
          }
        : "media" in op.success
          ? {
              description: op.success.description,
              headers: { ...rateHeaders(), ...imageCacheHeaders },
              content: Object.fromEntries(op.success.media.map((type) => [type, { schema: file }])),
            }
          : {
              description: op.success.description,
              headers: {
                ...rateHeaders(),
                ...(conditional(op) ? cacheHeaders(op.cache) : {}),
                ...(op.paged ? { Link: nextPageHeader } : {}),
              },
              content: { "application/json": { schema: ref(responseSchemaName(op.success.schema)) } },
            };
    const body = op.body
      ? {
          requestBody: {
            required: !op.body.safeParse({}).success,
            content: {
              "application/json": { schema: ref(`${pascal(op.id)}Request`) },
              ...(op.upload
                ? {
                    ...Object.fromEntries(
                      (op.upload.types ?? ["image/*"]).map((type) => [
                        type,
                        { schema: { type: "string", contentMediaType: "application/octet-stream" } },
                      ]),
                    ),
                    "multipart/form-data": {
                      schema: {
                        type: "object",
                        properties: { file: { type: "string", contentMediaType: "application/octet-stream" } },
                        required: ["file"],
                      },
                    },
                  }
                : {}),
            },
          },
        }
      : {};
    paths[op.path] ??= {};
    paths[op.path]![op.method.toLowerCase()] = {
      operationId: op.id,
      tags: [op.tag],
      summary: op.summary,
      description: op.description,
      ...(op.limit === "slow" ? { "x-rate-limit-class": "slow" } : {}),
      parameters: [...parameters(op), ...(conditional(op) ? [ifNoneMatch] : [])],
      ...body,
      responses: {
        ...(op.success.status === 302 ? { 200: followedRedirect } : {}),
        [op.success.status]: success,
        ...(conditional(op) ? { 304: notModifiedResponse } : {}),
        ...Object.fromEntries(
          [...op.errors, ...outsideFailures(op)].map((status) => [
            status,
            { $ref: `#/components/responses/${errorResponses[status].name}` },
          ]),
        ),
      },
    };
  }

  paths["/mcp"] = { post: mcpOperation() };

  const slow = rateLimitFor("slow");
  const normal = rateLimitFor("default");
  return {
    openapi: "3.1.0",
    info: {
      title: "Deckhand API",
      version: "1.0.0",
      license: { name: "Proprietary", identifier: "LicenseRef-Deckhand-Proprietary" },
      description: [
        "Decks (16:9 slide decks and scrolling web pages) stored as versioned TSX modules; AI generation and edits; brands extracted from websites; PDF and PPTX exports.",
        "",
        "Authenticate every request with `Authorization: Bearer <API key>`; keys are created in the organization's settings (or with `npm run keys:create`).",
        `Rate limits are per key: ${normal.limit} requests per ${normal.windowSeconds} s, and ${slow.limit} per ${slow.windowSeconds} s for the operations marked x-rate-limit-class 'slow' (generate, edit, the deck check, brand extraction). Every authenticated response carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset; a 429, 503 or 507 carries Retry-After.`,
        `Request bodies are JSON of at most ${MAX_BODY_BYTES / 1024 / 1024} MB, sent with \`Content-Type: application/json\` (a body of another type is 422 invalid_request; upload_asset also takes the image's raw bytes or multipart/form-data, up to ASSET_MAX_BYTES); unknown fields are refused. Every response carries X-Request-Id; a 401 carries \`WWW-Authenticate: Bearer\`.`,
        "Nullable values are written `anyOf: [<schema>, {type: 'null'}]`. String limits the server counts in UTF-8 bytes are given as `maxLength` (exact for ASCII) and `x-maxBytes`.",
      ].join("\n"),
    },
    servers: [{ url: serverUrl }],
    security: [{ ApiKey: [] }],
    tags: [
      { name: "Authoring", description: "The brief a model (or a person) reads before writing a deck." },
      { name: "Decks", description: "Decks and their content; every content write appends an immutable version." },
      { name: "Versions", description: "A deck's history: list, read, and copy an old version forward." },
      { name: "Exports", description: "PDF and PPTX renders, queued and polled." },
      { name: "Brands", description: "Brand books extracted from public websites." },
      { name: "Assets", description: "The organization's images, served from the deck's own origin." },
      { name: "Agents", description: "The same operations as Model Context Protocol tools." },
    ],
    paths,
    components: {
      securitySchemes: {
        ApiKey: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "dk_…",
          description: "An organization API key. A key acts as the user who created it.",
        },
      },
      schemas,
      headers: {
        "X-Request-Id": header("Id of this request; quote it when reporting a problem.", { type: "string" }),
        "RateLimit-Limit": header("Requests allowed per window for this key and class of operation."),
        "RateLimit-Remaining": header("Requests left in the current window."),
        "RateLimit-Reset": header("Seconds until the window resets."),
        "Retry-After": header("Whole seconds to wait before retrying."),
        "WWW-Authenticate": header("The authentication scheme to use: `Bearer` (RFC 6750).", {
          type: "string",
          const: "Bearer",
        }),
      },
      responses: Object.fromEntries(
        Object.entries(errorResponses).map(([status, { name, description }]) => [
          name,
          {
            description,
            headers: {
              ...(["429", "503", "507"].includes(status)
                ? { "Retry-After": { $ref: "#/components/headers/Retry-After" } }
                : {}),
              ...(status === "401" ? { "WWW-Authenticate": { $ref: "#/components/headers/WWW-Authenticate" } } : {}),
              "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" },
            },
            content: { "application/json": { schema: ref("Error") } },
          },
        ]),
      ),
    },
  };
}

// The MCP endpoint speaks JSON-RPC (Streamable HTTP, stateless, JSON responses): one path whose tools are
// the operations above, listed by the protocol itself rather than here.
function mcpOperation() {
  const jsonRpc = {
    type: "object",
    description: "A JSON-RPC 2.0 message of the Model Context Protocol (one per request: batches are refused).",
    properties: {
      jsonrpc: { const: "2.0" },
      method: { type: "string" },
      id: { anyOf: [{ type: "string" }, { type: "integer" }] },
    },
    required: ["jsonrpc"],
  };
  // A batch is read (and refused with 400), so the document lets it through to the server's answer.
  const message = {
    anyOf: [jsonRpc, { type: "array", items: jsonRpc, description: "A JSON-RPC batch: refused with 400 (-32600)." }],
  };
  const transportError = (description: string) => ({
    description,
    headers: rateHeaders(),
    content: { "application/json": { schema: ref("JsonRpcError") } },
  });
  return {
    operationId: "mcp",
    tags: ["Agents"],
    summary: "Model Context Protocol endpoint",
    description:
      "Streamable HTTP transport, stateless, answering with application/json. Send `Accept: application/json, text/event-stream` and `Content-Type: application/json`. Tools: one per operation of this document (named by operationId) plus export_deck, which waits for the file; each declares an output schema and answers structured content. Prompts: authoring_brief, write_deck; resources: deckhand://instructions, deckhand://decks/{id}, deckhand://decks/{id}/versions/{version}. Tool errors carry the API's error code, HTTP status and, for 429, 503 and 507, retryAfterSeconds as structured content. Refusals of the transport itself (400, 406, 413, 415) are JSON-RPC error objects.",
    parameters: [],
    requestBody: { required: true, content: { "application/json": { schema: message } } },
    responses: {
      200: {
        description: "The JSON-RPC response.",
        headers: rateHeaders(),
        content: { "application/json": { schema: ref("JsonRpcResponse") } },
      },
      202: { description: "A notification or response was accepted; no body.", headers: rateHeaders() },
      400: transportError(
        "Not a JSON-RPC message (-32700), a batch (-32600: send one message per request), or an unsupported MCP-Protocol-Version (-32000).",
      ),
      401: { $ref: "#/components/responses/Unauthorized" },
      406: transportError("The Accept header does not list both application/json and text/event-stream (-32000)."),
      413: transportError("The message is larger than 4 MB (-32000)."),
      415: transportError("The body is not sent as Content-Type: application/json (-32000)."),
      429: { $ref: "#/components/responses/RateLimited" },
      500: { $ref: "#/components/responses/ServerError" },
    },
  };
}

// JSON-RPC 2.0 envelopes of /mcp (the MCP schema defines what result holds per method).
const jsonRpcSchemas: Record<string, JsonSchema> = {
  JsonRpcError: {
    type: "object",
    description: "A JSON-RPC 2.0 error response.",
    properties: {
      jsonrpc: { const: "2.0" },
      id: { anyOf: [{ type: "string" }, { type: "integer" }, { type: "null" }] },
      error: {
        type: "object",
        properties: { code: { type: "integer" }, message: { type: "string" }, data: {} },
        required: ["code", "message"],
      },
    },
    required: ["jsonrpc", "id", "error"],
  },
  JsonRpcResponse: {
    type: "object",
    description: "A JSON-RPC 2.0 response: a result, or an error (such as -32002 for an unknown resource).",
    properties: {
      jsonrpc: { const: "2.0" },
      id: { anyOf: [{ type: "string" }, { type: "integer" }, { type: "null" }] },
      result: { type: "object" },
      error: { $ref: "#/components/schemas/JsonRpcError/properties/error" },
    },
    required: ["jsonrpc", "id"],
  },
};

// Reads answer with an ETag and take If-None-Match (lib/api/route.ts).
const conditional = (op: Operation) => op.method === "GET" && op.success.status === 200;

const nextPageHeader = header(
  'With `limit`, when another page follows: `<URL>; rel="next"` (RFC 8288), the URL of the next page (this query with its `cursor`).',
  { type: "string" },
);

function cacheHeaders(cache: Operation["cache"]) {
  return {
    ETag: header("Tag of this body: send it back in If-None-Match to get 304 while it is current.", { type: "string" }),
    "Cache-Control": header(
      cache === "immutable"
        ? "`private, max-age=31536000, immutable`: a version never changes."
        : "`private, no-cache`: keep it, but revalidate with If-None-Match.",
      { type: "string" },
    ),
  };
}

// An image's tag is its render's hash; one of a version named in the request never changes.
const imageCacheHeaders = {
  ETag: header("The hash of the image's bytes: send it back in If-None-Match to get 304.", { type: "string" }),
  "Cache-Control": header(
    "`private, max-age=31536000, immutable` when the request names its version, else `private, no-cache`.",
    { type: "string" },
  ),
};

const ifNoneMatch = {
  name: "If-None-Match",
  in: "header",
  required: false,
  description: "The ETag of a body you hold: answered 304 with no body while it is still current.",
  schema: { type: "string" },
};

const notModifiedResponse = {
  description: "Not modified: the ETag in If-None-Match is current; no body.",
  headers: { ETag: header("The current tag (the one sent).", { type: "string" }) },
};

function rateHeaders() {
  return Object.fromEntries(
    ["X-Request-Id", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"].map((name) => [
      name,
      { $ref: `#/components/headers/${name}` },
    ]),
  );
}
