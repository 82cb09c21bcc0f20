"use client";

import { type KeyboardEvent, useRef, useState } from "react";
import { Button } from "@/components/ui";
import { ConfirmDialog } from "../confirm-dialog";
import type { DeckFormat } from "@/lib/contract/deck";
import type { SlideLayoutId } from "@/lib/deck/source/layouts";
import type { Finding } from "@/lib/render/check-findings";
import { LayoutGallery } from "./layout-gallery";
import { type RailThumbnail, RailThumbnails } from "./rail-thumbnails";
import { SlideButtons, SlideKeyMenu } from "./rail-slide-menu";

// The slide rail: the deck's slides as objects. Each is a number, its label, the deck check's mark and its
// picture (rail-thumbnails.tsx: the sandboxed player draws it, in a layer over the rail); a slide is picked
// (the preview shows it), renamed in place, duplicated, deleted (after a confirmation in the app's dialog),
// dragged to another place or moved with Alt+ArrowUp/Down, and new slides come from a gallery of layouts
// (layout-gallery.tsx). For the keyboard the slides are one tab stop (a roving tabindex): ↑/↓, Home and End
// go from slide to slide, and a slide's actions are keys of its own or its menu (Shift+F10,
// rail-slide-menu.tsx).
// Every change is a source transformation the editor applies to the code as one undoable step
// (use-visual-edits.ts); the rail itself only says what was asked.

export type RailSlide = { index: number; label: string };

export type RailActions = {
  pick: (index: number) => void;
  add: (after: number, layout: SlideLayoutId) => void;
  duplicate: (index: number) => void;
  remove: (index: number) => void;
  move: (from: number, to: number) => void;
  rename: (index: number, label: string) => void;
};

export function SlideRail({
  format,
  slides,
  current,
  findings,
  editable,
  actions,
  thumbnails = [],
}: {
  format: DeckFormat;
  slides: RailSlide[];
  /** 0-based, the slide the preview shows. */
  current: number;
  findings: Map<number, Finding[]>;
  /** Slides can be changed here (the owner, and a deck whose slides are written directly inside <Deck>). */
  editable: boolean;
  actions: RailActions;
  /** The slides' pictures, by row (none while the deck has no compiled preview). */
  thumbnails?: RailThumbnail[];
}) {
  const noun = format === "webpage" ? "beat" : "slide";
  const [renaming, setRenaming] = useState<number | null>(null);
  const [gallery, setGallery] = useState(false);
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  // The slide whose menu of actions the keyboard opened.
  const [menu, setMenu] = useState<number | null>(null);
  const items = useRef(new Map<number, HTMLButtonElement>());
  // The scrolling list, and the empty box each row keeps where the picture layer draws its thumbnail.
  const scroller = useRef<HTMLDivElement>(null);
  const spaces = useRef(new Map<number, HTMLElement>());
  const space = (index: number) => (element: HTMLElement | null) => {
    if (element) spaces.current.set(index, element);
    else spaces.current.delete(index);
  };
  // After a keyboard move the moved slide keeps the focus at its new place.
  const focusAfterMove = useRef<number | null>(null);

  const moveBy = (index: number, by: -1 | 1) => {
    const to = index + by;
    if (to < 0 || to >= slides.length) return;
    focusAfterMove.current = to;
    actions.move(index, to);
    requestAnimationFrame(() => {
      const target = focusAfterMove.current;
      focusAfterMove.current = null;
      if (target !== null) items.current.get(target)?.focus();
    });
  };
  const go = (to: number) => {
    const target = Math.max(0, Math.min(slides.length - 1, to));
    items.current.get(target)?.focus();
    actions.pick(target);
  };
  const onKey = (event: KeyboardEvent, index: number) => {
    const arrow = event.key === "ArrowUp" ? -1 : event.key === "ArrowDown" ? 1 : 0;
    if (arrow !== 0 && !event.altKey) go(index + arrow);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(slides.length - 1);
    else if (!editable) return;
    else if (arrow !== 0) moveBy(index, arrow);
    else if (event.key === "F2") setRenaming(index);
    else if (event.key === "Delete") confirmRemove(index);
    else if (event.key === "ContextMenu" || (event.shiftKey && event.key === "F10")) setMenu(index);
    else return;
    event.preventDefault();
  };
  const menuActions = (index: number) => [
    { label: "Rename", keys: "F2", run: () => setRenaming(index) },
    { label: "Duplicate", run: () => actions.duplicate(index) },
    { label: "Move up", keys: "Alt+↑", disabled: index === 0, run: () => moveBy(index, -1) },
    { label: "Move down", keys: "Alt+↓", disabled: index === slides.length - 1, run: () => moveBy(index, 1) },
    { label: "Delete", keys: "Delete", disabled: slides.length < 2, run: () => confirmRemove(index) },
  ];

  const confirmRemove = (index: number) => {
    if (slides.length > 1) setDeleting(index);
  };
  const deletingLabel = deleting === null ? "" : (slides[deleting]?.label ?? `${noun} ${deleting + 1}`);

  return (
    <nav
      aria-label="Outline"
      id="editor-slides"
      tabIndex={-1}
      className="flex min-h-0 flex-col border-r border-zinc-200 bg-white focus:outline-none"
    >
      <div className="flex items-center justify-between px-3 pt-3 pb-2">
        <p className="text-xs font-semibold tracking-wide text-zinc-500 uppercase" id="rail-heading">
          {format === "webpage" ? "Beats" : "Slides"}
        </p>
        {editable && (
          <Button variant="secondary" type="button" className="px-2 py-1 text-xs" onClick={() => setGallery(true)}>
            Add {noun}
          </Button>
        )}
      </div>
      {editable && (
        <p className="px-3 pb-2 text-[11px] leading-4 text-zinc-500" id="rail-help">
          ↑/↓ to pick, Alt+↑/↓ or drag to move, F2 to rename, Delete to remove, Shift+F10 for more.
        </p>
      )}
      <div ref={scroller} className="relative min-h-0 flex-1 overflow-y-auto">
        <ol className="space-y-1 px-2 pb-3" aria-labelledby="rail-heading">
          {slides.map((slide) => {
            const index = slide.index;
            const selected = index === current;
            return (
              <li
                key={`${index}-${slide.label}`}
                data-testid="rail-slide"
                data-index={index}
                draggable={editable && renaming !== index}
                onDragStart={(event) => {
                  setDragging(index);
                  event.dataTransfer.effectAllowed = "move";
                  event.dataTransfer.setData("text/plain", String(index));
                }}
                onDragOver={(event) => {
                  if (dragging === null) return;
                  event.preventDefault();
                  event.dataTransfer.dropEffect = "move";
                  setOver(index);
                }}
                onDragLeave={() => setOver((now) => (now === index ? null : now))}
                onDrop={(event) => {
                  event.preventDefault();
                  const from = dragging ?? Number(event.dataTransfer.getData("text/plain"));
                  setDragging(null);
                  setOver(null);
                  if (Number.isInteger(from) && from !== index) actions.move(from, index);
                }}
                onDragEnd={() => {
                  setDragging(null);
                  setOver(null);
                }}
                className={`group rounded ${over === index && dragging !== index ? "ring-2 ring-accent" : ""} ${dragging === index ? "opacity-50" : ""}`}
              >
                {renaming === index ? (
                  <div className="pb-1.5">
                    <RenameField
                      label={slide.label}
                      number={index + 1}
                      noun={noun}
                      onDone={(label) => {
                        setRenaming(null);
                        if (label !== null && label !== slide.label) actions.rename(index, label);
                        requestAnimationFrame(() => items.current.get(index)?.focus());
                      }}
                    />
                    <span ref={space(index)} className="mx-2 block aspect-video" />
                  </div>
                ) : (
                  <div
                    className={`relative flex items-center gap-1 rounded ${selected ? "bg-zinc-900 text-white" : "text-zinc-700 hover:bg-zinc-100"}`}
                  >
                    <button
                      type="button"
                      ref={(element) => {
                        if (element) items.current.set(index, element);
                        else items.current.delete(index);
                      }}
                      onClick={() => actions.pick(index)}
                      onDoubleClick={() => editable && setRenaming(index)}
                      onKeyDown={(event) => onKey(event, index)}
                      aria-current={selected ? "true" : undefined}
                      aria-describedby={editable ? "rail-help" : undefined}
                      aria-keyshortcuts={editable ? "Shift+F10" : undefined}
                      tabIndex={selected || (current >= slides.length && index === 0) ? 0 : -1}
                      data-rail-stop={selected || (current >= slides.length && index === 0) ? "" : undefined}
                      className="flex min-w-0 flex-1 flex-col gap-1 px-2 py-1.5 text-left text-sm focus-visible:outline-2 focus-visible:outline-accent"
                    >
                      <span className="flex w-full min-w-0 items-center gap-1.5">
                        <span className="w-5 shrink-0 text-xs tabular-nums opacity-60">{index + 1}</span>
                        <span className="min-w-0 flex-1 truncate">{slide.label}</span>
                        <FindingMark findings={findings.get(index + 1) ?? []} />
                      </span>
                      {/* The picture layer draws this slide's thumbnail over this box. */}
                      <span ref={space(index)} className="block aspect-video w-full" />
                    </button>
                    {editable && (
                      <SlideButtons
                        name={`${noun} ${index + 1}`}
                        selected={selected}
                        onRename={() => setRenaming(index)}
                        onDuplicate={() => actions.duplicate(index)}
                        onDelete={() => confirmRemove(index)}
                        canDelete={slides.length > 1}
                      />
                    )}
                    {editable && menu === index && (
                      <SlideKeyMenu
                        name={`${noun} ${index + 1}`}
                        actions={menuActions(index)}
                        onClose={() => {
                          setMenu(null);
                          items.current.get(index)?.focus();
                        }}
                      />
                    )}
                  </div>
                )}
              </li>
            );
          })}
        </ol>
        <RailThumbnails
          thumbnails={thumbnails.slice(0, slides.length)}
          scroller={scroller}
          spaces={spaces}
          current={current}
          dimmed={dragging}
          noun={noun}
        />
      </div>
      {deleting !== null && (
        <ConfirmDialog
          open
          title={`Delete ${noun} ${deleting + 1}?`}
          message={`“${deletingLabel}” is removed from the deck. Undo (Ctrl+Z) brings it back.`}
          confirmLabel={`Delete ${noun}`}
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const index = deleting;
            setDeleting(null);
            actions.remove(index);
            // The slide before it is shown now (editor.tsx); the keyboard goes there too.
            requestAnimationFrame(() => items.current.get(Math.max(0, index - 1))?.focus());
          }}
        />
      )}
      <LayoutGallery
        open={gallery}
        noun={noun}
        onClose={() => setGallery(false)}
        onPick={(layout) => {
          setGallery(false);
          actions.add(Math.min(current, slides.length - 1), layout);
        }}
      />
    </nav>
  );
}

function RenameField({
  label,
  number,
  noun,
  onDone,
}: {
  label: string;
  number: number;
  noun: string;
  onDone: (label: string | null) => void;
}) {
  const [value, setValue] = useState(label);
  const done = useRef(false);
  const finish = (result: string | null) => {
    if (done.current) return;
    done.current = true;
    onDone(result);
  };
  return (
    <label className="flex items-center gap-1.5 px-2 py-1 text-sm">
      <span className="w-5 shrink-0 text-xs opacity-60">{number}</span>
      <span className="sr-only">
        Label of {noun} {number}
      </span>
      <input
        autoFocus
        value={value}
        maxLength={200}
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            finish(value);
          } else if (event.key === "Escape") {
            event.preventDefault();
            finish(null);
          }
        }}
        onBlur={() => finish(value)}
        className="min-w-0 flex-1 rounded px-1 py-0.5 ring-1 ring-accent"
      />
    </label>
  );
}

// A slide's findings on the rail: a red count for errors, an amber one for warnings only.
function FindingMark({ findings }: { findings: Finding[] }) {
  if (findings.length === 0) return null;
  const errors = findings.filter((finding) => finding.severity === "error").length;
  const kind = errors > 0 ? "error" : "warning";
  const text =
    errors > 0
      ? `${errors} error${errors > 1 ? "s" : ""}`
      : `${findings.length} warning${findings.length > 1 ? "s" : ""}`;
  return (
    <span
      data-finding={kind}
      title={findings.map((finding) => finding.message).join("\n")}
      aria-label={text}
      className={`shrink-0 rounded-full px-1.5 text-[11px] leading-4 font-semibold ${kind === "error" ? "bg-red-600 text-white" : "bg-amber-400 text-amber-950"}`}
    >
      {errors > 0 ? errors : findings.length}
    </span>
  );
}
