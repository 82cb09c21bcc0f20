"use client";

import { useEffect, useRef, useState } from "react";
import { CANVAS } from "@/lib/contract/deck";
import { isFromFrame, type PreviewMessage, readPreviewMessage } from "./preview-messages";

// The editor's preview: the sandboxed player at 1920x1080, scaled to the pane's width, in edit mode (text
// editable in place, components/player/shell/edit-mode.ts). Each compile answers a new preview link; the new
// frame loads hidden behind the one on screen and takes its place once its player reports ready, so an edit
// never flashes a blank frame. Moving to another slide is a message to the frame on screen (`goto`), not a
// new link, so it neither reloads nor flashes.

type Slot = { key: number; src: string; loadedAt: number | null };

/** Drawing a frame that never reports ready (a module that throws while loading) still ends: shown after this. */
const READY_FALLBACK_MS = 2500;

export function PreviewFrame({
  src,
  slide,
  edit,
  onMessage,
  onShown,
}: {
  /** The compiled draft's frame URL (without a query); each compile gives a new one. */
  src: string;
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
  const counter = useRef(0);
  const elements = useRef(new Map<number, HTMLIFrameElement>());
  // How long the newest link took from its compile's answer to the screen (data-swap-ms: the frame's share
  // of an edit's time, the rest being the compile).
  const askedAt = useRef(new Map<number, number>());
  const [swapMs, setSwapMs] = useState<number | null>(null);
  const slideRef = useRef(slide);
  const onMessageRef = useRef(onMessage);
  const onShownRef = useRef(onShown);
  useEffect(() => {
    slideRef.current = slide;
    onMessageRef.current = onMessage;
    onShownRef.current = onShown;
  });

  useEffect(() => {
    const element = box.current!;
    const observer = new ResizeObserver(() => setScale(element.clientWidth / CANVAS.width));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // A new link loads behind the frame on screen, on the slide shown now.
  useEffect(() => {
    const query = `?chrome=0&slide=${slideRef.current}${edit ? "&edit=1" : ""}`;
    const next: Slot = { key: ++counter.current, src: `${src}${query}`, loadedAt: null };
    askedAt.current.set(next.key, performance.now());
    setSlots((now) => (now.front === null ? { front: next, back: null } : { front: now.front, back: next }));
  }, [src, edit]);

  const goto = (key: number | undefined, target: number) => {
    const frame = key === undefined ? null : elements.current.get(key);
    frame?.contentWindow?.postMessage({ source: "deckhand-viewer", type: "goto", slide: target - 1 }, "*");
  };

  // The slide is a message to the frame on screen.
  const frontKey = slots.front?.key;
  useEffect(() => goto(frontKey, slide), [frontKey, slide]);

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
    if (asked !== undefined) setSwapMs(Math.round(performance.now() - asked));
    onShownRef.current?.(slots.front.src);
  }, [slots.front]);

  useEffect(() => {
    const listen = (event: MessageEvent) => {
      const front = slots.front ? (elements.current.get(slots.front.key) ?? null) : null;
      const back = slots.back ? (elements.current.get(slots.back.key) ?? null) : null;
      if (slots.back && isFromFrame(event, back)) {
        const message = readPreviewMessage(event.data);
        if (message?.type === "ready") {
          // It opened on the slide shown when it was asked for; the person may have moved since.
          goto(slots.back.key, slideRef.current);
          swap(slots.back.key);
        }
        return;
      }
      if (!isFromFrame(event, front)) return;
      const message = readPreviewMessage(event.data);
      // A goto sent before the player listened is lost: once it is drawn, it is told the slide again.
      if (message?.type === "ready" && slots.front) goto(slots.front.key, slideRef.current);
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
      data-swap-ms={swapMs ?? undefined}
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
