import { usePlayer } from "./player-context";

// On-screen controls: visible on pointer movement, hidden while presenting.
export function Controls() {
  const player = usePlayer();
  const { slide, count } = player;
  return (
    <nav className="dh-controls" aria-label="Slide controls">
      <button
        type="button"
        className="dh-control"
        onClick={() => player.goTo(slide - 1)}
        disabled={slide <= 0}
        aria-label="Previous slide"
        title="Previous (←)"
      >
        <svg viewBox="0 0 24 24" aria-hidden>
          <path d="M15 18l-6-6 6-6" />
        </svg>
      </button>
      <span className="dh-counter" aria-live="polite">
        {count ? slide + 1 : 0} / {count}
      </span>
      <button
        type="button"
        className="dh-control"
        onClick={() => player.goTo(slide + 1)}
        disabled={slide >= count - 1}
        aria-label="Next slide"
        title="Next (→)"
      >
        <svg viewBox="0 0 24 24" aria-hidden>
          <path d="M9 18l6-6-6-6" />
        </svg>
      </button>
      <span className="dh-controls-sep" />
      <button
        type="button"
        className="dh-control"
        onClick={() => player.setOverview(!player.overview)}
        aria-label="All slides"
        aria-pressed={player.overview}
        title="All slides (O)"
      >
        <svg viewBox="0 0 24 24" aria-hidden>
          <rect x="3" y="3" width="7" height="7" rx="1" />
          <rect x="14" y="3" width="7" height="7" rx="1" />
          <rect x="3" y="14" width="7" height="7" rx="1" />
          <rect x="14" y="14" width="7" height="7" rx="1" />
        </svg>
      </button>
      {player.config.embedded ? (
        <button
          type="button"
          className="dh-control"
          onClick={() => player.requestParent("presenter")}
          aria-label="Presenter view"
          title="Presenter view (P)"
        >
          <svg viewBox="0 0 24 24" aria-hidden>
            <rect x="2" y="4" width="20" height="13" rx="2" />
            <path d="M8 21h8M12 17v4" />
          </svg>
        </button>
      ) : null}
      <button
        type="button"
        className="dh-control"
        onClick={() => player.requestParent("fullscreen")}
        aria-label="Full screen"
        title="Full screen (F)"
      >
        <svg viewBox="0 0 24 24" aria-hidden>
          <path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />
        </svg>
      </button>
    </nav>
  );
}
