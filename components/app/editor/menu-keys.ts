import type { KeyboardEvent } from "react";

// The arrow keys of the editor's menus (Insert, a rail slide's actions), as the ARIA menu pattern has them:
// ↑/↓ move between the enabled items (wrapping), Home and End go to the first and last. Escape and Tab are
// each menu's own (where the focus goes back to differs).

/** The menu's enabled items, in order. */
export function menuItems(menu: HTMLElement | null): HTMLButtonElement[] {
  return [...(menu?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:not(:disabled)') ?? [])];
}

/** Moves the focus for an arrow, Home or End key pressed in `menu` (and takes the key); false for any other. */
export function moveInMenu(event: KeyboardEvent, menu: HTMLElement | null): boolean {
  const all = menuItems(menu);
  const at = all.indexOf(document.activeElement as HTMLButtonElement);
  const next =
    event.key === "ArrowDown"
      ? at + 1
      : event.key === "ArrowUp"
        ? at - 1
        : event.key === "Home"
          ? 0
          : event.key === "End"
            ? all.length - 1
            : null;
  if (next === null) return false;
  all[(next + all.length) % all.length]?.focus();
  event.preventDefault();
  return true;
}
