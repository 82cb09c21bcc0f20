"use client";

import { diffLines } from "diff";
import { useEffect, useState } from "react";
import { compareSlidesAction } from "@/server/actions/editor-live";
import { Notice } from "@/components/ui";
import type { SlideChange } from "@/lib/decks/live-versions";

// The slides that changed between two contents, as pictures side by side (before on the left, after on the
// right, each the player drawing that one slide), with the code's difference one click away. Used by the
// live-save notice's Review, the save-conflict dialog and the history's comparison.

type Draft = { source: string; tokensCss: string; basedOnVersion: number };
type After = { version: number; name: string } | { draft: Draft; name: string };

export function SlideChanges({
  deckId,
  before,
  after,
  code,
}: {
  deckId: string;
  /** The version on the left, and what it is called ("version 4"). */
  before: { version: number; name: string };
  after: After;
  /** The two sources, for the code's difference; null while they are read. */
  code: { from: string; to: string } | null;
}) {
  const [result, setResult] = useState<{ changes: SlideChange[]; more: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const afterVersion = "version" in after ? after.version : undefined;
  // The draft is compiled by the comparison (its pictures are of this content), so it is compared once
  // per content: the fields, not the object, are the effect's inputs.
  const draftSource = "draft" in after ? after.draft.source : undefined;
  const draftTokens = "draft" in after ? after.draft.tokensCss : undefined;
  const draftBase = "draft" in after ? after.draft.basedOnVersion : undefined;
  useEffect(() => {
    let current = true;
    const draft =
      draftSource !== undefined && draftBase !== undefined
        ? { source: draftSource, tokensCss: draftTokens ?? "", basedOnVersion: draftBase }
        : undefined;
    void compareSlidesAction({ id: deckId, before: before.version, after: afterVersion, draft }).then((answer) => {
      if (!current) return;
      if (answer.ok) setResult(answer.value);
      else setError(answer.error.message);
    });
    return () => {
      current = false;
    };
  }, [deckId, before.version, afterVersion, draftSource, draftTokens, draftBase]);

  return (
    <div className="space-y-3" data-testid="slide-changes">
      {error && <Notice>{error}</Notice>}
      {!result && !error && <p className="text-sm text-zinc-600">Drawing the changed slides…</p>}
      {result && result.changes.length === 0 && (
        <p className="text-sm text-zinc-600">
          No slide looks different; only the theme or the code around the slides changed.
        </p>
      )}
      {result && result.changes.length > 0 && (
        <ul className="max-h-[50vh] space-y-3 overflow-auto" aria-label="Changed slides">
          {result.changes.map((change) => (
            <li key={`${change.kind}-${change.slide}`} className="space-y-1">
              <p className="text-xs font-medium text-zinc-700">
                Slide {change.slide} · {change.label}
                {change.kind !== "changed" && ` (${change.kind})`}
              </p>
              <div className="grid grid-cols-2 gap-2">
                <SlidePicture url={change.beforeUrl} title={`Slide ${change.slide} in ${before.name}`} />
                <SlidePicture url={change.afterUrl} title={`Slide ${change.slide} in ${after.name}`} />
              </div>
            </li>
          ))}
          {result.more > 0 && (
            <li className="text-xs text-zinc-600">
              and {result.more} more slide{result.more === 1 ? "" : "s"}
            </li>
          )}
        </ul>
      )}
      <p className="grid grid-cols-2 gap-2 text-xs text-zinc-500" aria-hidden>
        <span>← {before.name}</span>
        <span>{after.name} →</span>
      </p>
      {code && (
        <details>
          <summary className="cursor-pointer text-sm font-medium text-accent">Show the code changes</summary>
          <CodeDiff from={code.from} to={code.to} label={`Changes from ${before.name} to ${after.name}`} />
        </details>
      )}
    </div>
  );
}

// One slide drawn at 1920x1080 and scaled to the picture's 208 px.
function SlidePicture({ url, title }: { url: string | null; title: string }) {
  return (
    <figure className="relative aspect-video w-[208px] overflow-hidden rounded bg-zinc-100 ring-1 ring-zinc-200">
      {url ? (
        <iframe
          src={url}
          title={title}
          sandbox="allow-scripts"
          tabIndex={-1}
          className="pointer-events-none absolute top-0 left-0 h-[1080px] w-[1920px] origin-top-left scale-[0.108333] border-0"
        />
      ) : (
        <figcaption className="flex h-full items-center justify-center text-xs text-zinc-500">{title}: none</figcaption>
      )}
    </figure>
  );
}

/** Lines removed (red, "-") and added (green, "+") from one source to the other, wrapped, none cut off. */
function CodeDiff({ from, to, label }: { from: string; to: string; label: string }) {
  return (
    <pre
      className="mt-2 max-h-64 overflow-auto rounded bg-zinc-50 p-3 text-xs break-words whitespace-pre-wrap"
      data-testid="conflict-diff"
      aria-label={label}
    >
      {diffLines(from, to).map((part, i) =>
        part.added || part.removed ? (
          <span
            key={i}
            className={part.added ? "block bg-emerald-100 text-emerald-900" : "block bg-red-100 text-red-900"}
          >
            {part.value
              .replace(/\n$/, "")
              .split("\n")
              .map((line) => `${part.added ? "+" : "-"} ${line}`)
              .join("\n")}
          </span>
        ) : null,
      )}
    </pre>
  );
}
