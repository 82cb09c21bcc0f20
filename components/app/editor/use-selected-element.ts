"use client";

import { useCallback, useMemo, useState } from "react";
import type { DeckFormat } from "@/lib/contract/deck";
import { elementsOfSlide, type SlideElement } from "@/lib/source/transform/props";
import { findText } from "@/lib/source/transform/text";
import type { Selection } from "./use-visual-edits";

// The element of the slide on screen that the inspector, Insert, Move and Remove work on: the one clicked
// on the preview, found again in the source after every change, or the one picked in the inspector's
// element list (a pick wins until the next click on the preview).

export function useSelectedElement({
  format,
  source,
  slide,
  selection,
}: {
  format: DeckFormat;
  source: string;
  /** 0-based, the slide on screen. */
  slide: number;
  selection: Selection | null;
}) {
  const elements = useMemo(() => {
    try {
      return elementsOfSlide(source, format, slide);
    } catch {
      return [] as SlideElement[];
    }
  }, [source, format, slide]);
  const selected = useMemo(() => {
    if (!selection || selection.slide !== slide) return -1;
    const place = selection.item ?? selection.element;
    if (place) {
      // A chart label, a Timeline item or an Image: its element is the index-th of its component on the
      // slide, when the slide's code writes as many of them as the preview drew.
      const own = elements.flatMap((element, at) => (element.name === selection.component ? [at] : []));
      return own.length === place.count ? (own[place.index] ?? -1) : -1;
    }
    try {
      const found = findText(source, format, selection);
      let best = -1;
      elements.forEach((element, index) => {
        if (element.name !== selection.component) return;
        if (element.start > found.start || element.end < found.end) return;
        if (best < 0 || element.end - element.start < elements[best]!.end - elements[best]!.start) best = index;
      });
      if (best >= 0) return best;
    } catch {
      // not placeable: the first element of its kind
    }
    return elements.findIndex((element) => element.name === selection.component);
  }, [elements, format, selection, slide, source]);
  // A pick by place in the list, or by where the element starts (one just inserted or moved: found in
  // the next source's elements once it is rendered).
  const [picked, setPicked] = useState<{
    selection: Selection | null;
    slide: number;
    index?: number;
    start?: number;
  } | null>(null);
  const current = picked && picked.selection === selection && picked.slide === slide ? picked : null;
  const index = current
    ? current.start !== undefined
      ? elements.findIndex((element) => element.start === current.start)
      : (current.index ?? -1)
    : selected;
  const pick = useCallback((at: number) => setPicked({ selection, slide, index: at }), [selection, slide]);
  const pickAt = useCallback((start: number) => setPicked({ selection, slide, start }), [selection, slide]);
  return { elements, index, element: index >= 0 ? elements[index] : undefined, pick, pickAt };
}

export type SelectedElement = ReturnType<typeof useSelectedElement>;

/** After a change that added one element to the slide, where the new one starts (the first difference). */
export function addedElementStart(before: SlideElement[], after: SlideElement[]): number | undefined {
  const at = after.findIndex((element, index) => {
    const old = before[index];
    return !old || old.name !== element.name || old.end - old.start !== element.end - element.start;
  });
  return after[at]?.start;
}
