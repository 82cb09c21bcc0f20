"use client";

import { type RefObject, useLayoutEffect, useState } from "react";

// The slide rail's window (slide-rail.tsx): a deck of hundreds of slides keeps in the DOM only the rows
// near the rail's visible part (OVERSCAN_ROWS either side) and the rows something holds on to (the slide
// shown, which is the rail's tab stop, one being renamed, dragged or whose menu is open); the rows in
// between are an empty list item of their height each, so the scroll bar and the places stay as if every
// row were there. Every row is the same height (measured on a mounted one); a row being renamed is a
// little shorter, which only makes the empty items' estimate a few pixels off. The pictures
// (rail-thumbnails.tsx) are made for the rows within PICTURE_MARGIN of the visible part only.

/** Rows kept mounted above and below the visible part. */
const OVERSCAN_ROWS = 12;
/** Rows drawn before the first measurement (the rail's first paint). */
const FIRST_ROWS = 16;
/** Pictures are made for rows this far (in view heights) above or below the visible part. */
const PICTURE_MARGIN = 0.5;

export type RailWindow = {
  /** The rows to mount, ascending. */
  rows: number[];
  /** The rows whose pictures are made, first to last (inclusive). */
  pictures: { first: number; last: number };
  /** The height of `count` rows that are not mounted (their empty list item). */
  gap: (count: number) => number;
  /** Scrolls the rail so row `index` is in view (and so mounted). */
  reveal: (index: number) => void;
};

type Ranges = { mounted: Range; pictures: Range };
type Range = { first: number; last: number };

export function useRailWindow({
  scroller,
  count,
  pinned,
}: {
  scroller: RefObject<HTMLDivElement | null>;
  count: number;
  /** Rows mounted wherever the rail is scrolled. */
  pinned: (number | null)[];
}): RailWindow {
  // One row's height with the space after it, and where the list starts in the scroller (0: not measured).
  const [stride, setStride] = useState(0);
  const [listTop, setListTop] = useState(0);
  // What is mounted and pictured, set again only when a scroll or resize changes it (not on every pixel).
  const [ranges, setRanges] = useState<Ranges>(() => {
    const first = { first: 0, last: Math.min(count, FIRST_ROWS) - 1 };
    return { mounted: first, pictures: first };
  });

  // Scrolling and resizing set the ranges; a resize of the list (its rows' height follows the rail's width)
  // measures a row again. The observer's first report comes at once, before the first paint.
  useLayoutEffect(() => {
    const element = scroller.current;
    const list = element?.firstElementChild;
    if (!element || !(list instanceof HTMLElement)) return;
    const read = () => {
      const top = element.scrollTop;
      const height = element.clientHeight;
      const range = (margin: number): Range => {
        if (stride === 0 || height === 0) return { first: 0, last: Math.min(count, FIRST_ROWS) - 1 };
        const first = Math.floor((top - listTop - margin) / stride);
        const last = Math.ceil((top + height - listTop + margin) / stride) - 1;
        return { first: Math.max(0, first), last: Math.min(count - 1, last) };
      };
      const next = {
        mounted: range(OVERSCAN_ROWS * stride),
        pictures: range(PICTURE_MARGIN * height),
      };
      const same = (a: Range, b: Range) => a.first === b.first && a.last === b.last;
      setRanges((now) => (same(now.mounted, next.mounted) && same(now.pictures, next.pictures) ? now : next));
    };
    const measure = () => {
      const row = list.querySelector<HTMLElement>(':scope > li[data-index]:not([data-renaming="true"])');
      const measured = row ? row.offsetHeight + parseFloat(getComputedStyle(row).marginBottom || "0") : 0;
      if (measured > 0) setStride((now) => (Math.abs(measured - now) > 0.5 ? measured : now));
      setListTop(list.offsetTop);
      read();
    };
    element.addEventListener("scroll", read, { passive: true });
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    observer.observe(list);
    return () => {
      element.removeEventListener("scroll", read);
      observer.disconnect();
    };
  }, [scroller, stride, listTop, count]);

  const reveal = (index: number) => {
    const element = scroller.current;
    if (!element || stride === 0) return;
    const rowTop = listTop + index * stride;
    if (rowTop >= element.scrollTop && rowTop + stride <= element.scrollTop + element.clientHeight) return;
    element.scrollTo({ top: Math.max(0, rowTop - (element.clientHeight - stride) / 2) });
  };
  const gap = (rows: number) => rows * stride;

  const clamp = (range: Range): Range => ({ first: range.first, last: Math.min(count - 1, range.last) });
  const mounted = clamp(ranges.mounted);
  const rows = new Set<number>();
  for (let index = mounted.first; index <= mounted.last; index++) rows.add(index);
  for (const index of pinned) if (index !== null && index >= 0 && index < count) rows.add(index);
  return { rows: [...rows].sort((a, b) => a - b), pictures: clamp(ranges.pictures), gap, reveal };
}
