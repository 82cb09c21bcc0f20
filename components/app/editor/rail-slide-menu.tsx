"use client";

import { useEffect, useLayoutEffect, useRef } from "react";
import { menuItems, moveInMenu } from "./menu-keys";

// A rail slide's actions. For the pointer: small Rename, Duplicate and Delete buttons over the row's end,
// out of the tab order (a slide is one tab stop). For the keyboard: the slide's own keys (F2, Delete,
// Alt+↑/↓) and a menu of all its actions, opened on the slide with Shift+F10 or the context-menu key: the
// arrows move in it, Enter does one, Escape or Tab closes it and gives the keyboard back to the slide.

export function SlideButtons({
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
  // otherwise.
  return (
    <span
      className={`absolute top-1.5 right-1 flex gap-0.5 rounded opacity-0 group-focus-within:opacity-100 group-hover:opacity-100 ${selected ? "bg-zinc-900" : "bg-zinc-100"}`}
    >
      <button
        type="button"
        tabIndex={-1}
        className={look}
        onClick={onRename}
        aria-label={`Rename ${name}`}
        title="Rename (F2)"
      >
        <MenuIcon d="M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4" />
      </button>
      <button
        type="button"
        tabIndex={-1}
        className={look}
        onClick={onDuplicate}
        aria-label={`Duplicate ${name}`}
        title="Duplicate"
      >
        <MenuIcon d="M9 9h11v11H9zM5 15H4V4h11v1" />
      </button>
      <button
        type="button"
        tabIndex={-1}
        className={look}
        onClick={onDelete}
        disabled={!canDelete}
        aria-label={`Delete ${name}`}
        title="Delete (Delete)"
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

export type SlideAction = { label: string; keys?: string; disabled?: boolean; run: () => void };

export function SlideKeyMenu({
  name,
  actions,
  onClose,
}: {
  name: string;
  actions: SlideAction[];
  /** Closed without an action (Escape, Tab, a click elsewhere) or after one. */
  onClose: () => void;
}) {
  const menu = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  useLayoutEffect(() => {
    close.current = onClose;
  });
  // Opened on its first action; a click elsewhere closes it.
  useEffect(() => {
    menuItems(menu.current)[0]?.focus();
    const away = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node)) close.current();
    };
    document.addEventListener("pointerdown", away);
    return () => document.removeEventListener("pointerdown", away);
  }, []);
  return (
    <div
      ref={menu}
      role="menu"
      aria-label={`Actions of ${name}`}
      className="absolute top-7 right-1 z-30 w-48 rounded-lg bg-white p-1 text-zinc-900 shadow-lg ring-1 ring-zinc-200"
      onKeyDown={(event) => {
        if (moveInMenu(event, menu.current)) return event.stopPropagation();
        if (event.key !== "Escape" && event.key !== "Tab") return;
        onClose();
        event.preventDefault();
        event.stopPropagation();
      }}
    >
      {actions.map((action) => (
        <button
          key={action.label}
          type="button"
          role="menuitem"
          tabIndex={-1}
          disabled={action.disabled}
          onClick={() => {
            onClose();
            action.run();
          }}
          className="flex w-full items-baseline justify-between gap-2 rounded px-2.5 py-1.5 text-left text-sm hover:bg-zinc-100 focus:bg-zinc-100 focus:outline-none disabled:opacity-40"
        >
          <span>{action.label}</span>
          {action.keys && <span className="text-xs text-zinc-500">{action.keys}</span>}
        </button>
      ))}
    </div>
  );
}
