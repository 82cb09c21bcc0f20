"use client";

import { useEffect, useRef } from "react";

// The browser's Back button with unsaved changes, when the page before is one of the app's: Next.js
// follows it without unloading the page, so no beforeunload prompt is shown. Once there is something to
// lose, a guard entry of the same URL is pushed; Back pops it, and this listener (in the capture phase, so
// before Next.js's own) asks first: staying pushes the guard again, leaving goes back once more. With
// nothing unsaved by then, Back goes back without asking. The link and reload prompts stay in editor.tsx.
// The guard is pushed inside the person's first key press or pointer press on the page (not on a link),
// before there is anything to lose: Chromium skips, on Back, an entry left by a push made without a user
// activation, and a push made later, when the typing turns into unsaved state, did not always count as one
// (Back then went straight to the library without asking; seen on a busy machine). A change that arrives
// without such a press (text edited in the preview frame, a restored draft) still pushes it then.
const QUESTION = "Leave without saving? What you changed since the last save will be lost.";

export function useBackGuard(unsaved: boolean, editable: boolean) {
  const ask = useRef(unsaved);
  const guarded = useRef<string | null>(null);
  useEffect(() => {
    ask.current = unsaved;
  }, [unsaved]);

  useEffect(() => {
    if (!editable) return;
    const guard = () => {
      if (guarded.current) return;
      const url = window.location.href;
      window.history.pushState(window.history.state, "", url);
      guarded.current = url;
    };
    if (unsaved) {
      guard();
      return;
    }
    const onPress = (event: Event) => {
      if (event.target instanceof Element && event.target.closest("a[href]")) return;
      guard();
    };
    window.addEventListener("pointerdown", onPress, true);
    window.addEventListener("keydown", onPress, true);
    return () => {
      window.removeEventListener("pointerdown", onPress, true);
      window.removeEventListener("keydown", onPress, true);
    };
  }, [editable, unsaved]);

  useEffect(() => {
    let leaving: string | false = false;
    let returning = false;
    const onPop = (event: PopStateEvent) => {
      const url = guarded.current;
      if (leaving) {
        // Still on an entry of this page (the guard, or one more of the same URL): on back.
        if (window.location.href === leaving) {
          event.stopImmediatePropagation();
          window.history.back();
        }
        return;
      }
      if (!url || window.location.href !== url) return;
      // Back from the guard entry to this page's own entry (or forward to the guard again): nothing has
      // been navigated, and Next.js is not told.
      event.stopImmediatePropagation();
      if (returning) {
        returning = false;
        return;
      }
      if (ask.current && !window.confirm(QUESTION)) {
        // Staying: forward onto the guard entry again (pushing a new one without a user's gesture would be
        // skipped by Chromium's Back).
        returning = true;
        window.history.forward();
        return;
      }
      leaving = url;
      guarded.current = null;
      window.history.back();
    };
    // Leaving was confirmed already: the editor's reload prompt is not shown a second time should the page
    // before be another document.
    const confirmed = (event: BeforeUnloadEvent) => {
      if (leaving) event.stopImmediatePropagation();
    };
    window.addEventListener("popstate", onPop, true);
    window.addEventListener("beforeunload", confirmed, true);
    return () => {
      window.removeEventListener("popstate", onPop, true);
      window.removeEventListener("beforeunload", confirmed, true);
    };
  }, []);
}
