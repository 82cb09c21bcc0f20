import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/core/config";
import { call, createUser, type ApiResponse, type TestUser } from "../helpers/api";
import { routes } from "../helpers/app-router";
import { setUpTestDatabase } from "../helpers/database";
import { deckSource } from "../helpers/decks";
import { waitForExport } from "../helpers/exports";

// The OpenAPI document against the code: it names exactly the route handlers that exist, carries SPEC.md's
// status codes, is internally consistent, and real responses validate against its schemas.

type Doc = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<
    string,
    Record<string, { operationId: string; parameters?: { name: string }[]; responses: Record<string, DocResponse> }>
  >;
  components: { schemas: Record<string, unknown>; responses: Record<string, DocResponse> };
};
type DocResponse = {
  $ref?: string;
  headers?: Record<string, unknown>;
  content?: { "application/json": { schema: { $ref: string } } };
};

let doc: Doc;
let user: TestUser;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

beforeAll(async () => {
  await setUpTestDatabase();
  user = await createUser();
  const res = await call("GET", "/openapi.json");
  expect(res.status).toBe(200);
  doc = res.body;
  ajv.addSchema(doc, "openapi");
});

// SPEC.md, "Status codes by endpoint", plus each operation's success status; and the operations beyond it.
const specStatuses: Record<string, number[]> = {
  get_authoring_instructions: [200, 401, 403, 422, 429, 500],
  list_decks: [200, 401, 403, 422, 429, 500],
  list_brands: [200, 401, 403, 422, 429, 500],
  create_deck: [201, 401, 402, 403, 404, 422, 429, 500],
  get_deck: [200, 401, 403, 404, 422, 429, 500],
  update_deck: [200, 401, 403, 404, 422, 429, 500],
  delete_deck: [200, 401, 403, 404, 422, 429, 500],
  list_deck_versions: [200, 401, 403, 404, 422, 429, 500],
  get_deck_version: [200, 401, 403, 404, 422, 429, 500],
  get_export: [200, 401, 403, 404, 422, 429, 500],
  get_brand: [200, 401, 403, 404, 422, 429, 500],
  set_deck_content: [200, 401, 402, 403, 404, 422, 429, 500],
  generate_deck: [200, 401, 402, 403, 404, 422, 429, 500],
  revert_deck_version: [200, 401, 402, 403, 404, 422, 429, 500],
  edit_deck: [200, 401, 402, 403, 404, 409, 422, 429, 500],
  create_export: [202, 401, 403, 404, 422, 429, 500],
  // 200: the file, as a client that follows the redirect gets it.
  download_export: [200, 302, 401, 403, 404, 409, 422, 429, 500],
  create_brand_from_url: [201, 401, 403, 422, 429, 500],
  delete_brand: [200, 401, 403, 404, 409, 422, 429, 500],
  // Beyond the spec (issue 15): a read, with the usual rules.
  check_deck: [200, 401, 403, 404, 422, 429, 500],
  get_slide_image: [200, 401, 403, 404, 422, 429, 500],
  list_slides: [200, 401, 403, 404, 422, 429, 500],
  replace_slide: [200, 401, 402, 403, 404, 409, 422, 429, 500],
  insert_slide: [201, 401, 402, 403, 404, 409, 422, 429, 500],
  delete_slide: [200, 401, 402, 403, 404, 409, 422, 429, 500],
  move_slide: [200, 401, 402, 403, 404, 409, 422, 429, 500],
  // Beyond the spec (issue 22): the analytics of a shared deck, a read.
  get_deck_analytics: [200, 401, 403, 404, 422, 429, 500],
  get_share_link: [200, 401, 403, 404, 422, 429, 500],
  set_share_link: [200, 401, 403, 404, 422, 429, 500],
  revoke_share_link: [200, 401, 403, 404, 422, 429, 500],
  import_deck: [201, 401, 402, 403, 404, 422, 429, 500],
  // Beyond the spec (issue 17): the organization's images.
  list_assets: [200, 401, 403, 422, 429, 500],
  upload_asset: [201, 401, 403, 422, 429, 500],
  delete_asset: [200, 401, 403, 404, 409, 422, 429, 500],
};

const operations = () =>
  Object.entries(doc.paths).flatMap(([p, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path: p, method: method.toUpperCase(), op })),
  );

// Every route file under app/api/v1 and the methods it exports, as "METHOD /path/{param}".
async function routeHandlers(): Promise<string[]> {
  const apiDir = path.resolve("app/api/v1");
  const found: string[] = [];
  for (const route of routes) {
    const dir = path.relative(apiDir, path.dirname(route.file));
    if (dir.startsWith("..")) continue; // not part of /api/v1
    if (dir.startsWith("[...")) continue; // the JSON 404 for unknown paths
    if (dir === "openapi.json") continue; // the document itself
    const module = (await import(route.file)) as Record<string, unknown>;
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      if (typeof module[method] === "function") {
        found.push(
          `${method} /${dir
            .split(path.sep)
            .join("/")
            .replace(/\[(\w+)\]/g, "{$1}")}`,
        );
      }
    }
  }
  return found.sort();
}

function expectConforms(operationId: string, res: ApiResponse) {
  const op = operations().find((o) => o.op.operationId === operationId)!.op;
  let response = op.responses[res.status];
  expect(response, `${operationId} answered ${res.status}, which the document does not list`).toBeDefined();
  if (response!.$ref) response = doc.components.responses[response!.$ref.split("/").at(-1)!];
  const schemaRef = response!.content?.["application/json"].schema.$ref;
  if (!schemaRef) return expect(res.body).toBeNull();
  const validate = ajv.getSchema(`openapi${schemaRef}`) ?? ajv.compile({ $ref: `openapi${schemaRef}` });
  expect(validate(res.body), `${operationId} ${res.status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

describe("the OpenAPI document", () => {
  it("is served without a key, as OpenAPI 3.1, for this server", async () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers[0]!.url).toBe(`${config.appUrl}/api/v1`);
  });

  it("describes exactly the route handlers that exist: none missing, none invented", async () => {
    const documented = operations()
      .map(({ method, path: p }) => `${method} ${p}`)
      .sort();
    expect(documented).toEqual(await routeHandlers());
  });

  it("gives every operation SPEC.md's status codes", () => {
    const actual = Object.fromEntries(
      operations()
        .filter(({ op }) => op.operationId !== "mcp") // JSON-RPC, not a SPEC.md operation
        .map(({ op }) => [
          op.operationId,
          Object.keys(op.responses)
            .map(Number)
            .filter((status) => status !== 304 && status !== 503 && status !== 507)
            .sort(),
        ]),
    );
    expect(actual).toEqual(specStatuses);
  });

  it("gives every operation its 503 and every write its 507, with Retry-After (beyond the spec: outside failures)", () => {
    for (const { method, op } of operations()) {
      if (op.operationId === "mcp") continue;
      expect(Object.keys(op.responses), op.operationId).toContain("503");
      expect("507" in op.responses, op.operationId).toBe(method !== "GET");
    }
    for (const name of ["ServiceUnavailable", "InsufficientStorage"]) {
      expect(Object.keys(doc.components.responses[name]!.headers ?? {})).toContain("Retry-After");
    }
  });

  it("gives every read its 304, its ETag and If-None-Match (beyond the spec: conditional reads)", () => {
    for (const { method, op } of operations()) {
      const reads = method === "GET" && "200" in op.responses && op.operationId !== "download_export";
      expect("304" in op.responses, op.operationId).toBe(reads);
      if (!reads) continue;
      expect(Object.keys(op.responses["200"]?.headers ?? {}), op.operationId).toEqual(
        expect.arrayContaining(["ETag", "Cache-Control"]),
      );
      expect((op.parameters ?? []).map((parameter) => parameter.name)).toContain("If-None-Match");
    }
  });

  it("has schemas that compile and $refs that resolve", () => {
    const refs = new Set<string>();
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === "object") {
        for (const [key, value] of Object.entries(node)) {
          if (key === "$ref" && typeof value === "string") refs.add(value);
          else walk(value);
        }
      }
    };
    walk(doc);
    expect(refs.size).toBeGreaterThan(20);
    for (const ref of refs) {
      const target = ref
        .slice(2)
        .split("/")
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
      expect(target, ref).toBeDefined();
    }
    for (const name of Object.keys(doc.components.schemas)) {
      expect(() => ajv.compile({ $ref: `openapi#/components/schemas/${name}` }), name).not.toThrow();
    }
  });

  it("spells nullable one way and carries the server's limits", () => {
    const typeArraysWithNull: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (Array.isArray(node)) node.forEach((item, i) => walk(item, `${at}/${i}`));
      else if (node && typeof node === "object") {
        const { type, enum: values } = node as { type?: unknown; enum?: unknown[] };
        if ((Array.isArray(type) && type.includes("null")) || values?.includes(null)) typeArraysWithNull.push(at);
        for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`);
      }
    };
    walk(doc, "#");
    expect(typeArraysWithNull).toEqual([]);
    const schemas = doc.components.schemas as Record<string, { properties: Record<string, Record<string, unknown>> }>;
    const content = schemas.SetDeckContentRequest!.properties;
    expect(content.source).toMatchObject({ maxLength: 1024 * 1024, "x-maxBytes": 1024 * 1024 });
    expect(content.tokensCss!.anyOf).toEqual([
      expect.objectContaining({ maxLength: 64 * 1024, "x-maxBytes": 64 * 1024 }),
      { type: "null" },
    ]);
    expect(schemas.ImportDeckRequest!.properties.markdown).toMatchObject({ maxLength: 1024 * 1024 });
    expect(schemas.UploadAssetRequest!.properties.data!.maxLength).toBeGreaterThan(0);
  });

  it("matches what the API really sends, success and error alike", async () => {
    const key = user.key;
    expectConforms("get_authoring_instructions", await call("GET", "/instructions", { key }));
    expectConforms("list_decks", await call("GET", "/decks", { key }));
    const created = await call("POST", "/decks", { key, body: { title: "Conformance" } });
    expectConforms("create_deck", created);
    const id = created.body.id as string;
    expectConforms("get_deck", await call("GET", `/decks/${id}`, { key }));
    expectConforms("set_deck_content", await call("PUT", `/decks/${id}/content`, { key, body: { source: "" } }));
    expectConforms(
      "set_deck_content",
      await call("PUT", `/decks/${id}/content`, { key, body: { source: deckSource(["One", "Two"]), prompt: "v1" } }),
    );
    expectConforms(
      "set_deck_content",
      await call("PUT", `/decks/${id}/content`, { key, body: { source: deckSource() } }),
    );
    expectConforms("update_deck", await call("PATCH", `/decks/${id}`, { key, body: { visibility: "public" } }));
    expectConforms("get_deck", await call("GET", `/decks/${id}`, { key }));
    expectConforms("list_decks", await call("GET", "/decks?scope=org", { key }));
    expectConforms("list_deck_versions", await call("GET", `/decks/${id}/versions`, { key }));
    expectConforms("get_deck_version", await call("GET", `/decks/${id}/versions/1`, { key }));
    expectConforms("get_deck_version", await call("GET", `/decks/${id}/versions/9`, { key }));
    expectConforms("revert_deck_version", await call("POST", `/decks/${id}/versions/1/revert`, { key }));
    expectConforms(
      "edit_deck",
      await call("POST", `/decks/${id}/edit`, { key, body: { instruction: '"One" → "Uno"' } }),
    );

    const queued = await call("POST", `/decks/${id}/exports`, { key, body: { format: "pdf" } });
    expectConforms("create_export", queued);
    expectConforms("download_export", await call("GET", `/exports/${queued.body.id}/download`, { key }));
    await waitForExport(user, queued.body.id);
    expectConforms("get_export", await call("GET", `/exports/${queued.body.id}`, { key }));
    expectConforms("download_export", await call("GET", `/exports/${queued.body.id}/download`, { key }));

    expectConforms("list_brands", await call("GET", "/brands", { key }));
    expectConforms("create_brand_from_url", await call("POST", "/brands", { key, body: { url: "not a url" } }));
    expectConforms("get_brand", await call("GET", `/brands/${crypto.randomUUID()}`, { key }));
    expectConforms("get_deck", await call("GET", `/decks/${id}`, { key: "dk_wrong" }));
    expectConforms("delete_deck", await call("DELETE", `/decks/${id}`, { key }));
  }, 120_000);
});
