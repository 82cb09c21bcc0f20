"use client";

import type { Finding } from "@/lib/render/check-findings";

// The deck check under the canvas: this slide's findings (and the whole deck's, if it did not draw), with
// a line saying how the rest of the deck stands.

export function Findings({
  slide,
  findings,
  onPick,
}: {
  slide: number;
  findings: Finding[];
  onPick: (slide: number) => void;
}) {
  const here = findings.filter((finding) => finding.slide === slide || finding.slide === null);
  const elsewhere = [...new Set(findings.filter((f) => f.slide !== null && f.slide !== slide).map((f) => f.slide!))];
  return (
    <div
      className="rounded-lg bg-white p-3 text-sm shadow-sm ring-1 ring-zinc-200"
      data-testid="findings"
      aria-live="polite"
    >
      <p className="mb-1 text-xs font-semibold tracking-wide text-zinc-500 uppercase">Deck check</p>
      {here.length === 0 ? (
        <p className="text-zinc-600">Nothing to fix on this slide.</p>
      ) : (
        <ul className="space-y-1.5">
          {here.map((finding, index) => (
            <li key={index} data-kind={finding.kind} className="flex gap-2">
              <span
                className={`mt-0.5 h-2 w-2 shrink-0 rounded-full ${finding.severity === "error" ? "bg-red-600" : "bg-amber-400"}`}
                aria-label={finding.severity}
              />
              <span className="text-zinc-800">{finding.message}</span>
            </li>
          ))}
        </ul>
      )}
      {elsewhere.length > 0 && (
        <p className="mt-2 text-xs text-zinc-500">
          Also on slide{elsewhere.length > 1 ? "s" : ""}{" "}
          {elsewhere.map((n, index) => (
            <span key={n}>
              {index > 0 ? ", " : ""}
              <button type="button" className="underline hover:text-zinc-900" onClick={() => onPick(n)}>
                {n}
              </button>
            </span>
          ))}
        </p>
      )}
    </div>
  );
}
