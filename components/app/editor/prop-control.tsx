"use client";

import { type ReactNode, useId } from "react";
import {
  attributeExpression,
  type ElementProp,
  readLiteral,
  type SlideElement,
  setArrayProp,
  setProp,
} from "@/lib/source/transform/props";
import type { PropSpec } from "@/lib/source/component-specs";
import { CodeOnly, CommitInput, GridEditor, ListEditor } from "./inspector-fields";
import { propLabel } from "./plain-words";

// One prop of the inspector's element, with a control generated from the vocabulary (lib/source/component-specs.ts):
// a list of values is a select, a boolean a switch, a string a text field, a number a number field, a list
// of strings an editable list, Table rows, a chart's values and series and any list of records (a
// Timeline's milestones) an editable grid. Labels are plain words (plain-words.ts), the prop's own name
// small beside them. A prop written as code the inspector cannot read (a variable, a call) is left to the
// code editor.

type Apply = (change: (source: string) => string) => boolean;

export function PropControl({
  spec,
  source,
  element,
  apply,
}: {
  spec: PropSpec;
  source: string;
  element: SlideElement;
  apply: Apply;
}) {
  const id = useId();
  const current: ElementProp | undefined = element.props.filter((prop) => prop.name === spec.name).at(-1);
  const set = (value: string | number | boolean | null) =>
    apply((text) => setProp(text, { start: element.start, name: spec.name, value }));
  const setArray = (value: unknown[]) =>
    apply((text) => setArrayProp(text, { start: element.start, name: spec.name, value }));
  const words = propLabel(element.name, spec.name);
  const label = (
    <label htmlFor={id} className="block text-xs font-medium text-zinc-700" title={spec.doc}>
      {words}
      {words !== spec.name && <span className="ml-1 font-mono text-[10px] font-normal text-zinc-400">{spec.name}</span>}
      {spec.required ? <span className="text-zinc-400"> (required)</span> : null}
    </label>
  );
  const isCode = current?.kind === "expression";
  const literal = isCode ? readLiteral(attributeExpression(source.slice(current.start, current.end)) ?? "") : undefined;
  const field = (control: ReactNode) => (
    <div className="space-y-1">
      {label}
      {control}
    </div>
  );

  if (spec.values) {
    const value = current && current.kind !== "expression" ? String(current.value) : "";
    return field(
      <select
        id={id}
        value={value}
        disabled={isCode}
        onChange={(event) => {
          const chosen = spec.values!.find((option) => String(option) === event.target.value);
          set(chosen ?? null);
        }}
        className="w-full rounded py-1 pl-2 text-sm ring-1 ring-zinc-300"
      >
        <option value="">(default)</option>
        {spec.values.map((option) => (
          <option key={String(option)} value={String(option)}>
            {String(option)}
          </option>
        ))}
      </select>,
    );
  }
  if (spec.type === "boolean") {
    const fallback = /Default true/i.test(spec.doc);
    const on = current && current.kind === "boolean" ? current.value === true : fallback;
    return (
      <div className="flex items-center justify-between gap-2">
        {label}
        <button
          id={id}
          type="button"
          role="switch"
          aria-checked={on}
          disabled={isCode}
          onClick={() => set(!on)}
          className={`relative h-5 w-9 shrink-0 rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-accent ${on ? "bg-accent" : "bg-zinc-300"}`}
        >
          <span
            className={`absolute top-0.5 h-4 w-4 rounded-full bg-white shadow transition-all ${on ? "left-4.5" : "left-0.5"}`}
          />
        </button>
      </div>
    );
  }
  if (spec.type === "string" || spec.type === "number") {
    const value = current && current.kind !== "expression" && current.value !== null ? String(current.value) : "";
    return field(
      <CommitInput
        id={id}
        type={spec.type === "number" ? "number" : "text"}
        value={value}
        disabled={isCode}
        onCommit={(text) => {
          if (text === "") return set(null);
          if (spec.type === "number") {
            const number = Number(text);
            if (Number.isFinite(number)) set(number);
            return;
          }
          set(text);
        }}
      />,
    );
  }
  const readable = current === undefined || literal !== undefined;
  if (!readable) return field(<CodeOnly id={id} />);
  const grid = arrayControl({ id, words, spec, literal: current ? literal : [], element, source, setArray });
  return field(grid ?? <CodeOnly id={id} />);
}

/** The control of a list prop, or null when its value is not a list of the shape its type says. */
function arrayControl({
  id,
  words,
  spec,
  literal,
  element,
  source,
  setArray,
}: {
  id: string;
  words: string;
  spec: PropSpec;
  literal: unknown;
  element: SlideElement;
  source: string;
  setArray: (value: unknown[]) => boolean;
}): ReactNode {
  if (!Array.isArray(literal)) return null;
  // A flat list of points (Bullets' items take sub-point arrays too: those lists stay in the code).
  if (
    spec.type === "string[]" ||
    (spec.type === "(string | string[])[]" && literal.every((item) => !Array.isArray(item)))
  ) {
    return <ListEditor id={id} name={words} items={literal.map(String)} onChange={(next) => setArray(next)} />;
  }
  if (spec.type === "(string | number)[][]" || spec.type.startsWith("(string | number | JSX.Element)[][]")) {
    if (!literal.every(Array.isArray)) return null;
    const rows = literal as unknown[][];
    if (rows.some((row) => row.some((cell) => typeof cell === "object" && cell !== null))) return null;
    const columns = literalOf(element, source, "columns");
    return (
      <GridEditor
        id={id}
        name={words}
        headers={Array.isArray(columns) ? columns.map(String) : (rows[0] ?? []).map((_, at) => `Column ${at + 1}`)}
        rows={rows.map((row) => row.map((cell) => String(cell ?? "")))}
        numeric
        onChange={(next) => setArray(next)}
      />
    );
  }
  if (spec.name === "series" && spec.type.startsWith("{ name: string; values: number[] }")) {
    // One row per series: its name, then one value per category (the chart's `labels`).
    const series = literal as { name?: unknown; values?: unknown }[];
    const labels = literalOf(element, source, "labels");
    const width = Math.max(0, ...series.map((entry) => (Array.isArray(entry.values) ? entry.values.length : 0)));
    const categories = Array.isArray(labels)
      ? labels.map(String)
      : Array.from({ length: width }, (_, at) => `Value ${at + 1}`);
    return (
      <GridEditor
        id={id}
        name={words}
        headers={["Name", ...categories]}
        rows={series.map((entry) => [
          String(entry.name ?? ""),
          ...categories.map((_, at) => String((Array.isArray(entry.values) ? entry.values[at] : "") ?? "")),
        ])}
        onChange={(next) =>
          setArray(
            next.map(([name, ...values]) => ({
              name: String(name ?? ""),
              values: values.map((value) => Number(value) || 0),
            })),
          )
        }
      />
    );
  }
  // A list of records with plain fields ("{ date: string; title: string; detail?: string }[]"): a grid
  // with a column per field; an empty optional field is left out of its record.
  const fields = [...spec.type.matchAll(/(\w+)(\??):\s*(string|number)\s*[;}]/g)].map((match) => ({
    key: match[1]!,
    optional: match[2] === "?",
    number: match[3] === "number",
  }));
  if (!spec.type.startsWith("{") || fields.length === 0) return null;
  const records = literal as Record<string, unknown>[];
  if (!records.every((record) => typeof record === "object" && record !== null && !Array.isArray(record))) return null;
  const known = new Set(fields.map((entry) => entry.key));
  if (records.some((record) => Object.keys(record).some((key) => !known.has(key)))) return null;
  return (
    <GridEditor
      id={id}
      name={words}
      headers={fields.map((entry) => entry.key)}
      rows={records.map((record) => fields.map((entry) => String(record[entry.key] ?? "")))}
      onChange={(next) =>
        setArray(
          next.map((row) =>
            Object.fromEntries(
              fields.flatMap((entry, at) => {
                const text = String(row[at] ?? "");
                if (entry.optional && text.trim() === "") return [];
                return [[entry.key, entry.number ? Number(text) || 0 : text]];
              }),
            ),
          ),
        )
      }
    />
  );
}

function literalOf(element: SlideElement, source: string, name: string): unknown {
  const prop = element.props.filter((candidate) => candidate.name === name).at(-1);
  if (!prop) return undefined;
  return readLiteral(attributeExpression(source.slice(prop.start, prop.end)) ?? "");
}
