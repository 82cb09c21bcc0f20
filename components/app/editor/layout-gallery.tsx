"use client";

import { type KeyboardEvent, useRef, useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import { slideLayouts, type SlideLayoutId } from "@/lib/source/transform/layouts";

// The gallery of new slides ("Add a slide"): one button per layout of the source library, with its
// description, two to a row. A grid for the keyboard: it opens on the first layout (not on Close), the
// arrow keys move between layouts, Home and End go to the first and last of a row (with Ctrl: of all),
// Enter adds the one with the focus, and the gallery is one tab stop (roving tabindex).

const COLUMNS = 2;

export function LayoutGallery({
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
      {/* Anew at each opening: the keyboard starts on the first layout. */}
      <LayoutGrid key={open ? "open" : "closed"} noun={noun} onPick={onPick} />
    </Dialog>
  );
}

function LayoutGrid({ noun, onPick }: { noun: string; onPick: (layout: SlideLayoutId) => void }) {
  const [active, setActive] = useState(0);
  const cells = useRef(new Map<number, HTMLButtonElement>());
  const rows = Array.from({ length: Math.ceil(slideLayouts.length / COLUMNS) }, (_, row) =>
    slideLayouts.slice(row * COLUMNS, row * COLUMNS + COLUMNS),
  );
  const last = slideLayouts.length - 1;
  const onKey = (event: KeyboardEvent) => {
    const rowStart = active - (active % COLUMNS);
    const moves: Record<string, number> = {
      ArrowRight: active + 1,
      ArrowLeft: active - 1,
      ArrowDown: active + COLUMNS,
      ArrowUp: active - COLUMNS,
      Home: event.ctrlKey ? 0 : rowStart,
      End: event.ctrlKey ? last : Math.min(last, rowStart + COLUMNS - 1),
    };
    const to = moves[event.key];
    if (to === undefined) return;
    event.preventDefault();
    if (to < 0 || to > last) return;
    setActive(to);
    cells.current.get(to)?.focus();
  };
  return (
    <div
      role="grid"
      aria-label={`Layouts of a new ${noun}`}
      className="space-y-2"
      data-testid="layout-gallery"
      onKeyDown={onKey}
    >
      {rows.map((row, rowIndex) => (
        <div role="row" key={rowIndex} className="grid grid-cols-2 gap-2">
          {row.map((layout, column) => {
            const index = rowIndex * COLUMNS + column;
            return (
              <div role="gridcell" key={layout.id}>
                <button
                  type="button"
                  ref={(element) => {
                    if (element) cells.current.set(index, element);
                    else cells.current.delete(index);
                  }}
                  data-layout={layout.id}
                  data-autofocus={index === 0 ? "" : undefined}
                  tabIndex={index === active ? 0 : -1}
                  onFocus={() => setActive(index)}
                  onClick={() => onPick(layout.id)}
                  className="h-full w-full rounded-lg p-3 text-left ring-1 ring-zinc-200 hover:bg-zinc-50 hover:ring-accent focus-visible:outline-2 focus-visible:outline-accent"
                >
                  <span className="block text-sm font-medium">{layout.name}</span>
                  <span className="block text-xs text-zinc-600">{layout.description}</span>
                </button>
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
}
