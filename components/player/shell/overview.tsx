import { type ReactNode, useEffect, useRef, useState } from "react";
import { usePlayer } from "./player-context";
import { ScaledCanvas } from "./stage";

/** Tiles drawn from the start around the current one (before the first report of what is in view). */
const FIRST_TILES = 12;
/** Tiles are drawn once they come this close to the visible part of the grid. */
const NEAR = "400px 0px";

// The grid of every slide; Enter or a click jumps to one, Escape closes. A tile's slide is drawn once the
// tile comes near the visible part of the grid (and kept), so the overview of a 200-slide deck opens as
// fast as that of a short one; the tiles not drawn yet are their empty frame, number and label.
export function Overview({ sections }: { sections: ReactNode[] }) {
  const player = usePlayer();
  const current = useRef<HTMLButtonElement>(null);
  const grid = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState<ReadonlySet<number>>(() => {
    const first = Math.max(0, player.slide - FIRST_TILES / 2);
    return new Set(Array.from({ length: FIRST_TILES }, (_, offset) => first + offset));
  });
  useEffect(() => current.current?.focus({ preventScroll: false }), []);
  useEffect(() => {
    const root = grid.current;
    if (!root) return;
    const observer = new IntersectionObserver(
      (entries) => {
        const near = entries
          .filter((entry) => entry.isIntersecting)
          .map((entry) => Number((entry.target as HTMLElement).dataset.index));
        if (near.length === 0) return;
        setDrawn((now) => (near.every((index) => now.has(index)) ? now : new Set([...now, ...near])));
      },
      { root, rootMargin: NEAR },
    );
    for (const tile of root.querySelectorAll(".dh-overview-thumb")) observer.observe(tile);
    return () => observer.disconnect();
  }, [sections.length]);
  return (
    <div ref={grid} className="dh-overview" role="dialog" aria-label="All slides">
      <div className="dh-overview-grid">
        {sections.map((section, index) => (
          <button
            key={index}
            ref={index === player.slide ? current : undefined}
            type="button"
            className="dh-overview-thumb"
            data-index={index}
            aria-current={index === player.slide ? "true" : undefined}
            onClick={() => {
              player.goTo(index);
              player.setOverview(false);
            }}
          >
            <ScaledCanvas>{drawn.has(index) ? section : null}</ScaledCanvas>
            <span className="dh-overview-label">
              <span className="dh-overview-number">{index + 1}</span>
              {player.slides[index]?.label ?? `Slide ${index + 1}`}
            </span>
          </button>
        ))}
      </div>
    </div>
  );
}
