"use client";

import { useId, useMemo, useState } from "react";
import type { DeckFormat } from "@/lib/contract/deck";
import {
  attributeExpression,
  elementsOfSlide,
  type ElementProp,
  readLiteral,
  type SlideElement,
  setArrayProp,
  setProp,
} from "@/lib/deck/source/props";
import { removeElement } from "@/lib/deck/source/elements";
import { findText } from "@/lib/deck/source/text";
import { type PropSpec, vocabulary } from "@/lib/deck/vocabulary";
import { ImageSource } from "./image-source";
import type { Selection } from "./use-visual-edits";

// The inspector: the props of one element of the slide on screen, with a control per prop generated from
// the vocabulary (lib/deck/vocabulary.ts): a list of values is a select, a boolean a switch, a string a text
// field, a number a number field, Bullets items (and other string lists) an editable list, Table rows and
// Chart data an editable grid, an Image's src the organization's images (image-source.tsx). Each change is
// a function of lib/deck/source applied as one undoable step; a prop written as code the inspector cannot
// read (a variable, a call) is left to the code editor.

type Apply = (change: (source: string) => string) => boolean;

export function Inspector({
  format,
  source,
  slide,
  selection,
  apply,
  onError,
}: {
  format: DeckFormat;
  source: string;
  /** 0-based, the slide on screen. */
  slide: number;
  selection: Selection | null;
  apply: Apply;
  /** An upload refused (too large, not an image…). */
  onError: (message: string) => void;
}) {
  const elements = useMemo(() => {
    try {
      return elementsOfSlide(source, format, slide);
    } catch {
      return [] as SlideElement[];
    }
  }, [source, format, slide]);
  // The element clicked on the preview, found in the source again after every change.
  const selected = useMemo(() => {
    if (!selection || selection.slide !== slide) return -1;
    const place = selection.item ?? selection.element;
    if (place) {
      // A chart label, a Timeline item or an Image: its element is the index-th of its component on the
      // slide, when the slide's code writes as many of them as the preview drew.
      const own = elements.flatMap((element, at) => (element.name === selection.component ? [at] : []));
      return own.length === place.count ? (own[place.index] ?? -1) : -1;
    }
    try {
      const found = findText(source, format, selection);
      let best = -1;
      elements.forEach((element, index) => {
        if (element.name !== selection.component) return;
        if (element.start > found.start || element.end < found.end) return;
        if (best < 0 || element.end - element.start < elements[best]!.end - elements[best]!.start) best = index;
      });
      if (best >= 0) return best;
    } catch {
      // not placeable: the first element of its kind
    }
    return elements.findIndex((element) => element.name === selection.component);
  }, [elements, format, selection, slide, source]);
  // A pick in the inspector's own list wins until the next click on the preview.
  const [picked, setPicked] = useState<{ selection: Selection | null; slide: number; index: number } | null>(null);
  const index = picked && picked.selection === selection && picked.slide === slide ? picked.index : selected;
  const element = index >= 0 ? elements[index] : undefined;
  const spec = element ? vocabulary.find((component) => component.name === element.name) : undefined;
  const pickerId = useId();
  // Remove (the button, or Delete on the element list): the element and what it holds, one undoable step;
  // nothing is selected afterwards.
  const remove = () => {
    if (!element) return;
    if (apply((now) => removeElement(now, format, { slide, start: element.start }))) {
      setPicked({ selection, slide, index: -1 });
    }
  };

  return (
    <section
      aria-labelledby={`${pickerId}-heading`}
      className="rounded-lg bg-white p-3 text-sm shadow-sm ring-1 ring-zinc-200"
      data-testid="inspector"
    >
      <h2 id={`${pickerId}-heading`} className="mb-2 text-xs font-semibold tracking-wide text-zinc-500 uppercase">
        Inspector
      </h2>
      {elements.length === 0 ? (
        <p className="text-zinc-600">This slide has no elements the inspector can edit.</p>
      ) : (
        <div className="space-y-3">
          <div className="flex items-center gap-2">
            <label htmlFor={pickerId} className="text-xs font-medium text-zinc-700">
              Element
            </label>
            <select
              id={pickerId}
              value={index}
              onChange={(event) => setPicked({ selection, slide, index: Number(event.target.value) })}
              onKeyDown={(event) => {
                if (event.key !== "Delete" || !element) return;
                event.preventDefault();
                remove();
              }}
              className="min-w-0 flex-1 rounded py-1 pl-2 text-sm ring-1 ring-zinc-300"
            >
              <option value={-1}>Click text on the slide, or pick one</option>
              {elements.map((candidate, at) => (
                <option key={`${at}-${candidate.start}`} value={at}>
                  {candidate.name} {describe(candidate)}
                </option>
              ))}
            </select>
            {element && (
              <button
                type="button"
                onClick={remove}
                aria-label={`Remove ${element.name} ${describe(element)}`.trim()}
                title="Remove from the slide (Delete)"
                className="rounded px-2 py-1 text-xs font-medium text-red-700 ring-1 ring-zinc-300 hover:bg-red-50"
              >
                Remove
              </button>
            )}
          </div>
          {element && spec && (
            <div className="space-y-2.5" data-component={element.name}>
              {element.name === "Image" && (
                <ImageSource key={element.start} element={element} apply={apply} onError={onError} />
              )}
              {spec.props.map((prop) => (
                <PropControl
                  key={`${element.start}-${prop.name}`}
                  spec={prop}
                  source={source}
                  element={element}
                  apply={apply}
                />
              ))}
            </div>
          )}
        </div>
      )}
    </section>
  );
}

// A few words that tell elements of one kind apart in the list: their first string prop.
function describe(element: SlideElement): string {
  const text = element.props.find((prop) => prop.kind === "string" && typeof prop.value === "string")?.value;
  return typeof text === "string" ? `“${text.length > 24 ? `${text.slice(0, 23)}…` : text}”` : "";
}

function PropControl({
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
  const label = (
    <label htmlFor={id} className="block text-xs font-medium text-zinc-700">
      {spec.name}
      {spec.required ? <span className="text-zinc-400"> (required)</span> : null}
    </label>
  );
  const isCode = current?.kind === "expression";
  const literal = isCode ? readLiteral(attributeExpression(source.slice(current.start, current.end)) ?? "") : undefined;

  if (spec.values) {
    const value = current && current.kind !== "expression" ? String(current.value) : "";
    return (
      <div className="space-y-1">
        {label}
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
        </select>
      </div>
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
          className={`relative h-5 w-9 rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-accent ${on ? "bg-accent" : "bg-zinc-300"}`}
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
    return (
      <div className="space-y-1">
        {label}
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
        />
      </div>
    );
  }
  if (spec.type === "string[]") {
    const items = current === undefined ? [] : Array.isArray(literal) ? literal.map(String) : null;
    return (
      <div className="space-y-1">
        {label}
        {items === null ? (
          <CodeOnly id={id} />
        ) : (
          <ListEditor id={id} name={spec.name} items={items} onChange={(next) => setArray(next)} />
        )}
      </div>
    );
  }
  if (spec.type === "(string | number)[][]") {
    const rows =
      Array.isArray(literal) && literal.every(Array.isArray) ? (literal as unknown[][]) : current ? null : [];
    const columns = columnsOf(element, source);
    return (
      <div className="space-y-1">
        {label}
        {rows === null ? (
          <CodeOnly id={id} />
        ) : (
          <GridEditor
            id={id}
            name={spec.name}
            headers={columns ?? (rows[0] ?? []).map((_, at) => `Column ${at + 1}`)}
            rows={rows.map((row) => row.map((cell) => String(cell ?? "")))}
            numeric
            onChange={(next) => setArray(next)}
          />
        )}
      </div>
    );
  }
  if (spec.name === "data" && spec.type.startsWith("{ label: string; value: number }")) {
    const points =
      Array.isArray(literal) && literal.every((point) => typeof point === "object" && point !== null)
        ? (literal as { label?: unknown; value?: unknown }[])
        : current
          ? null
          : [];
    return (
      <div className="space-y-1">
        {label}
        {points === null ? (
          <CodeOnly id={id} />
        ) : (
          <GridEditor
            id={id}
            name={spec.name}
            headers={["label", "value"]}
            rows={points.map((point) => [String(point.label ?? ""), String(point.value ?? "")])}
            numeric
            onChange={(next) =>
              setArray(next.map(([text, value]) => ({ label: String(text ?? ""), value: Number(value ?? 0) || 0 })))
            }
          />
        )}
      </div>
    );
  }
  return (
    <div className="space-y-1">
      {label}
      <CodeOnly id={id} />
    </div>
  );
}

function columnsOf(element: SlideElement, source: string): string[] | null {
  const prop = element.props.filter((candidate) => candidate.name === "columns").at(-1);
  if (!prop) return null;
  const value = readLiteral(attributeExpression(source.slice(prop.start, prop.end)) ?? "");
  return Array.isArray(value) ? value.map(String) : null;
}

// A number-looking cell is written as a number, as a person writing the table would.
function toCell(text: string): string | number {
  return /^-?(\d+\.?\d*|\.\d+)$/.test(text.trim()) ? Number(text.trim()) : text;
}

function CodeOnly({ id }: { id: string }) {
  return (
    <output id={id} className="block text-xs text-zinc-500">
      Written as code: edit it in the source.
    </output>
  );
}

// A field that writes on Enter or when it loses focus (one undo step per change, not per keystroke).
function CommitInput({
  id,
  value,
  onCommit,
  type = "text",
  disabled,
  label,
}: {
  id?: string;
  value: string;
  onCommit: (value: string) => void;
  type?: "text" | "number";
  disabled?: boolean;
  label?: string;
}) {
  const [draft, setDraft] = useState<{ from: string; text: string } | null>(null);
  const text = draft && draft.from === value ? draft.text : value;
  const commit = () => {
    if (draft && draft.from === value && draft.text !== value) onCommit(draft.text);
    setDraft(null);
  };
  return (
    <input
      id={id}
      type={type}
      value={text}
      disabled={disabled}
      aria-label={label}
      onChange={(event) => setDraft({ from: value, text: event.target.value })}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === "Enter") {
          event.preventDefault();
          commit();
        } else if (event.key === "Escape") {
          setDraft(null);
        }
      }}
      className="w-full min-w-0 rounded px-2 py-1 text-sm ring-1 ring-zinc-300 focus:ring-2 focus:ring-accent focus:outline-none disabled:bg-zinc-50"
    />
  );
}

function ListEditor({
  id,
  name,
  items,
  onChange,
}: {
  id: string;
  name: string;
  items: string[];
  onChange: (items: string[]) => void;
}) {
  return (
    <div id={id} role="group" aria-label={name} className="space-y-1">
      <ol className="space-y-1">
        {items.map((item, at) => (
          <li key={at} className="flex items-center gap-1">
            <CommitInput
              label={`${name} ${at + 1}`}
              value={item}
              onCommit={(text) => onChange(items.map((old, k) => (k === at ? text : old)))}
            />
            <button
              type="button"
              aria-label={`Remove ${name} ${at + 1}`}
              onClick={() => onChange(items.filter((_, k) => k !== at))}
              className="rounded px-1.5 text-xs text-zinc-600 hover:bg-zinc-100"
            >
              ✕
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        onClick={() => onChange([...items, "New item"])}
        className="rounded px-2 py-0.5 text-xs font-medium text-accent hover:bg-zinc-100"
      >
        Add to {name}
      </button>
    </div>
  );
}

function GridEditor({
  id,
  name,
  headers,
  rows,
  numeric,
  onChange,
}: {
  id: string;
  name: string;
  headers: string[];
  rows: string[][];
  numeric?: boolean;
  onChange: (rows: (string | number)[][]) => void;
}) {
  const write = (next: string[][]) => onChange(next.map((row) => row.map((cell) => (numeric ? toCell(cell) : cell))));
  return (
    <div id={id} role="group" aria-label={name} className="space-y-1 overflow-x-auto">
      <table className="w-full border-separate border-spacing-0.5 text-xs">
        <thead>
          <tr>
            {headers.map((header, at) => (
              <th key={at} scope="col" className="text-left font-medium text-zinc-500">
                {header}
              </th>
            ))}
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            <tr key={r}>
              {headers.map((header, c) => (
                <td key={c}>
                  <CommitInput
                    label={`${name} row ${r + 1}, ${header}`}
                    value={row[c] ?? ""}
                    onCommit={(text) =>
                      write(
                        rows.map((old, k) =>
                          k === r ? headers.map((_, j) => (j === c ? text : (old[j] ?? ""))) : old,
                        ),
                      )
                    }
                  />
                </td>
              ))}
              <td>
                <button
                  type="button"
                  aria-label={`Remove ${name} row ${r + 1}`}
                  onClick={() => write(rows.filter((_, k) => k !== r))}
                  className="rounded px-1.5 text-zinc-600 hover:bg-zinc-100"
                >
                  ✕
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button
        type="button"
        onClick={() => write([...rows, headers.map(() => "")])}
        className="rounded px-2 py-0.5 text-xs font-medium text-accent hover:bg-zinc-100"
      >
        Add a row to {name}
      </button>
    </div>
  );
}
