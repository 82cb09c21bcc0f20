"use client";

import { Fragment, useRef, useState } from "react";
import { Button } from "@/components/ui";
import { ConfirmDialog } from "../confirm-dialog";
import type { DeckFormat } from "@/lib/contract/deck";
import type { SlideLayoutId } from "@/lib/source/transform/layouts";
import type { Finding } from "@/lib/render/check-findings";
import { LayoutGallery } from "./layout-gallery";
import { type RailThumbnail, RailThumbnails } from "./rail-thumbnails";
import { SlideButtons, SlideKeyMenu } from "./rail-slide-menu";
import { useRailDrag, useRailKeys } from "./use-rail-keys";
import { useRailWindow } from "./use-rail-window";

// The slide rail: the deck's slides as objects. Each is a number, its label, the deck check's mark and its
// picture (rail-thumbnails.tsx: the sandboxed player draws it, in a layer over the rail); a slide is picked
// (the preview shows it), renamed in place, duplicated, deleted (after a confirmation in the app's dialog),
// dragged to another place or moved with Alt+ArrowUp/Down, and new slides come from a gallery of layouts
// (layout-gallery.tsx). For the keyboard the slides are one tab stop (a roving tabindex): ↑/↓, Home and End
// go from slide to slide, and a slide's actions are keys of its own or its menu (Shift+F10,
// rail-slide-menu.tsx). A long deck's rail keeps only the rows near its visible part in the DOM, and makes
// only their pictures (use-rail-window.ts); the keys scroll a row that is not there into view and focus it.
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
  const [deleting, setDeleting] = useState<number | null>(null);
  // The slide whose menu of actions the keyboard opened.
  const [menu, setMenu] = useState<number | null>(null);
  // The scrolling list, and the empty box each row keeps where the picture layer draws its thumbnail.
  const scroller = useRef<HTMLDivElement>(null);
  const spaces = useRef(new Map<number, HTMLElement>());
  const space = (index: number) => (element: HTMLElement | null) => {
    if (element) spaces.current.set(index, element);
    else spaces.current.delete(index);
  };
  const { dragging, over, handlers } = useRailDrag(actions.move);
  const shown = useRailWindow({
    scroller,
    count: slides.length,
    // The tab stop (the slide shown, or the first), and the rows an action holds on to.
    pinned: [current < slides.length ? current : 0, renaming, menu, dragging, deleting],
  });
  const keys = useRailKeys({
    count: slides.length,
    editable,
    actions,
    reveal: shown.reveal,
    onRename: setRenaming,
    onDelete: (index) => confirmRemove(index),
    onMenu: setMenu,
  });

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
      <RailHeader format={format} noun={noun} editable={editable} onAdd={() => setGallery(true)} />
      <div ref={scroller} className="relative min-h-0 flex-1 overflow-y-auto">
        <ol className="px-2 pb-3" aria-labelledby="rail-heading">
          {shown.rows.map((index, place) => {
            const slide = slides[index]!;
            const selected = index === current;
            // The rows not mounted before this one (and after the last): an empty item of their height.
            const before = index - (place === 0 ? 0 : shown.rows[place - 1]! + 1);
            const after = place === shown.rows.length - 1 ? slides.length - 1 - index : 0;
            return (
              <Fragment key={`${index}-${slide.label}`}>
                {before > 0 && <RowsGap height={shown.gap(before)} />}
                <li
                  data-testid="rail-slide"
                  data-index={index}
                  data-renaming={renaming === index ? "true" : undefined}
                  aria-posinset={index + 1}
                  aria-setsize={slides.length}
                  draggable={editable && renaming !== index}
                  {...handlers(index)}
                  className={`group mb-1 rounded ${over === index && dragging !== index ? "ring-2 ring-accent" : ""} ${dragging === index ? "opacity-50" : ""}`}
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
                          requestAnimationFrame(() => keys.focus(index));
                        }}
                      />
                      <span ref={space(index)} className="mx-2 block aspect-video" />
                    </div>
                  ) : (
                    <SlideRow
                      slide={slide}
                      noun={noun}
                      selected={selected}
                      tabStop={selected || (current >= slides.length && index === 0)}
                      editable={editable}
                      findings={findings.get(index + 1) ?? []}
                      keys={keys}
                      menuOpen={menu === index}
                      canDelete={slides.length > 1}
                      space={space(index)}
                      onPick={() => actions.pick(index)}
                      onRename={() => setRenaming(index)}
                      onDuplicate={() => actions.duplicate(index)}
                      onDelete={() => confirmRemove(index)}
                      onMenuClosed={() => {
                        setMenu(null);
                        keys.focus(index);
                      }}
                    />
                  )}
                </li>
                {after > 0 && <RowsGap height={shown.gap(after)} />}
              </Fragment>
            );
          })}
        </ol>
        <RailThumbnails
          thumbnails={thumbnails.slice(0, slides.length)}
          shown={shown.pictures}
          rows={shown.rows}
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
            requestAnimationFrame(() => keys.focus(Math.max(0, index - 1)));
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

// Rows of the rail that are not mounted: their place, hidden from assistive technology (each mounted row
// says its place and the list's length itself: aria-posinset, aria-setsize).
function RowsGap({ height }: { height: number }) {
  return <li aria-hidden="true" className="list-none" style={{ height }} />;
}

// The rail's heading, Add slide (the gallery of layouts) and what the keys do.
function RailHeader({
  format,
  noun,
  editable,
  onAdd,
}: {
  format: DeckFormat;
  noun: string;
  editable: boolean;
  onAdd: () => void;
}) {
  return (
    <>
      <div className="flex items-center justify-between px-3 pt-3 pb-2">
        <p className="text-xs font-semibold tracking-wide text-zinc-500 uppercase" id="rail-heading">
          {format === "webpage" ? "Beats" : "Slides"}
        </p>
        {editable && (
          <Button variant="secondary" type="button" className="px-2 py-1 text-xs" onClick={onAdd}>
            Add {noun}
          </Button>
        )}
      </div>
      {editable && (
        <p className="px-3 pb-2 text-[11px] leading-4 text-zinc-500" id="rail-help">
          ↑/↓ to pick, Alt+↑/↓ or drag to move, F2 to rename, Delete to remove, Shift+F10 for more.
        </p>
      )}
    </>
  );
}

// A slide's row: its button (number, label, the deck check's mark, the box its picture is drawn over), the
// pointer's buttons and, opened by the keyboard, the menu of its actions.
function SlideRow({
  slide,
  noun,
  selected,
  tabStop,
  editable,
  findings,
  keys,
  menuOpen,
  canDelete,
  space,
  onPick,
  onRename,
  onDuplicate,
  onDelete,
  onMenuClosed,
}: {
  slide: RailSlide;
  noun: string;
  selected: boolean;
  /** The rail's one tab stop. */
  tabStop: boolean;
  editable: boolean;
  findings: Finding[];
  keys: ReturnType<typeof useRailKeys>;
  menuOpen: boolean;
  canDelete: boolean;
  space: (element: HTMLElement | null) => void;
  onPick: () => void;
  onRename: () => void;
  onDuplicate: () => void;
  onDelete: () => void;
  onMenuClosed: () => void;
}) {
  const index = slide.index;
  return (
    <div
      className={`relative flex items-center gap-1 rounded ${selected ? "bg-zinc-900 text-white" : "text-zinc-700 hover:bg-zinc-100"}`}
    >
      <button
        type="button"
        ref={keys.item(index)}
        onClick={onPick}
        onDoubleClick={() => editable && onRename()}
        onKeyDown={(event) => keys.onKey(event, index)}
        aria-current={selected ? "true" : undefined}
        aria-describedby={editable ? "rail-help" : undefined}
        aria-keyshortcuts={editable ? "Shift+F10" : undefined}
        tabIndex={tabStop ? 0 : -1}
        data-rail-stop={tabStop ? "" : undefined}
        className="flex min-w-0 flex-1 flex-col gap-1 px-2 py-1.5 text-left text-sm focus-visible:outline-2 focus-visible:outline-accent"
      >
        <span className="flex w-full min-w-0 items-center gap-1.5">
          <span className="w-5 shrink-0 text-xs tabular-nums opacity-60">{index + 1}</span>
          <span className="min-w-0 flex-1 truncate">{slide.label}</span>
          <FindingMark findings={findings} />
        </span>
        {/* The picture layer draws this slide's thumbnail over this box. */}
        <span ref={space} className="block aspect-video w-full" />
      </button>
      {editable && (
        <SlideButtons
          name={`${noun} ${index + 1}`}
          selected={selected}
          onRename={onRename}
          onDuplicate={onDuplicate}
          onDelete={onDelete}
          canDelete={canDelete}
        />
      )}
      {editable && menuOpen && (
        <SlideKeyMenu name={`${noun} ${index + 1}`} actions={keys.menuActions(index)} onClose={onMenuClosed} />
      )}
    </div>
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
