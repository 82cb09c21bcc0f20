"use client";

import { type DragEvent, type KeyboardEvent, useLayoutEffect, useRef, useState } from "react";
import type { RailActions } from "./slide-rail";
import type { SlideAction } from "./rail-slide-menu";

// The slide rail's keys and drags (slide-rail.tsx). Keys on a slide: ↑/↓, Home and End go to another slide
// (and show it), Alt+↑/↓ move the slide, F2 renames it, Delete asks to delete it, Shift+F10 or the
// context-menu key opens the menu of its actions. A slide dragged onto another's row moves there. A long
// deck's rail mounts only the rows near its visible part (use-rail-window.ts): a key that goes to a row that
// is not there scrolls it into view and focuses it once it is mounted.

export function useRailKeys({
  count,
  editable,
  actions,
  reveal,
  onRename,
  onDelete,
  onMenu,
}: {
  count: number;
  editable: boolean;
  actions: RailActions;
  /** Scrolls the rail so a row is in view (and so mounted). */
  reveal: (index: number) => void;
  onRename: (index: number) => void;
  onDelete: (index: number) => void;
  onMenu: (index: number) => void;
}) {
  // Each slide's button, by row: where the keyboard goes.
  const items = useRef(new Map<number, HTMLButtonElement>());
  // A row to focus once it is mounted (it was scrolled into view).
  const focusWhenMounted = useRef<number | null>(null);
  const focus = (index: number) => {
    const element = items.current.get(index);
    focusWhenMounted.current = element ? null : index;
    if (element) element.focus();
    else reveal(index);
  };
  // After every render of the rail: the row asked for may be mounted now.
  useLayoutEffect(() => {
    const waiting = focusWhenMounted.current;
    const element = waiting === null ? undefined : items.current.get(waiting);
    if (!element) return;
    focusWhenMounted.current = null;
    element.focus();
  });
  // After a keyboard move the moved slide keeps the focus at its new place.
  const focusAfterMove = useRef<number | null>(null);
  const moveBy = (index: number, by: -1 | 1) => {
    const to = index + by;
    if (to < 0 || to >= count) return;
    focusAfterMove.current = to;
    actions.move(index, to);
    requestAnimationFrame(() => {
      const target = focusAfterMove.current;
      focusAfterMove.current = null;
      if (target !== null) focus(target);
    });
  };
  const go = (to: number) => {
    const target = Math.max(0, Math.min(count - 1, to));
    focus(target);
    actions.pick(target);
  };
  const onKey = (event: KeyboardEvent, index: number) => {
    const arrow = event.key === "ArrowUp" ? -1 : event.key === "ArrowDown" ? 1 : 0;
    if (arrow !== 0 && !event.altKey) go(index + arrow);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(count - 1);
    else if (!editable) return;
    else if (arrow !== 0) moveBy(index, arrow);
    else if (event.key === "F2") onRename(index);
    else if (event.key === "Delete") onDelete(index);
    else if (event.key === "ContextMenu" || (event.shiftKey && event.key === "F10")) onMenu(index);
    else return;
    event.preventDefault();
  };
  const menuActions = (index: number): SlideAction[] => [
    { label: "Rename", keys: "F2", run: () => onRename(index) },
    { label: "Duplicate", run: () => actions.duplicate(index) },
    { label: "Move up", keys: "Alt+↑", disabled: index === 0, run: () => moveBy(index, -1) },
    { label: "Move down", keys: "Alt+↓", disabled: index === count - 1, run: () => moveBy(index, 1) },
    { label: "Delete", keys: "Delete", disabled: count < 2, run: () => onDelete(index) },
  ];
  const item = (index: number) => (element: HTMLButtonElement | null) => {
    if (element) items.current.set(index, element);
    else items.current.delete(index);
  };
  return { onKey, menuActions, focus, item };
}

export function useRailDrag(move: RailActions["move"]) {
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const stop = () => {
    setDragging(null);
    setOver(null);
  };
  const handlers = (index: number) => ({
    onDragStart: (event: DragEvent) => {
      setDragging(index);
      event.dataTransfer.effectAllowed = "move";
      event.dataTransfer.setData("text/plain", String(index));
    },
    onDragOver: (event: DragEvent) => {
      if (dragging === null) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "move";
      setOver(index);
    },
    onDragLeave: () => setOver((now) => (now === index ? null : now)),
    onDrop: (event: DragEvent) => {
      event.preventDefault();
      const from = dragging ?? Number(event.dataTransfer.getData("text/plain"));
      stop();
      if (Number.isInteger(from) && from !== index) move(from, index);
    },
    onDragEnd: stop,
  });
  return { dragging, over, handlers };
}
