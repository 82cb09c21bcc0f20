"use client";

import { type ReactNode, useEffect, useRef } from "react";
import { Button } from "./index";

// A modal dialog (the browser's <dialog>): opened and closed by `open`, closed by Escape or the ✕ too. The
// keyboard starts on the element of its content marked `data-autofocus` (else the browser's first: the ✕).
export function Dialog({
  label,
  open,
  onClose,
  children,
}: {
  label: string;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current!;
    if (open && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-label={label}
      onClose={onClose}
      className="m-auto w-full max-w-lg rounded-xl p-0 shadow-xl backdrop:bg-zinc-900/30"
    >
      <div className="space-y-4 p-6">
        <div className="flex items-center justify-between">
          <h2 className="text-base font-semibold">{label}</h2>
          <Button variant="ghost" type="button" onClick={onClose} aria-label="Close">
            ✕
          </Button>
        </div>
        {children}
      </div>
    </dialog>
  );
}
