"use client";

import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { CANVAS } from "@/lib/contract/deck";
import { isFromFrame, type PreviewMessage, readPreviewMessage } from "./preview-messages";

// The editor's preview: the sandboxed player at 1920x1080, scaled to the pane's width, in edit mode (text
// editable in place, components/player/shell/edit-mode.ts). Each compile answers a new preview link and
// names its module (`inPlace`). When only the module changed (the same frame document: tokens, title,
// brand and player as before), the frame on screen is told to draw the new module in place (`update`,
// components/player/shell/module-update.ts): no new document, no blank frame. Otherwise, or when the
// frame refuses or fails, the new link loads hidden behind the one on screen and takes its place once its
// player reports ready, so an edit never flashes a blank frame either way. Moving to another slide is a
// message to the frame on screen (`goto`), not a new link, so it neither reloads nor flashes. A frame in
// edit mode is told how far it is scaled down (`scale`: it cannot see its element's transform), so the box
// it lays over a chart label is legible on screen.

type Slot = { key: number; src: string; loadedAt: number | null; frame: string | null };
/** An in-place update posted to the frame on screen and not answered yet. */
type Pending = { moduleUrl: string; src: string; frame: string; askedAt: number };

/** Drawing a frame that never reports ready (a module that throws while loading) still ends: shown after this. */
const READY_FALLBACK_MS = 2500;
/** Modules drawn in place stay loaded in the frame: after this many, the next compile loads a new frame. */
const MAX_IN_PLACE = 100;

type PreviewFrameProps = {
  /** The compiled draft's frame URL (without a query); each compile gives a new one. */
  src: string;
  /** The compile's module (its name beside the frame) and what its frame document holds (`frame`, a key). */
  inPlace?: { module: string; frame: string } | null;
  /** 1-based, the slide to show. */
  slide: number;
  edit: boolean;
  /** A well-formed message from the frame on screen; `focused`: the frame has the keyboard (a person is in it). */
  onMessage: (message: PreviewMessage, focused: boolean) => void;
  /** A newly compiled deck is on screen. */
  onShown?: (src: string) => void;
};

export function PreviewFrame({ src, inPlace, slide, edit, onMessage, onShown }: PreviewFrameProps) {
  const box = useRef<HTMLDivElement>(null);
  const scale = useFitScale(box);
  const [slots, setSlots] = useState<{ front: Slot | null; back: Slot | null }>({ front: null, back: null });
  const slotsRef = useRef(slots);
  const counter = useRef(0);
  const elements = useRef(new Map<number, HTMLIFrameElement>());
  // Frames whose player has reported ready: only those are updated in place.
  const readyKeys = useRef(new Set<number>());
  // Modules each frame has drawn in place.
  const updates = useRef(new Map<number, number>());
  const pending = useRef<Pending | null>(null);
  // When each link was asked for (its compile's answer), for the time it took to come on screen.
  const askedAt = useRef(new Map<number, number>());
  const { shown, reportShown } = useShown(onShown);
  const scaleRef = useRef(scale);
  const slideRef = useRef(slide);
  const editRef = useRef(edit);
  const onMessageRef = useRef(onMessage);
  // Layout effects: the refs hold this render's values before the effects below read them.
  useLayoutEffect(() => {
    slideRef.current = slide;
    editRef.current = edit;
    onMessageRef.current = onMessage;
    slotsRef.current = slots;
    scaleRef.current = scale;
  });

  // A new link loads behind the frame on screen, on the slide shown now.
  const load = (link: string, frame: string | null) => {
    pending.current = null;
    const query = `?chrome=0&slide=${slideRef.current}${editRef.current ? "&edit=1" : ""}`;
    const next: Slot = { key: ++counter.current, src: `${link}${query}`, loadedAt: null, frame };
    askedAt.current.set(next.key, performance.now());
    setSlots((now) => (now.front === null ? { front: next, back: null } : { front: now.front, back: next }));
  };

  const module = inPlace?.module ?? null;
  const frameKey = inPlace?.frame ?? null;
  // In the commit of the compile's answer, not after the next paint: the frame starts loading the module
  // a frame sooner.
  useLayoutEffect(() => {
    editRef.current = edit;
    const { front, back } = slotsRef.current;
    const element = front ? elements.current.get(front.key) : undefined;
    // Only the module changed: the frame on screen draws it in place, beside its own module (the same
    // preview token's folder: the frame's CSP allows no other).
    if (
      edit &&
      module !== null &&
      frameKey !== null &&
      front &&
      !back &&
      element?.contentWindow &&
      canDrawInPlace(front, frameKey, readyKeys.current.has(front.key), updates.current.get(front.key) ?? 0)
    ) {
      updates.current.set(front.key, (updates.current.get(front.key) ?? 0) + 1);
      return postUpdate(
        element.contentWindow,
        pending,
        { moduleUrl: new URL(`module/${module}`, front.src).href, src, frame: frameKey },
        load,
      );
    }
    load(src, frameKey);
    // `module` and `frameKey` come with `src` (one compile's answer).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [src, edit]);

  const goto = (key: number | undefined, target: number) =>
    tell(elements.current, key, { type: "goto", slide: target - 1 });
  const tellScale = (key: number | undefined) => {
    if (editRef.current) tell(elements.current, key, { type: "scale", scale: scaleRef.current });
  };

  // The slide is a message to the frame on screen.
  const frontKey = slots.front?.key;
  useEffect(() => goto(frontKey, slide), [frontKey, slide]);
  // The pane's width changed: the frames on screen and behind it are told their new scale.
  useEffect(() => {
    for (const key of elements.current.keys()) tellScale(key);
  }, [scale]);

  // The frame behind takes the place of the one on screen when ready (or a while after it loaded).
  const swap = (key: number) => {
    setSlots((now) => {
      if (now.back?.key !== key) return now;
      return { front: now.back, back: null };
    });
  };
  useFrontChanges(slots, swap, askedAt, reportShown);

  useEffect(() => {
    const listen = (event: MessageEvent) =>
      routeMessage(event, slots, elements.current, {
        backReady: (key) => {
          readyKeys.current.add(key);
          // It opened on the slide shown when it was asked for; the person may have moved since.
          goto(key, slideRef.current);
          tellScale(key);
          swap(key);
        },
        frontReady: (key) => {
          // A goto sent before the player listened is lost: once it is drawn, it is told the slide again.
          readyKeys.current.add(key);
          goto(key, slideRef.current);
          tellScale(key);
        },
        answered: (moduleUrl, updated) => {
          const waiting = pending.current;
          if (!waiting || moduleUrl !== waiting.moduleUrl) return;
          pending.current = null;
          if (updated) reportShown("in-place", waiting.askedAt, waiting.src);
          else load(waiting.src, waiting.frame);
        },
        message: (message, focused) => onMessageRef.current(message, focused),
      });
    window.addEventListener("message", listen);
    return () => window.removeEventListener("message", listen);
  }, [slots, reportShown]);

  return (
    <div
      ref={box}
      className="relative aspect-video w-full overflow-hidden rounded-lg bg-white shadow ring-1 ring-zinc-200"
      data-testid="preview"
      data-frames={[slots.front, slots.back].filter(Boolean).length}
      data-swap-ms={shown.ms ?? undefined}
      data-shown={shown.count}
      data-update={shown.how ?? undefined}
    >
      <Frames
        slots={slots}
        scale={scale}
        elements={elements}
        onLoaded={(key) =>
          setSlots((now) => (now.back?.key === key ? { ...now, back: { ...now.back, loadedAt: Date.now() } } : now))
        }
      />
    </div>
  );
}

/** The pane's width over the canvas's: how far the 1920x1080 frames are scaled down to fit it. */
function useFitScale(box: RefObject<HTMLDivElement | null>): number {
  const [scale, setScale] = useState(0.3);
  useEffect(() => {
    const element = box.current!;
    const observer = new ResizeObserver(() => setScale(element.clientWidth / CANVAS.width));
    observer.observe(element);
    return () => observer.disconnect();
  }, [box]);
  return scale;
}

/**
 * Whether the frame on screen can draw a compile's module in place: it reported ready, holds the same frame
 * document (`frame`), is in edit mode (the update message is an edit-mode one), and has not yet drawn
 * MAX_IN_PLACE modules.
 */
function canDrawInPlace(front: Slot, frame: string, ready: boolean, drawn: number): boolean {
  return ready && front.frame === frame && front.src.includes("&edit=1") && drawn < MAX_IN_PLACE;
}

/** The frame on screen and the one loading behind it (hidden), in the order they were asked for. */
function Frames({
  slots,
  scale,
  elements,
  onLoaded,
}: {
  slots: { front: Slot | null; back: Slot | null };
  scale: number;
  /** Each frame's element by its slot's key, kept as they mount and unmount. */
  elements: RefObject<Map<number, HTMLIFrameElement>>;
  onLoaded: (key: number) => void;
}) {
  const all = [slots.front, slots.back].filter((slot): slot is Slot => slot !== null).sort((a, b) => a.key - b.key);
  return all.map((slot) => {
    const onScreen = slot.key === slots.front?.key;
    return (
      <iframe
        key={slot.key}
        ref={(element) => {
          if (element) elements.current.set(slot.key, element);
          else elements.current.delete(slot.key);
        }}
        title={onScreen ? "Preview" : "Preview (loading)"}
        src={slot.src}
        sandbox="allow-scripts"
        tabIndex={onScreen ? 0 : -1}
        aria-hidden={onScreen ? undefined : true}
        data-front={onScreen ? "true" : undefined}
        onLoad={() => onLoaded(slot.key)}
        className="absolute top-0 left-0 h-[1080px] w-[1920px] origin-top-left border-0"
        style={{
          transform: `scale(${scale})`,
          visibility: onScreen ? "visible" : "hidden",
          zIndex: onScreen ? 1 : 0,
        }}
      />
    );
  });
}

/** What the preview shows of its compiles: how many came on screen, the newest's time, and how it came. */
function useShown(onShown: ((src: string) => void) | undefined) {
  // data-swap-ms: the newest link's time from its compile's answer to the screen (the frame's share of an
  // edit's time, the rest being the compile); data-shown: how many compiles came on screen; data-update:
  // how the last one did ("in-place" or "reload").
  const [shown, setShown] = useState<{ count: number; ms: number | null; how: "in-place" | "reload" | null }>({
    count: 0,
    ms: null,
    how: null,
  });
  const onShownRef = useRef(onShown);
  useLayoutEffect(() => {
    onShownRef.current = onShown;
  });
  const reportShown = useCallback((how: "in-place" | "reload", asked: number | undefined, shownSrc: string) => {
    setShown((now) => ({
      count: now.count + 1,
      ms: asked === undefined ? now.ms : Math.round(performance.now() - asked),
      how,
    }));
    onShownRef.current?.(shownSrc);
  }, []);
  return { shown, reportShown };
}

/**
 * A message from one of the preview's frames, to whom it concerns: the frame behind reporting ready (it
 * takes the screen), the frame on screen answering an in-place update, reporting ready, or anything else
 * well-formed it says. Messages from anywhere else are dropped.
 */
function routeMessage(
  event: MessageEvent,
  slots: { front: Slot | null; back: Slot | null },
  elements: Map<number, HTMLIFrameElement>,
  on: {
    backReady: (key: number) => void;
    frontReady: (key: number) => void;
    answered: (moduleUrl: string, updated: boolean) => void;
    message: (message: PreviewMessage, focused: boolean) => void;
  },
): void {
  const front = slots.front ? (elements.get(slots.front.key) ?? null) : null;
  const back = slots.back ? (elements.get(slots.back.key) ?? null) : null;
  if (slots.back && isFromFrame(event, back)) {
    if (readPreviewMessage(event.data)?.type === "ready") on.backReady(slots.back.key);
    return;
  }
  if (!isFromFrame(event, front)) return;
  const message = readPreviewMessage(event.data);
  if (message?.type === "updated" || message?.type === "update-failed") {
    return on.answered(message.moduleUrl, message.type === "updated");
  }
  if (message?.type === "ready" && slots.front) on.frontReady(slots.front.key);
  if (message) on.message(message, document.activeElement === front);
}

/** Posts a viewer message to the frame of `key`, when it is there. */
function tell(elements: Map<number, HTMLIFrameElement>, key: number | undefined, message: Record<string, unknown>) {
  const frame = key === undefined ? null : elements.get(key);
  frame?.contentWindow?.postMessage({ source: "deckhand-viewer", ...message }, "*");
}

/**
 * The frame behind takes the screen a while after it loaded, ready or not (a module that throws while
 * loading never says ready); each frame that comes on screen is reported shown, by reload.
 */
function useFrontChanges(
  slots: { front: Slot | null; back: Slot | null },
  swap: (key: number) => void,
  askedAt: RefObject<Map<number, number>>,
  reportShown: (how: "reload", asked: number | undefined, src: string) => void,
) {
  const backKey = slots.back?.key;
  const backLoadedAt = slots.back?.loadedAt ?? null;
  useEffect(() => {
    if (backKey === undefined || backLoadedAt === null) return;
    const timer = setTimeout(() => swap(backKey), READY_FALLBACK_MS);
    return () => clearTimeout(timer);
    // `swap` only sets state: the timer is the back frame's, kept while it is the same.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [backKey, backLoadedAt]);
  const shownKey = useRef<number | null>(null);
  useEffect(() => {
    if (!slots.front || shownKey.current === slots.front.key) return;
    shownKey.current = slots.front.key;
    const asked = askedAt.current.get(slots.front.key);
    askedAt.current.clear();
    reportShown("reload", asked, slots.front.src);
    // Once per frame that comes on screen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [slots.front]);
}

/**
 * Tells the frame on screen to draw a compile's module in place; not answered in time, the update is given up
 * and the compile's link loads instead.
 */
function postUpdate(
  frame: Window,
  pending: RefObject<Pending | null>,
  update: Omit<Pending, "askedAt">,
  load: (link: string, frame: string) => void,
): void {
  const waiting: Pending = { ...update, askedAt: performance.now() };
  pending.current = waiting;
  frame.postMessage({ source: "deckhand-viewer", type: "update", moduleUrl: update.moduleUrl }, "*");
  setTimeout(() => {
    if (pending.current === waiting) load(waiting.src, waiting.frame);
  }, READY_FALLBACK_MS);
}
