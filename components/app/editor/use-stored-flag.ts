"use client";

import { useCallback, useSyncExternalStore } from "react";

// A yes/no preference of the person kept in this browser (localStorage), such as whether the editor's code
// panel is open: read on every page that asks, and changed in every tab at once (the storage event). Where
// the browser refuses storage (blocked, private mode, full), the choice is kept in memory: it lasts for the
// page.

const listeners = new Set<() => void>();
// Choices the browser's storage refused, kept for the page (they win over whatever storage still holds).
const memory = new Map<string, string>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

/** The stored choice: the one kept in memory when storage refused it, else storage's (null: none). */
export function readFlag(key: string): string | null {
  const kept = memory.get(key);
  if (kept !== undefined) return kept;
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Keeps the choice in storage, or in memory for the page when storage refuses it; tells every reader. */
export function writeFlag(key: string, value: boolean): void {
  try {
    window.localStorage.setItem(key, String(value));
    memory.delete(key);
  } catch {
    memory.set(key, String(value));
  }
  for (const listener of listeners) listener();
}

export function useStoredFlag(key: string, fallback: boolean): [boolean, (value: boolean) => void] {
  const stored = useSyncExternalStore(
    subscribe,
    () => readFlag(key),
    () => null,
  );
  const value = stored === null ? fallback : stored === "true";
  const set = useCallback((next: boolean) => writeFlag(key, next), [key]);
  return [value, set];
}
