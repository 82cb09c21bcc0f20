"use client";

import { useEffect, useState } from "react";
import { presenceAction } from "@/server/actions/editor";

// The editor's presence heartbeat: says every HEARTBEAT_MS that this person has the deck open, and keeps
// the names of the others the server saw within its window (lib/decks/presence.ts). Leaving the page
// takes the person off the list at once. A missed beat is simply tried again at the next one.
const HEARTBEAT_MS = 15_000;

export type PresentPerson = { userId: string; name: string };

export function usePresence(deckId: string): PresentPerson[] {
  const [others, setOthers] = useState<PresentPerson[]>([]);
  useEffect(() => {
    let live = true;
    const beat = async () => {
      const result = await presenceAction({ id: deckId });
      if (live && result.ok) setOthers(result.value.others);
    };
    void beat();
    const timer = setInterval(() => void beat(), HEARTBEAT_MS);
    const visible = () => document.visibilityState === "visible" && void beat();
    document.addEventListener("visibilitychange", visible);
    return () => {
      live = false;
      clearInterval(timer);
      document.removeEventListener("visibilitychange", visible);
      void presenceAction({ id: deckId, leaving: true });
    };
  }, [deckId]);
  return others;
}
