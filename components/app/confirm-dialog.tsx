"use client";

import { Button } from "@/components/ui";
import { Dialog } from "@/components/ui/dialog";

// "Are you sure?" for what cannot be undone (revoking a key, leaving an organization, changing a role,
// deleting a deck or a brand), in the app's own modal dialog rather than the browser's window.confirm:
// it names what happens, its buttons say what they do, Escape or Cancel leaves everything as it was.
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  danger = true,
  busy = false,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog label={title} open={open} onClose={onCancel}>
      <p className="text-sm text-zinc-700">{message}</p>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" type="button" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant={danger ? "danger" : "primary"} type="button" disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
