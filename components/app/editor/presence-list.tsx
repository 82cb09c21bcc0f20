"use client";

import type { PresentPerson } from "./use-presence";

// Who else has this deck open, by name (nothing when nobody does).
export function PresenceList({ others }: { others: PresentPerson[] }) {
  if (others.length === 0) return null;
  const names = others.map((person) => person.name);
  return (
    <p className="flex items-center gap-1.5 text-xs text-zinc-600" data-testid="presence" aria-live="polite">
      <span className="h-2 w-2 rounded-full bg-emerald-500" aria-hidden />
      Also open by <span className="font-medium text-zinc-900">{names.join(", ")}</span>
    </p>
  );
}
