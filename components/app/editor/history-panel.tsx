"use client";

import { useId, useState } from "react";
import { readVersionAction, revertAction } from "@/server/actions/editor";
import { Button, Notice } from "@/components/ui";
import { SlideChanges } from "./slide-changes";

// The editor's history panel: the deck's versions (note, author, time), a revert that copies one forward
// as a new version, and any two versions compared: the slides that changed as pictures side by side, with
// the code's difference one click away (./slide-changes.tsx).

export type HistoryEntry = { version: number; note: string | null; createdAt: string; author: string };

export function History({
  deckId,
  entries,
  canEdit,
  onReverted,
}: {
  deckId: string;
  entries: HistoryEntry[];
  canEdit: boolean;
  onReverted: (version: number, content: { source: string; tokensCss: string }) => void;
}) {
  // What the person picked; until they pick, the comparison follows the list (the newest version against
  // the one before it), so a version saved while the panel is open is compared as soon as it is listed.
  const [picked, setPicked] = useState<{ from?: number; to?: number }>({});
  const listed = (version: number | undefined) =>
    version !== undefined && entries.some((e) => e.version === version) ? version : undefined;
  const from = listed(picked.from) ?? entries[1]?.version;
  const to = listed(picked.to) ?? entries[0]?.version;
  const [compared, setCompared] = useState<{ from: number; to: number; code: { from: string; to: string } } | null>(
    null,
  );
  const [comparing, setComparing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cannotCompare =
    from === undefined || to === undefined
      ? "Pick two versions to compare"
      : from === to
        ? "Pick two different versions"
        : null;

  const compare = async () => {
    if (from === undefined || to === undefined || from === to) return;
    setComparing(true);
    setError(null);
    try {
      const [a, b] = await Promise.all([
        readVersionAction({ id: deckId, version: String(from) }),
        readVersionAction({ id: deckId, version: String(to) }),
      ]);
      if (!a.ok) setError(a.error.message);
      else if (!b.ok) setError(b.error.message);
      else setCompared({ from, to, code: { from: a.value.source, to: b.value.source } });
    } catch {
      setError(`Versions ${from} and ${to} could not be read; try again.`);
    } finally {
      setComparing(false);
    }
  };
  const revert = async (version: number) => {
    if (!window.confirm(`Copy version ${version} forward as a new version? The history is kept.`)) return;
    const result = await revertAction({ id: deckId, version: String(version) });
    if (!result.ok) return setError(result.error.message);
    const content = await readVersionAction({ id: deckId, version: String(result.value.version) });
    if (!content.ok) return setError(content.error.message);
    onReverted(result.value.version, content.value);
  };

  if (entries.length === 0) {
    return <p className="p-6 text-sm text-zinc-600">No versions yet: save to write version 1.</p>;
  }
  return (
    <div className="flex min-h-0 flex-1 flex-col overflow-y-auto bg-white p-4" data-testid="history">
      {error && <Notice>{error}</Notice>}
      <ol className="divide-y divide-zinc-100">
        {entries.map((entry) => (
          <li key={entry.version} className="flex items-start gap-3 py-2.5" data-version={entry.version}>
            <span className="w-10 shrink-0 font-mono text-sm font-semibold">v{entry.version}</span>
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm">{entry.note ?? <span className="text-zinc-400">No note</span>}</p>
              <p className="text-xs text-zinc-500">
                {entry.author} ·{" "}
                {new Date(entry.createdAt).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" })}
              </p>
            </div>
            {canEdit && (
              <Button
                variant="secondary"
                type="button"
                onClick={() => void revert(entry.version)}
                aria-label={`Revert to version ${entry.version}`}
              >
                Revert
              </Button>
            )}
          </li>
        ))}
      </ol>
      {entries.length > 1 && (
        <div className="mt-4 space-y-3 border-t border-zinc-200 pt-4">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <VersionSelect
              label="From version"
              entries={entries}
              value={from}
              onChange={(version) => setPicked((p) => ({ ...p, from: version }))}
            />
            <VersionSelect
              label="To version"
              entries={entries}
              value={to}
              onChange={(version) => setPicked((p) => ({ ...p, to: version }))}
            />
            <Button
              variant="secondary"
              type="button"
              onClick={() => void compare()}
              disabled={cannotCompare !== null || comparing}
              title={cannotCompare ?? undefined}
            >
              {comparing ? "Comparing…" : "Compare"}
            </Button>
            {cannotCompare && <span className="text-xs text-zinc-500">{cannotCompare}</span>}
          </div>
          {compared && (
            <section aria-label={`Changes from version ${compared.from} to version ${compared.to}`}>
              <p className="mb-2 text-xs font-medium text-zinc-600">
                Changes from v{compared.from} to v{compared.to}
              </p>
              <SlideChanges
                key={`${compared.from}-${compared.to}`}
                deckId={deckId}
                before={{ version: compared.from, name: `version ${compared.from}` }}
                after={{ version: compared.to, name: `version ${compared.to}` }}
                code={compared.code}
              />
            </section>
          )}
        </div>
      )}
    </div>
  );
}

function VersionSelect({
  label,
  entries,
  value,
  onChange,
}: {
  label: string;
  entries: HistoryEntry[];
  value: number | undefined;
  onChange: (version: number) => void;
}) {
  const id = useId();
  return (
    <span className="inline-flex items-center gap-1.5">
      <label htmlFor={id} className="text-zinc-700">
        {label}
      </label>
      <select
        id={id}
        value={value ?? ""}
        onChange={(e) => onChange(Number(e.target.value))}
        className="rounded ring-1 ring-zinc-300"
      >
        {entries.map((e) => (
          <option key={e.version} value={e.version}>
            v{e.version}
          </option>
        ))}
      </select>
    </span>
  );
}
