"use client";

import { type RefObject, useEffect } from "react";
import type { CodeEditorHandle } from "./code-editor";

// The editor's keys outside the code: Ctrl/Cmd+Z and Shift+Ctrl/Cmd+Z (or Ctrl+Y) undo and redo in the
// code's history anywhere in the editor (the code editor takes its own keys, a text field its own
// typing's, the preview posts them: use-visual-edits.ts), and Delete or Backspace removes the selected
// element, when the keyboard is not in a field, the code or a menu (the preview posts its own Delete).

const TYPING = ".cm-editor, input, textarea, select, [contenteditable], [role='menu'], [role='dialog']";

export function useEditorKeys({
  enabled,
  handle,
  onRemove,
}: {
  enabled: boolean;
  handle: RefObject<CodeEditorHandle | null>;
  /** Removes the selected element; false when nothing is selected (the key is left alone). */
  onRemove: () => boolean;
}) {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest(TYPING)) return;
      if ((event.key === "Delete" || event.key === "Backspace") && !event.metaKey && !event.ctrlKey) {
        if (onRemove()) event.preventDefault();
        return;
      }
      if (!(event.metaKey || event.ctrlKey) || event.altKey) return;
      const key = event.key.toLowerCase();
      const action = key === "z" ? (event.shiftKey ? "redo" : "undo") : key === "y" && !event.shiftKey ? "redo" : null;
      if (!action) return;
      event.preventDefault();
      handle.current?.history(action);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [enabled, handle, onRemove]);
}
