import { beforeAll, describe, expect, it } from "vitest";
import { call, createUser, type TestUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { deckSource } from "../helpers/decks";

// Contract fuzzing: every operation of the OpenAPI document gets a battery of bad inputs generated from the
// document itself (wrong types, missing fields, oversize strings, unknown fields, bad UUIDs, non-positive
// versions, malformed JSON). Each must be answered with a 4xx JSON error in the spec's shape, never a 500,
// and none may change anything.

type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
};
type Parameter = { name: string; in: "path" | "query"; required: boolean; schema: Schema };
type Operation = {
  operationId: string;
  parameters: Parameter[];
  requestBody?: { required: boolean; content: { "application/json": { schema: Schema } } };
};
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };
type Case = { name: string; path: Record<string, string>; query: string; body?: unknown; rawBody?: string };

let doc: Doc;
let user: TestUser;
let deckId: string;

beforeAll(async () => {
  await setUpTestDatabase();
  user = await createUser();
  doc = (await call("GET", "/openapi.json")).body;
  const deck = await call("POST", "/decks", { key: user.key, body: { title: "Fuzz target" } });
  deckId = deck.body.id;
  expect(
    (await call("PUT", `/decks/${deckId}/content`, { key: user.key, body: { source: deckSource() } })).status,
  ).toBe(200);
});

const resolve = (schema: Schema): Schema =>
  schema.$ref ? doc.components.schemas[schema.$ref.split("/").at(-1)!]! : schema;

const types = (schema: Schema): string[] =>
  schema.anyOf
    ? schema.anyOf.flatMap(types)
    : Array.isArray(schema.type)
      ? schema.type
      : schema.type
        ? [schema.type]
        : [];

// A value the schema accepts: the baseline each case breaks in exactly one place.
function validValue(name: string, schema: Schema): unknown {
  const s = schema.anyOf?.find((option) => option.type !== "null") ?? schema;
  if (s.enum) return s.enum[0];
  if (s.const !== undefined) return s.const;
  if (s.format === "uuid") return name === "id" ? deckId : crypto.randomUUID();
  if (s.format === "uri") return "http://127.0.0.1:9/site";
  if (types(s).includes("integer")) return 1;
  if (types(s).includes("boolean")) return true;
  if (name === "source") return deckSource(["Fuzzed"]);
  return "text";
}

// Values of the wrong type for a schema, and values that break its bounds.
function badValues(schema: Schema): { label: string; value: unknown }[] {
  const t = types(schema);
  const s = schema.anyOf?.find((option) => option.type !== "null") ?? schema;
  const bad: { label: string; value: unknown }[] = [
    { label: "an object", value: { nested: true } },
    { label: "an array", value: ["x"] },
  ];
  if (!t.includes("string")) bad.push({ label: "a string", value: "7" });
  if (!t.includes("integer") && !t.includes("number")) bad.push({ label: "a number", value: 7 });
  if (!t.includes("boolean")) bad.push({ label: "a boolean", value: false });
  if (!t.includes("null")) bad.push({ label: "null", value: null });
  if (s.maxLength !== undefined) bad.push({ label: "one character too long", value: "x".repeat(s.maxLength + 1) });
  if (s.minLength) bad.push({ label: "empty", value: "" });
  if (s.enum) bad.push({ label: "not one of the values", value: "no-such-value" });
  if (s.format === "uuid") bad.push({ label: "a bad UUID", value: "not-a-uuid" });
  if (s.format === "uri") bad.push({ label: "not a URL", value: "not a url" });
  if (t.includes("integer")) {
    bad.push({ label: "negative", value: -1 }, { label: "zero", value: 0 }, { label: "fractional", value: 1.5 });
    bad.push({ label: "huge", value: 2 ** 53 });
  }
  return bad;
}

const badPathValues = (schema: Schema) =>
  schema.format === "uuid"
    ? ["not-a-uuid", "123", "00000000-0000-0000-0000-00000000000g", "%27%20or%201%3D1--"]
    : ["0", "-1", "1.5", "abc", "99999999999", "1e3"];

function cases(op: Operation): Case[] {
  const pathParams = op.parameters.filter((p) => p.in === "path");
  const queryParams = op.parameters.filter((p) => p.in === "query");
  const validPath = Object.fromEntries(pathParams.map((p) => [p.name, String(validValue(p.name, p.schema))]));
  const bodySchema = op.requestBody ? resolve(op.requestBody.content["application/json"].schema) : undefined;
  const validBody = bodySchema
    ? Object.fromEntries((bodySchema.required ?? []).map((n) => [n, validValue(n, bodySchema.properties![n]!)]))
    : undefined;
  const base = { path: validPath, query: "", body: validBody };
  const list: Case[] = [];

  for (const p of pathParams) {
    for (const value of badPathValues(p.schema)) {
      list.push({ ...base, name: `path ${p.name}=${value}`, path: { ...validPath, [p.name]: value } });
    }
  }
  list.push({ ...base, name: "an unknown query parameter", query: "?bogus=1" });
  for (const p of queryParams) {
    list.push({ ...base, name: `query ${p.name} not one of its values`, query: `?${p.name}=no-such-value` });
    list.push({ ...base, name: `query ${p.name} given twice`, query: `?${p.name}=a&${p.name}=b` });
  }
  if (bodySchema) {
    list.push({ ...base, name: "a body that is not JSON", body: undefined, rawBody: '{"source": ' });
    for (const value of [[], "text", 42, null, true]) {
      list.push({ ...base, name: `a body that is ${JSON.stringify(value)}`, body: value });
    }
    list.push({ ...base, name: "an unknown field", body: { ...validBody, bogus: 1 } });
    for (const name of bodySchema.required ?? []) {
      const { [name]: _missing, ...rest } = validBody!;
      list.push({ ...base, name: `missing ${name}`, body: rest });
    }
    for (const [name, schema] of Object.entries(bodySchema.properties ?? {})) {
      for (const { label, value } of badValues(schema)) {
        list.push({ ...base, name: `${name} ${label}`, body: { ...validBody, [name]: value } });
      }
    }
  }
  return list;
}

describe("bad input from the OpenAPI document", () => {
  it("gets a 4xx JSON error on every operation, never a 500, and changes nothing", async () => {
    const before = (await call("GET", `/decks/${deckId}`, { key: user.key })).body;
    let sent = 0;
    const failures: string[] = [];
    for (const [template, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        // The MCP endpoint answers in JSON-RPC's error shape; tests/integration/mcp.test.ts covers it.
        if (op.operationId === "mcp") continue;
        for (const c of cases(op)) {
          const p = template.replace(/\{(\w+)\}/g, (_, name: string) => c.path[name]!);
          const res = await call(method.toUpperCase(), p + c.query, {
            key: user.key,
            body: c.body,
            rawBody: c.rawBody,
          });
          sent++;
          const ok =
            res.status >= 400 &&
            res.status < 500 &&
            res.headers.get("content-type")?.startsWith("application/json") &&
            typeof res.body?.error?.code === "string" &&
            typeof res.body?.error?.message === "string" &&
            res.body.error.message.length > 0;
          if (!ok) failures.push(`${op.operationId} with ${c.name}: ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(250);

    // Nothing was written: the deck, its versions and the organization's brands and exports are as before.
    const after = (await call("GET", `/decks/${deckId}`, { key: user.key })).body;
    expect(after).toEqual(before);
    expect((await call("GET", "/brands", { key: user.key })).body).toEqual([]);
    expect((await call("GET", "/decks", { key: user.key })).body).toHaveLength(1);
  }, 120_000);

  it("answers every operation without a key with 401 JSON", async () => {
    for (const [template, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods)) {
        const p = template.replace("{id}", deckId).replace("{version}", "1");
        const res = await call(method.toUpperCase(), p, { key: null });
        expect(res.status, `${method} ${p}`).toBe(401);
        expect(res.body.error.code).toBe("unauthorized");
      }
    }
  });
});
