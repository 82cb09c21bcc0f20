"use client";

import { useEffect, useState } from "react";
import { newestVersionAction } from "@/server/actions/editor-live";
import type { NewestVersion } from "@/lib/decks/live-versions";

// Live saves: while the editor is open and its tab visible, asks every POLL_MS whether the deck gained a
// version past `known` (the newest one this editor has: opened, saved, loaded), and at once when the tab
// comes back into view. Polling rather than a stream: the presence heartbeat already polls, a server
// action is what the editor has (no long-lived connection to hold on serverless), and one indexed read of the
// deck row answers "nothing new". A poll that fails is tried again at the next one.
const POLL_MS = 3_000;

export function useLiveVersions(deckId: string, known: number): { newer: NewestVersion | null } {
  const [newer, setNewer] = useState<NewestVersion | null>(null);
  useEffect(() => {
    let live = true;
    let busy = false;
    const poll = async () => {
      if (busy || document.visibilityState !== "visible") return;
      busy = true;
      try {
        const result = await newestVersionAction({ id: deckId, known });
        if (live && result.ok) setNewer(result.value);
      } finally {
        busy = false;
      }
    };
    void poll();
    const timer = setInterval(() => void poll(), POLL_MS);
    const visible = () => void poll();
    document.addEventListener("visibilitychange", visible);
    return () => {
      live = false;
      clearInterval(timer);
      document.removeEventListener("visibilitychange", visible);
    };
  }, [deckId, known]);
  // A version this editor has caught up with (it saved or loaded it) is no longer news.
  return { newer: newer && newer.version > known ? newer : null };
}
