import { assetSchema } from "@/lib/assets/schemas";
import { z } from "zod";
import { checkResultSchema, findingSchema } from "@/lib/render/check-schemas";
import { brandDetailSchema, brandSchema } from "@/lib/brands/schemas";
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
import { type ErrorStatus, errorBodySchema, instructionsSchema, type Operation, operationList } from "./operations";
import { rateLimitFor } from "@/lib/limits/rate-limit";

// The OpenAPI 3.1 document of /api/v1, generated from the operations registry and its zod schemas: request
// schemas as they are accepted (io "input"), response schemas as they are sent (io "output").

type JsonSchema = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

// Response components, named after SPEC.md's resources.
const resources = new Map<z.ZodType, string>([
  [deckSchema, "Deck"],
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
};

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
  return rest;
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

export function buildOpenApiDocument(serverUrl: string) {
  const requestBodies: [z.ZodType, string][] = [];
  const responseSchemas = new Map<z.ZodType, string>(resources);
  for (const op of operationList) {
    if (op.body) requestBodies.push([op.body, `${pascal(op.id)}Request`]);
    if (op.success.status !== 302) responseSchemas.set(op.success.schema, responseSchemaName(op.success.schema));
  }
  const schemas = {
    ...convertRegistry([...responseSchemas], "output"),
    ...convertRegistry(requestBodies, "input"),
  };

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
        : {
            description: op.success.description,
            headers: rateHeaders(),
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
                    "image/*": { schema: { type: "string", contentMediaType: "application/octet-stream" } },
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
      parameters: parameters(op),
      ...body,
      responses: {
        [op.success.status]: success,
        ...Object.fromEntries(
          op.errors.map((status) => [status, { $ref: `#/components/responses/${errorResponses[status].name}` }]),
        ),
      },
    };
  }

  paths["/mcp"] = { post: mcpOperation() };

  const slow = rateLimitFor("slow");
  const normal = rateLimitFor("default");
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    info: {
      title: "Deckhand API",
      version: "1.0.0",
      description: [
        "Decks (16:9 slide decks and scrolling web pages) stored as versioned TSX modules; AI generation and edits; brands extracted from websites; PDF and PPTX exports.",
        "",
        "Authenticate every request with `Authorization: Bearer <API key>`; keys are created in the organization's settings (or with `npm run keys:create`).",
        `Rate limits are per key: ${normal.limit} requests per ${normal.windowSeconds} s, and ${slow.limit} per ${slow.windowSeconds} s for the operations marked x-rate-limit-class 'slow' (generate, edit, the deck check, brand extraction). Every authenticated response carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset; a 429 carries Retry-After.`,
        `Request bodies are JSON of at most ${MAX_BODY_BYTES / 1024 / 1024} MB (upload_asset also takes the image's raw bytes or multipart/form-data, up to ASSET_MAX_BYTES); unknown fields are refused. Every response carries X-Request-Id.`,
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
      },
      responses: Object.fromEntries(
        Object.entries(errorResponses).map(([status, { name, description }]) => [
          name,
          {
            description,
            headers: {
              ...(status === "429" ? { "Retry-After": { $ref: "#/components/headers/Retry-After" } } : {}),
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
    description: "A JSON-RPC 2.0 message (or a batch) of the Model Context Protocol.",
    properties: { jsonrpc: { const: "2.0" }, method: { type: "string" }, id: { type: ["string", "integer"] } },
  };
  return {
    operationId: "mcp",
    tags: ["Agents"],
    summary: "Model Context Protocol endpoint",
    description:
      "Streamable HTTP transport, stateless, answering with application/json. Send `Accept: application/json, text/event-stream`. Tools: one per operation of this document (named by operationId) plus export_deck, which waits for the file; prompts: authoring_brief, write_deck; resources: deckhand://instructions, deckhand://decks/{id}, deckhand://decks/{id}/versions/{version}. Tool errors carry the API's error code and status.",
    parameters: [],
    requestBody: { required: true, content: { "application/json": { schema: jsonRpc } } },
    responses: {
      200: {
        description: "The JSON-RPC response.",
        headers: rateHeaders(),
        content: { "application/json": { schema: { type: "object", description: "A JSON-RPC 2.0 response." } } },
      },
      202: { description: "A notification or response was accepted; no body.", headers: rateHeaders() },
      401: { $ref: "#/components/responses/Unauthorized" },
      429: { $ref: "#/components/responses/RateLimited" },
      500: { $ref: "#/components/responses/ServerError" },
    },
  };
}

function rateHeaders() {
  return Object.fromEntries(
    ["X-Request-Id", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"].map((name) => [
      name,
      { $ref: `#/components/headers/${name}` },
    ]),
  );
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
