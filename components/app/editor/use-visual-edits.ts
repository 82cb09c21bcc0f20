"use client";

import { type RefObject, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { DeckFormat } from "@/lib/contract/deck";
import type { EditElement, EditItem, SelectableComponent } from "@/lib/contract/player";
import { outlineSlides } from "@/lib/source/transform/edit";
import { findElement } from "@/lib/source/transform/elements";
import { findItem, replaceItemText } from "@/lib/source/transform/items";
import { findText, replaceText } from "@/lib/source/transform/text";
import type { CodeEditorHandle } from "./code-editor";
import type { PreviewMessage } from "./preview-messages";

// The visual editor's one way into the source: every change made on the preview, the slide rail or the
// inspector is a function of the source library (lib/source/transform) from the current TSX to the next,
// applied to CodeMirror as one transaction (so Ctrl-Z undoes it, in the same history as typing) and
// compiled at once (no typing delay; sent before the editor renders the change). A change the library
// refuses (an AppError saying why) is shown, and the source stays as it was.

/**
 * What was clicked on the preview: the inspector's element, found again in the source on every change. A
 * text drawn from a prop's data (a chart label, a Timeline item) also says where it is written (`item`);
 * an element without text (an Image) is named by its place among its component's elements on the slide
 * (`element`, its `text` empty).
 */
export type Selection = {
  slide: number;
  text: string;
  occurrence: number;
  component: SelectableComponent;
  item?: EditItem;
  element?: EditElement;
};

/** Where a clicked text or element is written: by its path into a prop's data, its place, else its words. */
function place(
  source: string,
  format: DeckFormat,
  at: { slide: number; text: string; occurrence: number; component?: string; item?: EditItem; element?: EditElement },
) {
  if (at.item) return findItem(source, format, { slide: at.slide, text: at.text, ...at.item });
  if (at.element && at.component) {
    return findElement(source, format, { slide: at.slide, component: at.component, ...at.element });
  }
  return findText(source, format, at);
}

export function useVisualEdits({
  format,
  source,
  setSource,
  handle,
  compileNow,
  onRefused,
  slide,
  setSlide,
}: {
  format: DeckFormat;
  source: string;
  setSource: (next: string) => void;
  handle: RefObject<CodeEditorHandle | null>;
  /** Compiles `next` at once (no typing delay, and before the change is rendered). */
  compileNow: (next: string) => void;
  onRefused: (message: string) => void;
  /** 1-based, the slide the preview shows. */
  slide: number;
  setSlide: (slide: number) => void;
}) {
  // The newest source, also between a change and the render that shows it (two quick changes in a row).
  const latest = useRef(source);
  useEffect(() => {
    latest.current = source;
  }, [source]);
  const [selection, setSelection] = useState<Selection | null>(null);
  // When a visual edit was committed, to time how long until the preview shows it (data-edit-ms).
  const editStarted = useRef<number | null>(null);
  const [lastEditMs, setLastEditMs] = useState<number | null>(null);

  const outline = useMemo(() => {
    try {
      return outlineSlides(source, format);
    } catch {
      return null;
    }
  }, [source, format]);

  /**
   * Applies `change` to the newest source; true when the source changed. `then` runs once the code view holds
   * the change: with `codeViewLater`, in a task of its own after this one (see the edit-text message).
   */
  const apply = useCallback(
    (change: (current: string) => string, options?: { codeViewLater?: boolean; then?: () => void }): boolean => {
      let next: string;
      try {
        next = change(latest.current);
      } catch (error) {
        onRefused(error instanceof Error ? error.message : String(error));
        return false;
      }
      if (next === latest.current) return false;
      latest.current = next;
      compileNow(next);
      // Through CodeMirror, one undoable step: the code panel keeps the source editor mounted (closed or on
      // the tokens tab it is only hidden). setSource only in the moment before it has mounted.
      const toCodeView = () => {
        if (handle.current) handle.current.applyDocument(next);
        else setSource(next);
        options?.then?.();
      };
      if (options?.codeViewLater) setTimeout(toCodeView, 0);
      else toCodeView();
      return true;
    },
    [compileNow, handle, onRefused, setSource],
  );

  const onPreviewMessage = useCallback(
    (message: PreviewMessage, focused: boolean) => {
      if (message.type === "state") {
        // A slide changed in the frame by a person (its keys) is followed; a frame only catching up with
        // the editor's goto (or reporting where it opened) is not, so it never pulls the editor back.
        if (focused && message.slide + 1 !== slide) setSlide(message.slide + 1);
        return;
      }
      if (message.type === "history") {
        if (focused) handle.current?.history(message.action);
        return;
      }
      if (message.type === "select") {
        const { slide: at, text, occurrence, component, item, element } = message;
        setSelection({
          slide: at,
          text,
          occurrence,
          component,
          ...(item ? { item } : {}),
          ...(element ? { element } : {}),
        });
        try {
          const found = place(latest.current, format, message);
          handle.current?.select(found.start, found.end);
        } catch {
          // Text or an element the library cannot place (made in code): the code view stays where it is.
        }
        return;
      }
      if (message.type === "edit-text") {
        // Only while a person is in the frame: deck code alone cannot give its frame the keyboard.
        if (!focused) return;
        const { slide: at, text, occurrence, next, item } = message;
        editStarted.current = performance.now();
        let edited = "";
        // The code view selects the edited text once it holds it.
        const selectEdited = () => {
          try {
            const found = place(edited, format, { slide: at, text: next, occurrence, item });
            handle.current?.select(found.start, found.end);
          } catch {
            // as above
          }
        };
        // The compile's request leaves when this task ends (a server action is sent from a promise): the code
        // view, whose update takes some 10 ms on a 20-slide deck, takes the change in the next task instead of
        // holding the request back. Nothing else waits for it: the preview is drawn from the compile.
        const changed = apply(
          (current) =>
            (edited = item
              ? replaceItemText(current, format, { slide: at, text, next, ...item })
              : replaceText(current, format, { slide: at, text, occurrence, next })),
          { codeViewLater: true, then: selectEdited },
        );
        if (!changed) {
          editStarted.current = null;
          return;
        }
        setSelection((now) =>
          now && now.slide === at && now.text === text && now.occurrence === occurrence ? { ...now, text: next } : now,
        );
      }
    },
    [apply, format, handle, setSlide, slide],
  );

  /** The preview follows the cursor: the slide that holds it is shown. */
  const onCursor = useCallback(
    (position: number) => {
      const found = outline?.slides.find((entry) => entry.start <= position && position <= entry.end);
      if (found && found.index + 1 !== slide) setSlide(found.index + 1);
    },
    [outline, setSlide, slide],
  );

  /** A new compile is on screen: the time since the edit that asked for it. */
  const onShown = useCallback(() => {
    if (editStarted.current === null) return;
    setLastEditMs(Math.round(performance.now() - editStarted.current));
    editStarted.current = null;
  }, []);

  return { apply, outline, selection, setSelection, onPreviewMessage, onCursor, onShown, lastEditMs };
}
