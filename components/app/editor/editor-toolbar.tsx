"use client";

import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { Badge, Button, buttonStyles, Input } from "@/components/ui";
import type { DeckFormat } from "@/lib/contract/deck";
import type { InsertKind } from "@/lib/source/transform/insert";
import { AnalyticsButton } from "./analytics-panel";
import type { HistoryDepth } from "./code-editor";
import { ExportButtons } from "./deck-panels";
import { InsertMenu } from "./insert-menu";
import { PresenceList } from "./presence-list";
import { DuplicateButton } from "./reader-panel";
import type { Status } from "./use-compile";
import type { usePresence } from "./use-presence";

// The editor's bar, on one line from 1024 px: where the deck is and how it stands (title, saved or not,
// who else is here), then what a person does with it: Undo, Redo, Insert, History, Present, the exports,
// analytics, Share, AI, the Code panel, and Save with a note. The title gives way first and the status
// never; under 1400 px the exports and analytics move into a "More" panel. On a phone only the reader's
// part stays: the title and Present.

export function EditorToolbar({
  deck,
  canEdit,
  status,
  answered,
  others,
  liveSaves,
  history,
  onUndo,
  onRedo,
  insertDisabled,
  onInsert,
  historyCount,
  showHistory,
  onHistory,
  present,
  outline,
  codeOpen,
  onCode,
  onDialog,
  note,
  setNote,
  noteMaxLength,
  canSave,
  onSave,
}: {
  deck: { id: string; title: string; format: DeckFormat };
  canEdit: boolean;
  status: Status;
  answered: number;
  others: ReturnType<typeof usePresence>;
  /** The notice of a version saved elsewhere (live-save-notice.tsx). */
  liveSaves: ReactNode;
  history: HistoryDepth;
  onUndo: () => void;
  onRedo: () => void;
  insertDisabled: boolean;
  onInsert: (kind: InsertKind) => void;
  historyCount: number;
  showHistory: boolean;
  onHistory: () => void;
  /** The Present button, or nothing (a reader of a deck without versions). */
  present: ReactNode;
  outline: string[];
  codeOpen: boolean;
  onCode: () => void;
  onDialog: (dialog: "share" | "ai") => void;
  note: string;
  setNote: (note: string) => void;
  noteMaxLength: number;
  canSave: boolean;
  onSave: () => void;
}) {
  const wide = "hidden lg:flex";
  return (
    <div className="flex items-center gap-2 border-b border-zinc-200 bg-white px-3 py-2 whitespace-nowrap">
      <a href="/decks" className="shrink-0 text-sm text-zinc-500 hover:text-zinc-900">
        Library
      </a>
      <span className="text-zinc-300">/</span>
      {/* The title gives way first (the whole of it in its tooltip); the status never does. */}
      <h1 className="max-w-[16rem] min-w-12 shrink truncate text-sm font-semibold" title={deck.title}>
        {deck.title}
      </h1>
      <span className="hidden shrink-0 2xl:inline">
        <Badge>{deck.format === "webpage" ? "Webpage" : "Slides"}</Badge>
      </span>
      <span
        role="status"
        data-testid="editor-status"
        data-kind={status.kind}
        data-answered={answered}
        className={`shrink-0 text-xs ${status.kind === "error" ? "text-red-700" : "text-zinc-500"}`}
      >
        {status.text}
      </span>
      <PresenceList others={others} />
      {liveSaves}
      <div className="ml-auto flex shrink-0 items-center gap-1.5">
        {canEdit && (
          <div className={`${wide} items-center gap-1.5`}>
            <UndoRedo history={history} onUndo={onUndo} onRedo={onRedo} />
            <InsertMenu disabled={insertDisabled} onInsert={onInsert} />
          </div>
        )}
        <span className={wide}>
          <Button variant="ghost" type="button" onClick={onHistory} aria-expanded={showHistory}>
            History ({historyCount})
          </Button>
        </span>
        {present}
        <div className={`${wide} items-center gap-1.5`}>
          <MoreTools>
            {deck.format === "slides" && <ExportButtons deckId={deck.id} disabled={historyCount === 0} />}
            {!canEdit && historyCount > 0 && <DuplicateButton deckId={deck.id} />}
            <AnalyticsButton deckId={deck.id} labels={outline} />
          </MoreTools>
          {canEdit && (
            <>
              <Button variant="secondary" type="button" onClick={() => onDialog("share")}>
                Share
              </Button>
              <Button variant="secondary" type="button" onClick={() => onDialog("ai")}>
                AI
              </Button>
            </>
          )}
          <Button
            variant={codeOpen ? "secondary" : "ghost"}
            type="button"
            onClick={onCode}
            aria-expanded={codeOpen}
            aria-controls="code-panel"
            title="The deck's code and theme tokens"
          >
            Code
          </Button>
          {canEdit && (
            <>
              <label htmlFor="version-note" className="sr-only">
                Version note
              </label>
              <Input
                id="version-note"
                value={note}
                onChange={(e) => setNote(e.target.value)}
                placeholder="Version note"
                className="w-36"
                maxLength={noteMaxLength}
              />
              <Button type="button" onClick={onSave} disabled={!canSave}>
                Save version
              </Button>
            </>
          )}
        </div>
      </div>
    </div>
  );
}

// The less used tools: in the bar from 1400 px; narrower, in a panel under a "More" button (a disclosure:
// Escape or a click elsewhere closes it). Rendered once, placed by the width, so an export in progress keeps
// its state whether the panel is open or not.
function MoreTools({ children }: { children: ReactNode }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const away = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener("pointerdown", away);
    return () => document.removeEventListener("pointerdown", away);
  }, [open]);
  return (
    <div className="relative flex items-center">
      <button
        ref={button}
        type="button"
        className={buttonStyles("ghost", "min-[1400px]:hidden")}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((now) => !now)}
        title="Exports and analytics"
      >
        More
      </button>
      <div
        ref={panel}
        id={id}
        onKeyDown={(event) => {
          if (event.key !== "Escape" || event.defaultPrevented || !open) return;
          setOpen(false);
          button.current?.focus();
        }}
        className={`${open ? "flex" : "hidden"} absolute top-full right-0 z-30 mt-1 flex-col items-start gap-2 rounded-lg bg-white p-2 shadow-lg ring-1 ring-zinc-200 min-[1400px]:static min-[1400px]:mt-0 min-[1400px]:flex min-[1400px]:flex-row min-[1400px]:items-center min-[1400px]:gap-1.5 min-[1400px]:bg-transparent min-[1400px]:p-0 min-[1400px]:shadow-none min-[1400px]:ring-0`}
      >
        {children}
      </div>
    </div>
  );
}

// Undo and Redo in the code's history (one history with every visual change), as arrows.
function UndoRedo({ history, onUndo, onRedo }: { history: HistoryDepth; onUndo: () => void; onRedo: () => void }) {
  return (
    <>
      <Button
        variant="ghost"
        type="button"
        className="px-2"
        onClick={onUndo}
        disabled={history.undo === 0}
        aria-label="Undo"
        title="Undo (Ctrl+Z)"
      >
        <HistoryIcon d="M9 14 4 9l5-5M4 9h10.5a5.5 5.5 0 0 1 0 11H11" />
      </Button>
      <Button
        variant="ghost"
        type="button"
        className="px-2"
        onClick={onRedo}
        disabled={history.redo === 0}
        aria-label="Redo"
        title="Redo (Shift+Ctrl+Z)"
      >
        <HistoryIcon d="m15 14 5-5-5-5M20 9H9.5a5.5 5.5 0 0 0 0 11H13" />
      </Button>
    </>
  );
}

// Undo's and Redo's arrows (lucide's undo-2 and redo-2).
function HistoryIcon({ d }: { d: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="16"
      height="16"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={d} />
    </svg>
  );
}
