"use client";

import { useEffect, useId, useRef, useState } from "react";
import type { InsertKind } from "@/lib/source/transform/insert";
import { menuItems, moveInMenu } from "./menu-keys";

// The toolbar's Insert menu: a new text, bullet list, image, chart, table, big number, quote or code on the
// slide on screen, where its layout puts it (lib/source/transform/insert.ts). A menu button: Enter, Space or ↓
// opens it on its first item, arrows move, Escape closes it and gives the keyboard back to the button.

const items: { kind: InsertKind; label: string; hint: string }[] = [
  { kind: "text", label: "Text", hint: "A paragraph" },
  { kind: "bullets", label: "Bullets", hint: "A list of points" },
  { kind: "image", label: "Image", hint: "A picture (drop or paste one on the slide, too)" },
  { kind: "chart", label: "Chart", hint: "Bars from a few values" },
  { kind: "table", label: "Table", hint: "Rows and columns" },
  { kind: "stat", label: "Stat", hint: "One big number" },
  { kind: "quote", label: "Quote", hint: "Someone's words" },
  { kind: "code", label: "Code", hint: "A code sample" },
];

export function InsertMenu({ disabled, onInsert }: { disabled: boolean; onInsert: (kind: InsertKind) => void }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    menuItems(menu.current)[0]?.focus();
    const close = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node) && event.target !== button.current) setOpen(false);
    };
    document.addEventListener("pointerdown", close);
    return () => document.removeEventListener("pointerdown", close);
  }, [open]);

  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        id={`${id}-button`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={`${id}-menu`}
        disabled={disabled}
        title={disabled ? "Insert works on a slide the editor can read" : "Add an element to this slide"}
        onClick={() => setOpen((now) => !now)}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown") {
            event.preventDefault();
            setOpen(true);
          }
        }}
        className="inline-flex items-center gap-1 rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-white hover:opacity-90 disabled:opacity-40"
      >
        <span aria-hidden className="text-base leading-none">
          +
        </span>{" "}
        Insert
      </button>
      {open && (
        <div
          ref={menu}
          id={`${id}-menu`}
          role="menu"
          aria-labelledby={`${id}-button`}
          className="absolute top-full left-0 z-30 mt-1 w-64 rounded-lg bg-white p-1 shadow-lg ring-1 ring-zinc-200"
          onKeyDown={(event) => {
            if (moveInMenu(event, menu.current)) return;
            if (event.key === "Escape" || event.key === "Tab") {
              setOpen(false);
              if (event.key === "Escape") button.current?.focus();
            }
          }}
        >
          {items.map((item) => (
            <button
              key={item.kind}
              type="button"
              role="menuitem"
              tabIndex={-1}
              onClick={() => {
                setOpen(false);
                button.current?.focus();
                onInsert(item.kind);
              }}
              className="flex w-full items-baseline gap-2 rounded px-2.5 py-1.5 text-left hover:bg-zinc-100 focus:bg-zinc-100 focus:outline-none"
            >
              <span className="text-sm font-medium text-zinc-900">{item.label}</span>
              <span className="truncate text-xs text-zinc-500">{item.hint}</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
