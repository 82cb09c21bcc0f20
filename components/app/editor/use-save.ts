"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState, useTransition } from "react";
import { saveVersionAction } from "@/server/actions/editor";
import type { ActionError } from "@/server/action";
import type { DeckFormat } from "@/lib/contract/deck";
import { mergeSlides, mergeTokens } from "@/lib/source/transform/merge";
import type { UnsavedDraft } from "@/lib/decks/drafts";
import type { Content } from "./conflict-dialog";
import type { Status } from "./use-compile";
import { useBackGuard } from "./use-back-guard";

// The editor's content and its saves: the source and tokens being edited, what the editor opened or last
// saved (`loaded`), the version they are based on (`base`), the restored draft, and saving with a note.
// A save that finds the deck changed elsewhere since is a conflict (conflict-dialog.tsx), and nothing typed
// is lost. Leaving with unsaved changes asks first; a deck nobody changed leaves without a question.

export function useDeckContent({
  deck,
  canEdit,
  initialSource,
  initialTokens,
  draft,
}: {
  deck: { id: string; versionCount: number };
  canEdit: boolean;
  initialSource: string;
  initialTokens: string;
  draft: UnsavedDraft | null;
}) {
  const [source, setSource] = useState(draft?.source ?? initialSource);
  const [tokens, setTokens] = useState(draft?.tokensCss ?? initialTokens);
  const [restored, setRestored] = useState(draft);
  // What the editor opened or last saved, and when (0: not yet). `generation` counts the times the code
  // views were given content from elsewhere (a merge, a revert, a discarded draft): each one starts them
  // anew. A plain save does not: the code keeps its undo history, its cursor and what was typed meanwhile.
  const [loaded, setLoaded] = useState({ source: initialSource, tokens: initialTokens, at: 0, generation: 0 });
  // The version this editor's content is based on.
  const [base, setBase] = useState(draft?.basedOnVersion ?? deck.versionCount);
  // Changed since it was opened or saved: what leaving would lose.
  const changed = source !== loaded.source || tokens !== loaded.tokens;
  // What Save can write: a change, or (a deck without versions) what it opened with, the starter, as version 1.
  const savable = changed || (deck.versionCount === 0 && loaded.at === 0);

  // Leaving with unsaved changes asks first: reloading or closing the page (the browser's own prompt), and
  // any link of the app (the breadcrumb, the header), which Next.js would follow without unloading the page.
  useEffect(() => {
    if (!canEdit || !changed) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    const guardLinks = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!(link instanceof HTMLAnchorElement) || link.target === "_blank" || link.href === window.location.href)
        return;
      if (!window.confirm("Leave without saving? What you changed since the last save will be lost.")) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    window.addEventListener("beforeunload", warn);
    document.addEventListener("click", guardLinks, true);
    return () => {
      window.removeEventListener("beforeunload", warn);
      document.removeEventListener("click", guardLinks, true);
    };
  }, [canEdit, changed]);
  // Back to another of the app's pages asks too (Next.js does not unload the page for it).
  useBackGuard(canEdit && changed, canEdit);

  /** Content written elsewhere (a revert, the AI, a merge) becomes the editor's, based on `version`. */
  const load = useCallback((version: number, content: { source: string; tokensCss: string }) => {
    setBase(version);
    setRestored(null);
    setSource(content.source);
    setTokens(content.tokensCss);
    setLoaded((now) => ({
      source: content.source,
      tokens: content.tokensCss,
      at: Date.now(),
      generation: now.generation + 1,
    }));
  }, []);
  /** The restored draft is dropped: back to the newest version. */
  const discardDraft = useCallback(() => {
    setRestored(null);
    setBase(deck.versionCount);
    setSource(loaded.source);
    setTokens(loaded.tokens);
    setLoaded((now) => ({ ...now, at: Date.now(), generation: now.generation + 1 }));
  }, [deck.versionCount, loaded.source, loaded.tokens]);

  return {
    source,
    setSource,
    tokens,
    setTokens,
    restored,
    setRestored,
    loaded,
    setLoaded,
    base,
    setBase,
    changed,
    savable,
    load,
    discardDraft,
  };
}

type DeckContent = ReturnType<typeof useDeckContent>;

/**
 * Saves what is typed as the version after `base` (the one this editor opened or last wrote): a deck saved
 * elsewhere since (another tab, a colleague's AI edit) is a conflict. From the conflict dialog, `over`
 * saves on top of their newest version (mine, or the merge: `content`). Ctrl/Cmd+S saves when the toolbar's
 * Save would (`canSave`): not while a save is under way (its base is about to change) nor while compiling.
 */
export function useSave({
  deckId,
  format,
  canEdit,
  content,
  note,
  onSaved,
  status,
  setStatus,
  showRefusal,
}: {
  deckId: string;
  format: DeckFormat;
  canEdit: boolean;
  content: DeckContent;
  note: string;
  onSaved: () => void;
  status: Status;
  setStatus: (status: Status) => void;
  showRefusal: (error: ActionError, status: string) => void;
}) {
  const router = useRouter();
  const [, startTransition] = useTransition();
  const [conflict, setConflict] = useState(false);
  const { source, tokens, base, setSource, setTokens, setLoaded, setBase, setRestored, load } = content;
  // What the editor holds now, read when a save returns: the dialog closes as the save is sent, so the
  // person may type meanwhile.
  const current = useRef({ source, tokens });
  useEffect(() => {
    current.current = { source, tokens };
  }, [source, tokens]);
  // A save under way: a second one (a key held down, a double Ctrl+S) would be sent with the old base.
  const inFlight = useRef(false);

  const save = useCallback(
    async (over?: { version: number; content?: Content }) => {
      if (inFlight.current) return;
      inFlight.current = true;
      setStatus({ kind: "saving", text: "Saving…" });
      setConflict(false);
      const mine = over?.content ?? { source, tokensCss: tokens };
      // What the editor showed when the save was sent.
      const sent = { source, tokens };
      let result;
      try {
        result = await saveVersionAction({
          id: deckId,
          source: mine.source,
          tokensCss: mine.tokensCss,
          prompt: note.trim() || null,
          basedOnVersion: over?.version ?? base,
        });
      } finally {
        inFlight.current = false;
      }
      if (result.ok) {
        // The merge becomes the editor's content. What the person typed while it was saved is never
        // replaced: it is merged onto the saved version by slides, or, where it cannot be, stays as typed
        // (a change on top of the saved version, shown by the next save's difference).
        const now = current.current;
        const typed = now.source !== sent.source || now.tokens !== sent.tokens;
        const rebased = over?.content && typed ? rebase(sent, now, mine, format) : null;
        const replace = Boolean(over?.content) && (!typed || rebased !== null);
        if (replace) {
          setSource(rebased?.source ?? mine.source);
          setTokens(rebased?.tokens ?? mine.tokensCss);
        }
        setLoaded((now) => ({
          source: mine.source,
          tokens: mine.tokensCss,
          at: Date.now(),
          generation: now.generation + (replace ? 1 : 0),
        }));
        setBase(result.value.version);
        setRestored(null);
        onSaved();
        setStatus({ kind: "saved", text: `Saved as version ${result.value.version}` });
        startTransition(() => router.refresh());
      } else if (result.error.code === "conflict") {
        setConflict(true);
        setStatus({ kind: "idle", text: "Not saved: the deck changed elsewhere" });
      } else {
        showRefusal(result.error, "Not saved");
      }
    },
    [
      base,
      deckId,
      format,
      note,
      onSaved,
      router,
      setBase,
      setLoaded,
      setRestored,
      setSource,
      setStatus,
      setTokens,
      showRefusal,
      source,
      tokens,
    ],
  );

  // What Save can do now, the toolbar's button and Ctrl/Cmd+S alike.
  const canSave = canEdit && content.savable && !["saving", "error", "compiling"].includes(status.kind);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key === "s") {
        event.preventDefault();
        if (canSave) void save();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [canSave, save]);

  /** A version written here (a revert, the AI) becomes the editor's content: a save, which clears the note. */
  const afterRevert = useCallback(
    (version: number, written: { source: string; tokensCss: string }) => {
      setConflict(false);
      onSaved();
      load(version, written);
      setStatus({ kind: "saved", text: `Saved as version ${version}` });
      startTransition(() => router.refresh());
    },
    [load, onSaved, router, setStatus],
  );

  /** A version written elsewhere (the live-save notice's Load, the conflict's Take theirs) becomes the
   * editor's content: nothing is saved, so the note stays. */
  const afterLoad = useCallback(
    (version: number, written: { source: string; tokensCss: string }) => {
      setConflict(false);
      load(version, written);
      setStatus({ kind: "saved", text: `Loaded version ${version}` });
      startTransition(() => router.refresh());
    },
    [load, router, setStatus],
  );

  return { save, canSave, conflict, setConflict, afterRevert, afterLoad };
}

type Texts = { source: string; tokens: string };

/** What was typed (`sent` → `now`) merged onto the saved merge `saved`, by slides; null where it cannot be. */
function rebase(sent: Texts, now: Texts, saved: Content, format: DeckFormat): Texts | null {
  const source = mergeSlides(sent.source, now.source, saved.source, format);
  const tokens = mergeTokens(sent.tokens, now.tokens, saved.tokensCss);
  return source.ok && tokens !== null ? { source: source.source, tokens } : null;
}
