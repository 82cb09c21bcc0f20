"use client";

import { type RefObject, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { CANVAS, type DeckFormat } from "@/lib/contract/deck";
import { type DeckOutline, outlineSlides } from "@/lib/source/transform/edit";
import { isFromFrame, readPreviewMessage } from "./preview-messages";
import { matchIdentities, slideVersions, type ThumbnailIdentity } from "./thumbnail-versions";

// The slide rail's pictures: each slide drawn by the sandboxed player in thumbnail mode (one slide, no
// controls, animations stopped; a webpage's one beat at desktop width), in an iframe of its own at
// 1920x1080 scaled to the rail's width. Deck code runs only there, never in the app's page. Every frame of
// one compile loads the same module URL; a frame is asked again only when its slide's version changes
// (thumbnail-versions.ts), and the new one loads behind the picture on screen until its player reports
// ready, so the rail never goes blank. The frames sit in a layer of their own over the rail, in the order
// they were made, each placed over its slide's row: a move or a deletion in the rail never moves an iframe
// in the DOM (which would load it again). The layer is inert and hidden from assistive technology: no
// frame takes a tab stop, the focus or a click (clicks go to the slide's row underneath). Only the rows near
// the rail's visible part get a picture (`shown`, use-rail-window.ts): a frame is made as its row comes
// into view and dropped once it is far out of it, so a 200-slide deck loads a screenful of frames, not 200.

export type CompiledPreview = { url: string; source: string; tokens: string };
type Want = { version: string; src: string; slide: number };
export type RailThumbnail = { id: number; want: Want | null };

/** A frame that never reports ready (a module that throws while loading) is shown this long after its load. */
const READY_FALLBACK_MS = 2500;

/**
 * The thumbnail of each row of the rail. Rows follow `outline` (the source being typed) when it is
 * editable, else the compiled deck's `count` slides. A row's picture comes from the newest compile when
 * that compile holds the row's version (at whatever place); until then (a compile on its way) it keeps
 * what it shows.
 */
export function useRailThumbnails({
  format,
  source,
  tokens,
  outline,
  compiled,
  count,
}: {
  format: DeckFormat;
  source: string;
  tokens: string;
  outline: DeckOutline | null;
  compiled: CompiledPreview | null;
  count: number;
}): RailThumbnail[] {
  const compiledSource = compiled?.source ?? null;
  const compiledOutline = useMemo(() => {
    if (compiledSource === null) return null;
    try {
      return outlineSlides(compiledSource, format);
    } catch {
      return null;
    }
  }, [compiledSource, format]);
  const compiledVersions = useMemo(
    () => (compiled ? slideVersions(compiled.source, compiled.tokens, compiledOutline, count) : []),
    [compiled, compiledOutline, count],
  );
  const fromSource = outline?.editable ?? false;
  const rowVersions = useMemo(
    () => (fromSource ? slideVersions(source, tokens, outline, count) : compiledVersions),
    [fromSource, source, tokens, outline, count, compiledVersions],
  );

  // Identities carried from the rows before (state derived during render when the versions change).
  const joined = rowVersions.join(" ");
  const [known, setKnown] = useState<{ joined: string; identities: ThumbnailIdentity[]; lastId: number }>({
    joined: "",
    identities: [],
    lastId: 0,
  });
  let identities = known.identities;
  if (known.joined !== joined) {
    let lastId = known.lastId;
    identities = matchIdentities(known.identities, joined ? joined.split(" ") : [], () => ++lastId);
    setKnown({ joined, identities, lastId });
  }

  return useMemo(() => {
    const places = new Map<string, number>();
    compiledVersions.forEach((version, index) => {
      if (!places.has(version)) places.set(version, index);
    });
    return identities.map(({ id, version }) => {
      const place = places.get(version);
      if (!compiled || place === undefined) return { id, want: null };
      return {
        id,
        want: { version, slide: place + 1, src: `${compiled.url}?mode=thumb&chrome=0&slide=${place + 1}` },
      };
    });
  }, [identities, compiledVersions, compiled]);
}

type Box = { top: number; left: number; width: number };

/**
 * The layer of frames over the rail. `scroller` is the rail's scrolling box (positioned), `spaces` the
 * empty 16:9 box each row keeps for its picture, by row index.
 */
export function RailThumbnails({
  thumbnails,
  shown,
  rows,
  scroller,
  spaces,
  current,
  dimmed,
  noun,
}: {
  thumbnails: RailThumbnail[];
  /** The rows that get a picture, first to last. */
  shown: { first: number; last: number };
  /** The rows mounted in the rail (their boxes are measured). */
  rows: number[];
  scroller: RefObject<HTMLDivElement | null>;
  spaces: RefObject<Map<number, HTMLElement>>;
  current: number;
  dimmed: number | null;
  noun: string;
}) {
  const [boxes, setBoxes] = useState<Map<number, Box>>(() => new Map());
  const count = thumbnails.length;
  const mounted = rows.join(" ");
  // Measured when the list changes size (slides added or deleted, one renamed in place, the rail resized)
  // and when other rows are mounted; a move changes no row's place. The observer's first report comes at
  // once, before the first paint.
  useEffect(() => {
    const outer = scroller.current;
    const list = outer?.firstElementChild;
    if (!outer || !list) return;
    const measure = () => {
      const origin = outer.getBoundingClientRect();
      const next = new Map<number, Box>();
      for (const [index, space] of spaces.current) {
        if (index >= count) continue;
        const rect = space.getBoundingClientRect();
        next.set(index, {
          top: rect.top - origin.top + outer.scrollTop,
          left: rect.left - origin.left + outer.scrollLeft,
          width: rect.width,
        });
      }
      setBoxes((now) =>
        now.size === next.size &&
        [...next].every(([index, box]) => {
          const other = now.get(index);
          return other !== undefined && box.top === other.top && box.left === other.left && box.width === other.width;
        })
          ? now
          : next,
      );
    };
    const observer = new ResizeObserver(measure);
    observer.observe(list);
    return () => observer.disconnect();
  }, [scroller, spaces, count, mounted]);

  // In the order the thumbnails were made, never the rail's: the DOM order of the frames stays put.
  const placed = thumbnails
    .map((thumbnail, index) => ({ ...thumbnail, index }))
    .filter(({ index }) => index >= shown.first && index <= shown.last && boxes.has(index))
    .sort((a, b) => a.id - b.id);
  return (
    <div aria-hidden="true" inert className="pointer-events-none absolute top-0 left-0">
      {placed.map(({ id, want, index }) => (
        <SlideThumbnail
          key={id}
          want={want}
          box={boxes.get(index) ?? null}
          number={index + 1}
          selected={index === current}
          dimmed={index === dimmed}
          noun={noun}
        />
      ))}
    </div>
  );
}

type Slot = { key: number; version: string; src: string; slide: number; loadedAt: number | null; ready: boolean };

function SlideThumbnail({
  want,
  box,
  number,
  selected,
  dimmed,
  noun,
}: {
  want: Want | null;
  box: Box | null;
  number: number;
  selected: boolean;
  dimmed: boolean;
  noun: string;
}) {
  const [slots, setSlots] = useState<{ front: Slot | null; back: Slot | null }>({ front: null, back: null });
  const counter = useRef(0);
  const frames = useRef(new Map<number, HTMLIFrameElement>());

  const wantVersion = want?.version;
  const wantSrc = want?.src;
  const wantSlide = want?.slide;
  useEffect(() => {
    if (wantVersion === undefined || wantSrc === undefined || wantSlide === undefined) return;
    const make = (): Slot => ({
      key: ++counter.current,
      version: wantVersion,
      src: wantSrc,
      slide: wantSlide,
      loadedAt: null,
      ready: false,
    });
    setSlots((now) => {
      const { front, back } = now;
      // Nothing drawn yet: the frame follows its slide (to another place of the newest compile too).
      if (!front || front.loadedAt === null) {
        return front && front.version === wantVersion && front.slide === wantSlide
          ? now
          : { front: make(), back: null };
      }
      // The picture on screen is right (an edit undone before its picture arrived drops that picture).
      if (front.version === wantVersion) return back ? { front, back: null } : now;
      if (back?.version === wantVersion) return now;
      return { front, back: make() };
    });
  }, [wantVersion, wantSrc, wantSlide]);

  const promote = useCallback((key: number) => {
    setSlots((now) => {
      if (now.back?.key === key) return { front: { ...now.back, ready: true }, back: null };
      if (now.front?.key === key && !now.front.ready) return { front: { ...now.front, ready: true }, back: now.back };
      return now;
    });
  }, []);

  // Ready is the player's report (fonts loaded, slide fitted); a frame that never says so is shown anyway.
  useEffect(() => {
    const waiting = [slots.front, slots.back].filter((slot): slot is Slot => slot !== null && !slot.ready);
    if (waiting.length === 0) return;
    const listen = (event: MessageEvent) => {
      for (const slot of waiting) {
        if (!isFromFrame(event, frames.current.get(slot.key) ?? null)) continue;
        if (readPreviewMessage(event.data)?.type === "ready") promote(slot.key);
      }
    };
    window.addEventListener("message", listen);
    const timers = waiting
      .filter((slot) => slot.loadedAt !== null)
      .map((slot) => setTimeout(() => promote(slot.key), READY_FALLBACK_MS));
    return () => {
      window.removeEventListener("message", listen);
      timers.forEach(clearTimeout);
    };
  }, [slots, promote]);

  const all = [slots.front, slots.back].filter((slot): slot is Slot => slot !== null).sort((a, b) => a.key - b.key);
  const width = box?.width ?? 0;
  return (
    <div
      data-testid="rail-thumbnail"
      data-slide={number}
      data-state={slots.front?.ready ? "ready" : "loading"}
      data-frames={all.length}
      className={`absolute overflow-hidden rounded-sm bg-zinc-100 ${selected ? "ring-2 ring-white" : "ring-1 ring-zinc-300"} ${dimmed ? "opacity-50" : ""}`}
      style={{
        top: box?.top ?? 0,
        left: box?.left ?? 0,
        width,
        height: (width * CANVAS.height) / CANVAS.width,
        display: width > 0 ? undefined : "none",
      }}
    >
      {all.map((slot) => {
        const onScreen = slot.key === slots.front?.key;
        return (
          <iframe
            key={slot.key}
            ref={(element) => {
              if (element) frames.current.set(slot.key, element);
              else frames.current.delete(slot.key);
            }}
            title={`Picture of ${noun} ${number}`}
            src={slot.src}
            sandbox="allow-scripts"
            loading="lazy"
            tabIndex={-1}
            data-front={onScreen ? "true" : undefined}
            onLoad={() =>
              setSlots((now) => {
                const stamp = (found: Slot | null) =>
                  found?.key === slot.key && found.loadedAt === null ? { ...found, loadedAt: Date.now() } : found;
                const front = stamp(now.front);
                const back = stamp(now.back);
                return front === now.front && back === now.back ? now : { front, back };
              })
            }
            className="absolute top-0 left-0 h-[1080px] w-[1920px] origin-top-left border-0"
            style={{
              transform: `scale(${width / CANVAS.width})`,
              visibility: onScreen && slot.ready ? "visible" : "hidden",
            }}
          />
        );
      })}
    </div>
  );
}
