import {
  type MouseEvent as ReactMouseEvent,
  type PointerEvent as ReactPointerEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import type { PlayerConfig, PlayerMessage, SlideMeta, ViewerMessage } from "@/lib/contract/player";
import { Controls } from "./controls";
import { startEditMode } from "./edit-mode";
import { ErrorPanel } from "./error-boundary";
import { fontsChanged, refitAll, refitContaining } from "./fit";
import { findMissingFonts } from "./fonts";
import { heldWorkDone } from "./pending";
import { PlayerContext, type PlayerState } from "./player-context";

type Action = "next" | "prev" | "first" | "last" | "overview" | "close" | "fullscreen" | "presenter";

// One keyboard map for keys pressed in the frame and keys the viewer page forwards to it.
function keyAction(key: string, shiftKey: boolean): Action | null {
  switch (key) {
    case "ArrowRight":
    case "ArrowDown":
    case "PageDown":
    case "Enter":
      return "next";
    case " ":
    case "Spacebar":
      return shiftKey ? "prev" : "next";
    case "ArrowLeft":
    case "ArrowUp":
    case "PageUp":
    case "Backspace":
      return "prev";
    case "Home":
      return "first";
    case "End":
      return "last";
    case "o":
    case "O":
    case "g":
      return "overview";
    case "Escape":
      return "close";
    case "f":
    case "F":
      return "fullscreen";
    case "p":
    case "P":
      return "presenter";
    default:
      return null;
  }
}

const INTERACTIVE = "a, button, input, textarea, select, summary, label, [contenteditable], [role=button]";

function post(message: PlayerMessage) {
  if (window.parent !== window) window.parent.postMessage(message, "*");
}

function readHashSlide(): number | null {
  const match = /^#(\d+)$/.exec(window.location.hash);
  return match ? Number(match[1]) - 1 : null;
}

export function Player({
  config,
  revision = 0,
  onReady,
  children,
}: {
  config: PlayerConfig;
  /** The editor's preview draws newer modules in place (shell/mount.tsx): each is a new revision. */
  revision?: number;
  /** Called once the revision is ready (as the `ready` message is posted). */
  onReady?: () => void;
  children: ReactNode;
}) {
  const slidesFormat = config.format === "slides";
  const navigable = slidesFormat && config.mode === "present";
  const [slide, setSlide] = useState(() =>
    navigable && !config.embedded ? (readHashSlide() ?? config.slide) : config.slide,
  );
  const [count, setCountState] = useState(0);
  const [overview, setOverviewState] = useState(false);
  const [slides, setSlides] = useState<SlideMeta[]>([]);
  const [errors, setErrors] = useState<string[]>([]);
  const [noDeck, setNoDeck] = useState(false);
  const [idle, setIdle] = useState(false);
  const countRef = useRef(0);
  // The slide `run` steps from; set at commit, before any key or message can reach `run`.
  const slideRef = useRef(slide);
  useLayoutEffect(() => {
    slideRef.current = slide;
  }, [slide]);
  const deckSeen = useRef(false);
  // A new revision is a new deck on the same slide: what the last one reported is forgotten.
  const [drawnRevision, setDrawnRevision] = useState(revision);
  if (drawnRevision !== revision) {
    setDrawnRevision(revision);
    setSlides([]);
    setErrors([]);
    setNoDeck(false);
  }

  const goTo = useCallback((target: number) => {
    if (countRef.current === 0) return;
    setSlide(Math.max(0, Math.min(countRef.current - 1, target)));
  }, []);
  const setCount = useCallback((next: number) => {
    deckSeen.current = true;
    countRef.current = next;
    setCountState(next);
    setSlide((current) => Math.max(0, Math.min(next - 1, current)));
  }, []);
  const registerMeta = useCallback((index: number, meta: SlideMeta) => {
    setSlides((current) => {
      const existing = current[index];
      if (existing && existing.label === meta.label && existing.notes === meta.notes) return current;
      const next = [...current];
      next[index] = meta;
      return next;
    });
  }, []);
  const reportError = useCallback((message: string) => {
    setErrors((current) => (current.includes(message) ? current : [...current, message]));
  }, []);
  // Embedded, the player can neither open a window (the sandbox has no allow-popups) nor take the screen
  // (the share page's frame has no allow="fullscreen"), so it asks the page. The page treats the request as
  // a hint only, since deck code in this frame can post the same message: it takes the keyboard back and
  // asks for the key again or a click on its own button (components/player/viewer.ts).
  const requestParent = useCallback(
    (action: "presenter" | "fullscreen") => {
      if (config.embedded) return post({ source: "deckhand-player", type: "request", action });
      if (action === "fullscreen") {
        if (document.fullscreenElement) void document.exitFullscreen();
        else void document.documentElement.requestFullscreen?.().catch(() => {});
      }
    },
    [config.embedded],
  );
  const setOverview = useCallback((open: boolean) => setOverviewState(open), []);

  const run = useCallback(
    (action: Action) => {
      switch (action) {
        case "next":
          return goTo(slideRef.current + 1);
        case "prev":
          return goTo(slideRef.current - 1);
        case "first":
          return goTo(0);
        case "last":
          return goTo(countRef.current - 1);
        case "overview":
          return setOverviewState((open) => !open);
        case "close":
          return setOverviewState(false);
        case "fullscreen":
          return requestParent("fullscreen");
        case "presenter":
          return requestParent("presenter");
      }
    },
    [goTo, requestParent],
  );
  // A Deck that never rendered means the default export returned something else (checked per revision:
  // the cleanup runs before the next revision's Deck reports itself).
  useLayoutEffect(() => {
    if (!deckSeen.current) setNoDeck(true);
    return () => {
      deckSeen.current = false;
    };
  }, [revision]);

  useEffect(() => {
    if (!navigable) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.metaKey || event.ctrlKey || event.altKey) return;
      if ((event.target as Element | null)?.closest?.("input, textarea, select, [contenteditable]")) return;
      const action = keyAction(event.key, event.shiftKey);
      if (!action) return;
      if (overview && (action === "next" || action === "prev")) return;
      event.preventDefault();
      run(action);
    };
    const onHash = () => {
      const target = readHashSlide();
      if (target !== null) goTo(target);
    };
    window.addEventListener("keydown", onKey);
    if (!config.embedded) window.addEventListener("hashchange", onHash);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("hashchange", onHash);
    };
  }, [navigable, overview, run, goTo, config.embedded]);

  // The page around the frame drives it: the viewer and presenter send slide changes and forwarded keys;
  // a thumbnail frame (the presenter's next slide) follows gotos only.
  useEffect(() => {
    if (!config.embedded || !slidesFormat || config.mode === "export") return;
    const onMessage = (event: MessageEvent<ViewerMessage>) => {
      if (event.source !== window.parent || event.data?.source !== "deckhand-viewer") return;
      if (event.data.type === "goto") goTo(event.data.slide);
      else if (event.data.type === "key" && navigable) {
        const action = keyAction(event.data.key, event.data.shiftKey);
        if (action) run(action);
      }
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [config.embedded, config.mode, slidesFormat, navigable, goTo, run]);

  // The page around the frame mirrors the slide in its URL; a stand-alone frame keeps its own hash.
  useEffect(() => {
    if (!navigable || count === 0) return;
    if (config.embedded) {
      post({ source: "deckhand-player", type: "state", slide, count, slides, overview });
    } else if (readHashSlide() !== slide) {
      try {
        window.location.replace(`#${slide + 1}`);
      } catch {
        // some sandboxes refuse even fragment navigation; the slide still changes
      }
    }
  }, [navigable, config.embedded, slide, count, slides, overview]);

  // Errors thrown outside React (timers, event handlers in deck code).
  useEffect(() => {
    const onError = (event: ErrorEvent) => reportError(event.message || "Script error");
    const onRejection = (event: PromiseRejectionEvent) => reportError(String(event.reason?.message ?? event.reason));
    window.addEventListener("error", onError);
    window.addEventListener("unhandledrejection", onRejection);
    return () => {
      window.removeEventListener("error", onError);
      window.removeEventListener("unhandledrejection", onRejection);
    };
  }, [reportError]);

  // Fonts and images that arrive after the first paint change what fits: slides are fitted again.
  useEffect(() => {
    const onFonts = () => {
      fontsChanged();
      refitAll();
    };
    const onLoad = (event: Event) => {
      if (event.target instanceof HTMLImageElement) refitContaining(event.target);
    };
    document.fonts.addEventListener("loadingdone", onFonts);
    document.addEventListener("load", onLoad, true);
    return () => {
      document.fonts.removeEventListener("loadingdone", onFonts);
      document.removeEventListener("load", onLoad, true);
    };
  }, []);

  // Ready once drawn, its fonts loaded, the work its components hold it for done (diagrams drawn, the
  // logo loaded: shell/pending.ts) and its slides fitted with all of them: the export renderer waits for this.
  useEffect(() => {
    if (count === 0 && !noDeck) return;
    let cancelled = false;
    // Fonts last: a diagram drawn meanwhile may have asked for a weight no text had used before.
    void heldWorkDone()
      .then(() => document.fonts.ready)
      .then(() => {
        if (cancelled) return;
        refitAll();
        const missingFonts = findMissingFonts();
        window.__deckhand = { ready: true, count, slides, missingFonts, errors };
        document.documentElement.dataset.ready = "true";
        post({ source: "deckhand-player", type: "ready", count, missingFonts, errors });
        onReady?.();
      });
    return () => {
      cancelled = true;
    };
  }, [count, slides, errors, noDeck, revision, onReady]);

  // The editor's preview: text is edited in place (shell/edit-mode.ts). A new revision starts it again: a
  // text being edited was drawn by the previous one and is gone.
  useEffect(() => {
    if (!config.edit || !config.embedded) return;
    return startEditMode(post);
  }, [config.edit, config.embedded, revision]);

  // Controls fade out while the pointer rests.
  useEffect(() => {
    if (!navigable || !config.chrome) return;
    let timer = window.setTimeout(() => setIdle(true), 2500);
    const wake = () => {
      setIdle(false);
      window.clearTimeout(timer);
      timer = window.setTimeout(() => setIdle(true), 2500);
    };
    window.addEventListener("pointermove", wake);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener("pointermove", wake);
    };
  }, [navigable, config.chrome]);

  const swipe = useRef<{ x: number; y: number; moved: boolean } | null>(null);
  // In edit mode a click selects text: neither clicks nor swipes move the slide (the editor's rail does).
  const stageHandlers =
    navigable && !config.edit
      ? {
          onPointerDown: (event: ReactPointerEvent) => {
            swipe.current = { x: event.clientX, y: event.clientY, moved: false };
          },
          onPointerUp: (event: ReactPointerEvent) => {
            const start = swipe.current;
            if (!start) return;
            const dx = event.clientX - start.x;
            const dy = event.clientY - start.y;
            if (Math.abs(dx) > 60 && Math.abs(dx) > Math.abs(dy) * 1.5) {
              start.moved = true;
              run(dx < 0 ? "next" : "prev");
            }
          },
          onClick: (event: ReactMouseEvent) => {
            const moved = swipe.current?.moved;
            swipe.current = null;
            if (moved || overview) return;
            if ((event.target as Element).closest(`${INTERACTIVE}, .dh-controls, .dh-overview`)) return;
            if (window.getSelection()?.toString()) return;
            run(event.clientX < window.innerWidth * 0.3 ? "prev" : "next");
          },
        }
      : {};

  const state = useMemo<PlayerState>(
    () => ({
      config,
      revision,
      slide,
      count,
      slides,
      overview,
      goTo,
      setOverview,
      setCount,
      registerMeta,
      reportError,
      requestParent,
    }),
    [
      config,
      revision,
      slide,
      count,
      slides,
      overview,
      goTo,
      setOverview,
      setCount,
      registerMeta,
      reportError,
      requestParent,
    ],
  );

  return (
    <PlayerContext.Provider value={state}>
      <div
        className="dh-player"
        data-format={config.format}
        data-mode={config.mode}
        data-idle={idle ? "true" : undefined}
        {...stageHandlers}
      >
        {noDeck ? (
          <div className="dh-error-screen">
            <ErrorPanel
              title="This deck could not be shown"
              message="The module's default export must return a <Deck> element: export default function MyDeck() { return <Deck>…</Deck>; }"
            />
          </div>
        ) : (
          children
        )}
        {navigable && config.chrome && count > 0 ? <Controls /> : null}
        {errors.length > 0 && config.mode === "present" ? (
          <div className="dh-error-toast" role="status">
            {errors.length === 1 ? errors[0] : `${errors.length} errors; the first: ${errors[0]}`}
          </div>
        ) : null}
      </div>
    </PlayerContext.Provider>
  );
}
