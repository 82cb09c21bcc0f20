"use client";

import { type KeyboardEvent, useRef, useState } from "react";
import { Button } from "@/components/ui";
import { Dialog } from "@/components/ui/dialog";
import { ConfirmDialog } from "../confirm-dialog";
import type { DeckFormat } from "@/lib/contract/deck";
import { slideLayouts, type SlideLayoutId } from "@/lib/source/transform/layouts";
import type { Finding } from "@/lib/render/check-findings";
import { type RailThumbnail, RailThumbnails } from "./rail-thumbnails";

// The slide rail: the deck's slides as objects. Each is a number, its label, the deck check's mark and its
// picture (rail-thumbnails.tsx: the sandboxed player draws it, in a layer over the rail); a slide is picked
// (the preview shows it), renamed in place, duplicated, deleted (after a confirmation in the app's dialog),
// dragged to another place or moved with Alt+ArrowUp/Down, and new slides come from a gallery of layouts.
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

  const onKey = (event: KeyboardEvent, index: number) => {
    if (!editable) return;
    if (event.altKey && (event.key === "ArrowUp" || event.key === "ArrowDown")) {
      event.preventDefault();
      const to = index + (event.key === "ArrowUp" ? -1 : 1);
      if (to < 0 || to >= slides.length) return;
      focusAfterMove.current = to;
      actions.move(index, to);
      requestAnimationFrame(() => {
        const target = focusAfterMove.current;
        focusAfterMove.current = null;
        if (target !== null) items.current.get(target)?.focus();
      });
    } else if (event.key === "F2") {
      event.preventDefault();
      setRenaming(index);
    } else if (event.key === "Delete") {
      event.preventDefault();
      confirmRemove(index);
    } else if (!event.altKey && (event.key === "ArrowUp" || event.key === "ArrowDown")) {
      event.preventDefault();
      const to = Math.max(0, Math.min(slides.length - 1, index + (event.key === "ArrowUp" ? -1 : 1)));
      items.current.get(to)?.focus();
      actions.pick(to);
    }
  };

  const confirmRemove = (index: number) => {
    if (slides.length > 1) setDeleting(index);
  };
  const deletingLabel = deleting === null ? "" : (slides[deleting]?.label ?? `${noun} ${deleting + 1}`);

  return (
    <nav aria-label="Outline" className="flex min-h-0 flex-col border-r border-zinc-200 bg-white">
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
          Drag or Alt+↑/↓ to move, F2 to rename, Delete to remove.
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
                      tabIndex={selected || (current >= slides.length && index === 0) ? 0 : -1}
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
                      <SlideMenu
                        name={`${noun} ${index + 1}`}
                        selected={selected}
                        onRename={() => setRenaming(index)}
                        onDuplicate={() => actions.duplicate(index)}
                        onDelete={() => confirmRemove(index)}
                        canDelete={slides.length > 1}
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

// Rename, duplicate and delete: small buttons on the slide's row.
function SlideMenu({
  name,
  selected,
  onRename,
  onDuplicate,
  onDelete,
  canDelete,
}: {
  name: string;
  selected: boolean;
  onRename: () => void;
  onDuplicate: () => void;
  onDelete: () => void;
  canDelete: boolean;
}) {
  const look = `rounded p-0.5 ${selected ? "hover:bg-zinc-700" : "hover:bg-zinc-200"} focus-visible:outline-2 focus-visible:outline-accent disabled:opacity-40`;
  // Over the label's end, seen on hover and while the slide has the focus, so the label keeps the rail's width
  // otherwise; always in the tab order after the slide.
  return (
    <span
      className={`absolute top-1.5 right-1 flex gap-0.5 rounded opacity-0 group-focus-within:opacity-100 group-hover:opacity-100 ${selected ? "bg-zinc-900" : "bg-zinc-100"}`}
    >
      <button type="button" className={look} onClick={onRename} aria-label={`Rename ${name}`} title="Rename">
        <MenuIcon d="M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4" />
      </button>
      <button type="button" className={look} onClick={onDuplicate} aria-label={`Duplicate ${name}`} title="Duplicate">
        <MenuIcon d="M9 9h11v11H9zM5 15H4V4h11v1" />
      </button>
      <button
        type="button"
        className={look}
        onClick={onDelete}
        disabled={!canDelete}
        aria-label={`Delete ${name}`}
        title="Delete"
      >
        <MenuIcon d="M6 6l12 12M18 6L6 18" />
      </button>
    </span>
  );
}

function MenuIcon({ d }: { d: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="14"
      height="14"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path d={d} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
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

// The gallery of new slides: one button per layout of the source library, with its description.
function LayoutGallery({
  open,
  noun,
  onClose,
  onPick,
}: {
  open: boolean;
  noun: string;
  onClose: () => void;
  onPick: (layout: SlideLayoutId) => void;
}) {
  return (
    <Dialog label={`Add a ${noun}`} open={open} onClose={onClose}>
      <ul className="grid grid-cols-2 gap-2" data-testid="layout-gallery">
        {slideLayouts.map((layout) => (
          <li key={layout.id}>
            <button
              type="button"
              data-layout={layout.id}
              onClick={() => onPick(layout.id)}
              className="h-full w-full rounded-lg p-3 text-left ring-1 ring-zinc-200 hover:bg-zinc-50 hover:ring-accent focus-visible:outline-2 focus-visible:outline-accent"
            >
              <span className="block text-sm font-medium">{layout.name}</span>
              <span className="block text-xs text-zinc-600">{layout.description}</span>
            </button>
          </li>
        ))}
      </ul>
    </Dialog>
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
