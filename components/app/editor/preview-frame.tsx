"use client";

import { useEffect, useLayoutEffect, useRef, useState } from "react";
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

export function PreviewFrame({
  src,
  inPlace,
  slide,
  edit,
  onMessage,
  onShown,
}: {
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
}) {
  const box = useRef<HTMLDivElement>(null);
  const [scale, setScale] = useState(0.3);
  const [slots, setSlots] = useState<{ front: Slot | null; back: Slot | null }>({ front: null, back: null });
  const slotsRef = useRef(slots);
  const counter = useRef(0);
  const elements = useRef(new Map<number, HTMLIFrameElement>());
  // Frames whose player has reported ready: only those are updated in place.
  const readyKeys = useRef(new Set<number>());
  // Modules each frame has drawn in place.
  const updates = useRef(new Map<number, number>());
  const pending = useRef<Pending | null>(null);
  // How long the newest link took from its compile's answer to the screen (data-swap-ms: the frame's share
  // of an edit's time, the rest being the compile), how many compiles have come on screen (data-shown) and
  // how the last one did (data-update: "in-place" or "reload").
  const askedAt = useRef(new Map<number, number>());
  const [shown, setShown] = useState<{ count: number; ms: number | null; how: "in-place" | "reload" | null }>({
    count: 0,
    ms: null,
    how: null,
  });
  const scaleRef = useRef(scale);
  const slideRef = useRef(slide);
  const editRef = useRef(edit);
  const onMessageRef = useRef(onMessage);
  const onShownRef = useRef(onShown);
  // Layout effects: the refs hold this render's values before the effects below read them.
  useLayoutEffect(() => {
    slideRef.current = slide;
    editRef.current = edit;
    onMessageRef.current = onMessage;
    onShownRef.current = onShown;
    slotsRef.current = slots;
    scaleRef.current = scale;
  });

  useEffect(() => {
    const element = box.current!;
    const observer = new ResizeObserver(() => setScale(element.clientWidth / CANVAS.width));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const reportShown = (how: "in-place" | "reload", asked: number | undefined, shownSrc: string) => {
    setShown((now) => ({
      count: now.count + 1,
      ms: asked === undefined ? now.ms : Math.round(performance.now() - asked),
      how,
    }));
    onShownRef.current?.(shownSrc);
  };

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
      readyKeys.current.has(front.key) &&
      front.frame === frameKey &&
      front.src.includes("&edit=1") &&
      (updates.current.get(front.key) ?? 0) < MAX_IN_PLACE
    ) {
      const moduleUrl = new URL(`module/${module}`, front.src).href;
      pending.current = { moduleUrl, src, frame: frameKey, askedAt: performance.now() };
      updates.current.set(front.key, (updates.current.get(front.key) ?? 0) + 1);
      element.contentWindow.postMessage({ source: "deckhand-viewer", type: "update", moduleUrl }, "*");
      // Not answered in time: given up, and the new link loads instead.
      const waiting = pending.current;
      setTimeout(() => {
        if (pending.current === waiting) load(waiting.src, waiting.frame);
      }, READY_FALLBACK_MS);
      return;
    }
    load(src, frameKey);
    // `module` and `frameKey` come with `src` (one compile's answer).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [src, edit]);

  const goto = (key: number | undefined, target: number) => {
    const frame = key === undefined ? null : elements.current.get(key);
    frame?.contentWindow?.postMessage({ source: "deckhand-viewer", type: "goto", slide: target - 1 }, "*");
  };
  const tellScale = (key: number | undefined) => {
    const frame = key === undefined ? null : elements.current.get(key);
    if (!editRef.current) return;
    frame?.contentWindow?.postMessage({ source: "deckhand-viewer", type: "scale", scale: scaleRef.current }, "*");
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
  const backKey = slots.back?.key;
  const backLoadedAt = slots.back?.loadedAt ?? null;
  useEffect(() => {
    if (backKey === undefined || backLoadedAt === null) return;
    const timer = setTimeout(() => swap(backKey), READY_FALLBACK_MS);
    return () => clearTimeout(timer);
  }, [backKey, backLoadedAt]);
  const shownKey = useRef<number | null>(null);
  useEffect(() => {
    if (!slots.front || shownKey.current === slots.front.key) return;
    shownKey.current = slots.front.key;
    const asked = askedAt.current.get(slots.front.key);
    askedAt.current.clear();
    reportShown("reload", asked, slots.front.src);
  }, [slots.front]);

  useEffect(() => {
    const listen = (event: MessageEvent) => {
      const front = slots.front ? (elements.current.get(slots.front.key) ?? null) : null;
      const back = slots.back ? (elements.current.get(slots.back.key) ?? null) : null;
      if (slots.back && isFromFrame(event, back)) {
        const message = readPreviewMessage(event.data);
        if (message?.type === "ready") {
          readyKeys.current.add(slots.back.key);
          // It opened on the slide shown when it was asked for; the person may have moved since.
          goto(slots.back.key, slideRef.current);
          tellScale(slots.back.key);
          swap(slots.back.key);
        }
        return;
      }
      if (!isFromFrame(event, front)) return;
      const message = readPreviewMessage(event.data);
      if (message?.type === "updated" || message?.type === "update-failed") {
        const waiting = pending.current;
        if (!waiting || message.moduleUrl !== waiting.moduleUrl) return;
        pending.current = null;
        if (message.type === "updated") reportShown("in-place", waiting.askedAt, waiting.src);
        else load(waiting.src, waiting.frame);
        return;
      }
      // A goto sent before the player listened is lost: once it is drawn, it is told the slide again.
      if (message?.type === "ready" && slots.front) {
        readyKeys.current.add(slots.front.key);
        goto(slots.front.key, slideRef.current);
        tellScale(slots.front.key);
      }
      if (message) onMessageRef.current(message, document.activeElement === front);
    };
    window.addEventListener("message", listen);
    return () => window.removeEventListener("message", listen);
  }, [slots]);

  const all = [slots.front, slots.back].filter((slot): slot is Slot => slot !== null).sort((a, b) => a.key - b.key);
  return (
    <div
      ref={box}
      className="relative aspect-video w-full overflow-hidden rounded-lg bg-white shadow ring-1 ring-zinc-200"
      data-testid="preview"
      data-frames={all.length}
      data-swap-ms={shown.ms ?? undefined}
      data-shown={shown.count}
      data-update={shown.how ?? undefined}
    >
      {all.map((slot) => {
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
            onLoad={() =>
              setSlots((now) =>
                now.back?.key === slot.key ? { ...now, back: { ...now.back, loadedAt: Date.now() } } : now,
              )
            }
            className="absolute top-0 left-0 h-[1080px] w-[1920px] origin-top-left border-0"
            style={{
              transform: `scale(${scale})`,
              visibility: onScreen ? "visible" : "hidden",
              zIndex: onScreen ? 1 : 0,
            }}
          />
        );
      })}
    </div>
  );
}
