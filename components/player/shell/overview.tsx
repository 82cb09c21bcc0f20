import { type ReactNode, useEffect, useRef } from "react";
import { usePlayer } from "./player-context";
import { ScaledCanvas } from "./stage";

// The grid of every slide; Enter or a click jumps to one, Escape closes.
export function Overview({ sections }: { sections: ReactNode[] }) {
  const player = usePlayer();
  const current = useRef<HTMLButtonElement>(null);
  useEffect(() => current.current?.focus({ preventScroll: false }), []);
  return (
    <div className="dh-overview" role="dialog" aria-label="All slides">
      <div className="dh-overview-grid">
        {sections.map((section, index) => (
          <button
            key={index}
            ref={index === player.slide ? current : undefined}
            type="button"
            className="dh-overview-thumb"
            aria-current={index === player.slide ? "true" : undefined}
            onClick={() => {
              player.goTo(index);
              player.setOverview(false);
            }}
          >
            <ScaledCanvas>{section}</ScaledCanvas>
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
