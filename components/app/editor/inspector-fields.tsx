"use client";

import { useState } from "react";

// The inspector's fields: a text field that writes when it is left (one undo step per change), an editable
// list (Bullets' points, a chart's categories) and an editable grid (a table's rows, a chart's values and
// series, a timeline's milestones), each new row focused so the person can type at once.

// A number-looking cell is written as a number, as a person writing the table would.
function toCell(text: string): string | number {
  return /^-?(\d+\.?\d*|\.\d+)$/.test(text.trim()) ? Number(text.trim()) : text;
}

export function CodeOnly({ id }: { id: string }) {
  return (
    <output id={id} className="block text-xs text-zinc-500">
      Written as code: edit it in the source.
    </output>
  );
}

// A field that writes on Enter or when it loses focus (one undo step per change, not per keystroke).
export function CommitInput({
  id,
  value,
  onCommit,
  type = "text",
  disabled,
  label,
  autoFocus,
}: {
  id?: string;
  value: string;
  onCommit: (value: string) => void;
  type?: "text" | "number";
  disabled?: boolean;
  label?: string;
  /** Takes the keyboard when it appears (a row just added). */
  autoFocus?: boolean;
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
      autoFocus={autoFocus}
      onFocus={(event) => {
        if (autoFocus) event.currentTarget.select();
      }}
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

export function ListEditor({
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
  // The row added last, focused when it appears.
  const [added, setAdded] = useState<number | null>(null);
  return (
    <div id={id} role="group" aria-label={name} className="space-y-1">
      <ol className="space-y-1">
        {items.map((item, at) => (
          <li key={at} className="flex items-center gap-1">
            <CommitInput
              label={`${name} ${at + 1}`}
              value={item}
              autoFocus={added === at}
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
        onClick={() => {
          setAdded(items.length);
          onChange([...items, "New item"]);
        }}
        className="rounded px-2 py-0.5 text-xs font-medium text-accent hover:bg-zinc-100"
      >
        Add to {name}
      </button>
    </div>
  );
}

export function GridEditor({
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
  // The row added last: its first cell is focused when it appears.
  const [added, setAdded] = useState<number | null>(null);
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
                    autoFocus={added === r && c === 0}
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
        onClick={() => {
          setAdded(rows.length);
          write([...rows, headers.map(() => "")]);
        }}
        className="rounded px-2 py-0.5 text-xs font-medium text-accent hover:bg-zinc-100"
      >
        Add a row to {name}
      </button>
    </div>
  );
}
