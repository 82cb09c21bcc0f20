"use client";

import { useEffect, useRef } from "react";

// The browser's Back button with unsaved changes, when the page before is one of the app's: Next.js
// follows it without unloading the page, so no beforeunload prompt is shown. Once there is something to
// lose, a guard entry of the same URL is pushed; Back pops it, and this listener (in the capture phase, so
// before Next.js's own) asks first: staying pushes the guard again, leaving goes back once more. With
// nothing unsaved by then, Back goes back without asking. The link and reload prompts stay in editor.tsx.
const QUESTION = "Leave without saving? What you changed since the last save will be lost.";

export function useBackGuard(unsaved: boolean) {
  const ask = useRef(unsaved);
  const guarded = useRef<string | null>(null);
  useEffect(() => {
    ask.current = unsaved;
  }, [unsaved]);

  useEffect(() => {
    if (!unsaved || guarded.current) return;
    const url = window.location.href;
    window.history.pushState(window.history.state, "", url);
    guarded.current = url;
  }, [unsaved]);

  useEffect(() => {
    let leaving = false;
    const onPop = (event: PopStateEvent) => {
      const url = guarded.current;
      if (leaving || !url || window.location.href !== url) return;
      // Back from the guard entry to this page's own entry: nothing has been navigated yet.
      event.stopImmediatePropagation();
      if (ask.current && !window.confirm(QUESTION)) {
        window.history.pushState(window.history.state, "", url);
        return;
      }
      leaving = true;
      guarded.current = null;
      window.history.back();
    };
    window.addEventListener("popstate", onPop, true);
    return () => window.removeEventListener("popstate", onPop, true);
  }, []);
}
