import type { Metadata } from "next";
import type { ReactNode } from "react";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { config } from "@/lib/core/config";
import styles from "./reference.module.css";

// /docs/api — the API reference, rendered on the server from the same OpenAPI document the API serves.

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API reference · Deckhand" };

type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
};
type Parameter = { name: string; in: string; required: boolean; description?: string; schema: Schema };
type Operation = {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  "x-rate-limit-class"?: string;
  parameters: Parameter[];
  requestBody?: { required: boolean; content: { "application/json": { schema: Schema } } };
  responses: Record<string, { $ref?: string; description?: string; content?: Record<string, { schema: Schema }> }>;
};

const refName = (ref: string) => ref.slice(ref.lastIndexOf("/") + 1);

function TypeLabel({ schema }: { schema: Schema }): ReactNode {
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return <a href={`#schema-${name}`}>{name}</a>;
  }
  if (schema.anyOf) {
    return schema.anyOf.map((s, i) => (
      <span key={i}>
        {i > 0 && " or "}
        <TypeLabel schema={s} />
      </span>
    ));
  }
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ["any"];
  return types
    .map((t) =>
      t === "array" && schema.items ? (
        <span key={t}>
          array of <TypeLabel schema={schema.items} />
        </span>
      ) : (
        t
      ),
    )
    .map((t, i) => (
      <span key={i}>
        {i > 0 && " or "}
        {t}
        {i === 0 && schema.format ? ` (${schema.format})` : ""}
      </span>
    ));
}

function constraints(schema: Schema): string {
  const inner = schema.anyOf?.find((s) => s.type !== "null") ?? schema;
  const notes: string[] = [];
  if (inner.minLength !== undefined && inner.maxLength !== undefined)
    notes.push(`${inner.minLength} to ${inner.maxLength} characters`);
  else if (inner.maxLength !== undefined) notes.push(`at most ${inner.maxLength} characters`);
  else if (inner.minLength) notes.push(`at least ${inner.minLength} character${inner.minLength > 1 ? "s" : ""}`);
  if (inner.minimum !== undefined) notes.push(`≥ ${inner.minimum}`);
  if (inner.exclusiveMinimum !== undefined) notes.push(`> ${inner.exclusiveMinimum}`);
  if (inner.maximum !== undefined) notes.push(`≤ ${inner.maximum}`);
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  return notes.join(", ");
}

function FieldTable({ rows }: { rows: { name: string; schema: Schema; required: boolean; description?: string }[] }) {
  if (rows.length === 0) return null;
  return (
    <table className={styles.fields}>
      <thead>
        <tr>
          <th>Field</th>
          <th>Type</th>
          <th>Notes</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.name}>
            <td>
              <code>{row.name}</code>
              {row.required && <span className={styles.required}>required</span>}
            </td>
            <td className={styles.type}>
              <TypeLabel schema={row.schema} />
            </td>
            <td>{[row.description ?? row.schema.description, constraints(row.schema)].filter(Boolean).join(" · ")}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function objectRows(schema: Schema) {
  return Object.entries(schema.properties ?? {}).map(([name, s]) => ({
    name,
    schema: s,
    required: (schema.required ?? []).includes(name),
  }));
}

function curlExample(base: string, method: string, path: string, op: Operation, schemas: Record<string, Schema>) {
  const lines = [
    `curl${method === "get" ? "" : ` -X ${method.toUpperCase()}`} "${base}${path.replace(/\{(\w+)\}/g, (_, n: string) => `<${n}>`)}"`,
  ];
  lines.push(`  -H "Authorization: Bearer $DECKHAND_KEY"`);
  const body = op.requestBody?.content["application/json"].schema;
  if (body?.$ref) {
    const schema = schemas[refName(body.$ref)]!;
    const example = Object.fromEntries(
      (
        schema.required ?? ["title" in (schema.properties ?? {}) ? "title" : Object.keys(schema.properties ?? {})[0]!]
      ).map((name) => {
        const field = schema.properties![name]!;
        return [
          name,
          field.enum?.[0] ?? (field.type === "boolean" ? true : field.format === "uri" ? "https://example.com" : "…"),
        ];
      }),
    );
    lines.push(`  -H "Content-Type: application/json"`, `  -d '${JSON.stringify(example)}'`);
  }
  return lines.join(" \\\n");
}

export default function ApiReferencePage() {
  const base = `${config.appUrl}/api/v1`;
  const doc = buildOpenApiDocument(base);
  const schemas = doc.components.schemas as Record<string, Schema>;
  const responses = doc.components.responses as Record<string, { description: string }>;
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, Operation>).map(([method, op]) => ({ path, method, op })),
  );

  const errorStatuses = new Map(
    operations
      .flatMap(({ op }) => Object.entries(op.responses))
      .filter(([, response]) => response.$ref)
      .map(([status, response]) => [status, refName(response.$ref!)] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );

  return (
    <div className={styles.page}>
      <nav className={styles.nav} aria-label="API reference">
        <a className={styles.brand} href="/">
          Deckhand
        </a>
        <a href="#overview">Overview</a>
        {doc.tags.map((tag) => (
          <div key={tag.name}>
            <h2>{tag.name}</h2>
            <ul>
              {operations
                .filter(({ op }) => op.tags[0] === tag.name)
                .map(({ op, method }) => (
                  <li key={op.operationId}>
                    <a href={`#${op.operationId}`}>
                      <span className={styles[method]}>{method.toUpperCase()}</span> {op.summary}
                    </a>
                  </li>
                ))}
            </ul>
          </div>
        ))}
        <h2>Reference</h2>
        <ul>
          <li>
            <a href="#schemas">Schemas</a>
          </li>
          <li>
            <a href="#errors">Errors</a>
          </li>
          <li>
            <a href="/api/v1/openapi.json">openapi.json</a>
          </li>
        </ul>
      </nav>

      <main className={styles.main}>
        <section id="overview">
          <h1>{doc.info.title}</h1>
          <p className={styles.lede}>
            Version {doc.info.version} · base URL <code>{base}</code> · OpenAPI 3.1 document at{" "}
            <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>
          </p>
          {doc.info.description
            .split("\n")
            .filter(Boolean)
            .map((line, i) => (
              <p key={i}>{line}</p>
            ))}
        </section>

        {operations.map(({ path, method, op }) => {
          const pathParams = op.parameters.filter((p) => p.in === "path");
          const queryParams = op.parameters.filter((p) => p.in === "query");
          const body = op.requestBody?.content["application/json"].schema;
          return (
            <section key={op.operationId} id={op.operationId} className={styles.operation}>
              <h2>
                {op.summary} <code className={styles.opid}>{op.operationId}</code>
              </h2>
              <p className={styles.endpoint}>
                <span className={styles[method]}>{method.toUpperCase()}</span> <code>{path}</code>
                {op["x-rate-limit-class"] === "slow" && <span className={styles.badge}>slow rate-limit class</span>}
              </p>
              <p>{op.description}</p>
              {pathParams.length > 0 && (
                <>
                  <h3>Path parameters</h3>
                  <FieldTable rows={pathParams} />
                </>
              )}
              {queryParams.length > 0 && (
                <>
                  <h3>Query parameters</h3>
                  <FieldTable rows={queryParams} />
                </>
              )}
              {body?.$ref && (
                <>
                  <h3>Body {op.requestBody?.required ? "" : "(optional)"}</h3>
                  <FieldTable rows={objectRows(schemas[refName(body.$ref)]!)} />
                </>
              )}
              <h3>Responses</h3>
              <ul className={styles.responses}>
                {Object.entries(op.responses).map(([status, response]) => {
                  const schema = response.content?.["application/json"]?.schema;
                  return (
                    <li key={status}>
                      <strong>{status}</strong>{" "}
                      {response.$ref ? (
                        <a href="#errors">{responses[refName(response.$ref)]!.description}</a>
                      ) : (
                        <>
                          {response.description} {schema && <TypeLabel schema={schema} />}
                          {!schema && response.content && <code>{Object.keys(response.content).join(" or ")}</code>}
                        </>
                      )}
                    </li>
                  );
                })}
              </ul>
              <pre className={styles.example}>{curlExample(base, method, path, op, schemas)}</pre>
            </section>
          );
        })}

        <section id="schemas">
          <h2>Schemas</h2>
          {Object.entries(schemas)
            .filter(([, schema]) => schema.properties)
            .map(([name, schema]) => (
              <div key={name} id={`schema-${name}`} className={styles.schema}>
                <h3>{name}</h3>
                <FieldTable rows={objectRows(schema)} />
              </div>
            ))}
        </section>

        <section id="errors">
          <h2>Errors</h2>
          <p>
            Every error is JSON: <code>{`{ "error": { "code", "message", "featureId"? } }`}</code>. The code is stable;
            the message says what to change.
          </p>
          <table className={styles.fields}>
            <tbody>
              {[...errorStatuses].map(([status, name]) => (
                <tr key={status}>
                  <td>
                    <strong>{status}</strong>
                  </td>
                  <td>{responses[name]!.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </main>
    </div>
  );
}
