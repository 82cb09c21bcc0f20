import { createContext, useContext } from "react";
import type { PlayerConfig, SlideMeta } from "@/lib/contract/player";

export type PlayerState = {
  config: PlayerConfig;
  /** The module drawn: 0, then one more for each newer module the editor's preview draws in place. */
  revision: number;
  slide: number;
  count: number;
  /** Label and notes of each section, as reported when they render. */
  slides: SlideMeta[];
  overview: boolean;
  goTo: (slide: number) => void;
  setOverview: (open: boolean) => void;
  /** Deck reports how many slides (or beats) it has. */
  setCount: (count: number) => void;
  /** Slide and Beat report their label and notes when they render. */
  registerMeta: (index: number, meta: SlideMeta) => void;
  reportError: (message: string) => void;
  requestParent: (action: "presenter" | "fullscreen") => void;
};

export const PlayerContext = createContext<PlayerState | null>(null);

// Which section (slide or beat) a component renders inside; -1 outside any.
export const SectionIndexContext = createContext(-1);

export function usePlayer(): PlayerState {
  const player = useContext(PlayerContext);
  if (!player) throw new Error("Deck components render only inside the Deckhand player");
  return player;
}
