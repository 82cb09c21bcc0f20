"use client";

import { useCallback, useSyncExternalStore } from "react";

// A yes/no preference of the person kept in this browser (localStorage), such as whether the editor's code
// panel is open: read on every page that asks, and changed in every tab at once (the storage event).

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function useStoredFlag(key: string, fallback: boolean): [boolean, (value: boolean) => void] {
  const stored = useSyncExternalStore(
    subscribe,
    () => read(key),
    () => null,
  );
  const value = stored === null ? fallback : stored === "true";
  const set = useCallback(
    (next: boolean) => {
      try {
        window.localStorage.setItem(key, String(next));
      } catch {
        // storage refused (private mode): the choice lasts until the page is left
      }
      for (const listener of listeners) listener();
    },
    [key],
  );
  return [value, set];
}
