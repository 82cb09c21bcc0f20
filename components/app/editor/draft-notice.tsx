"use client";

import { useState } from "react";
import { discardDraftAction } from "@/server/actions/editor";
import { Notice } from "@/components/ui";
import { ConfirmDialog } from "../confirm-dialog";

// The notice over the code when the editor opened with the author's unsaved draft (kept on the server as
// they typed) instead of the newest version: when it was kept, and "Discard" to go back to the version;
// a draft based on an older version says so (its save meets the conflict dialog). Discarding asks first, in
// the app's dialog.
export function DraftNotice({
  deckId,
  savedAt,
  basedOnVersion,
  newestVersion,
  onDiscarded,
}: {
  deckId: string;
  savedAt: string;
  basedOnVersion: number;
  newestVersion: number;
  onDiscarded: () => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const discard = async () => {
    setBusy(true);
    const result = await discardDraftAction({ id: deckId });
    setBusy(false);
    setAsking(false);
    if (result.ok) onDiscarded();
    else setError(result.error.message);
  };
  const when = new Date(savedAt).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" });
  return (
    <>
      <div
        className="border-b border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-950"
        data-testid="draft-restored"
        role="status"
      >
        Restored your unsaved draft from {when} ·{" "}
        <button type="button" className="font-medium underline hover:text-sky-700" onClick={() => setAsking(true)}>
          Discard
        </button>
        {basedOnVersion < newestVersion && (
          <span className="block text-xs text-sky-800">
            It was based on version {basedOnVersion}; version {newestVersion} was saved since, so saving it shows the
            difference first.
          </span>
        )}
        {error && <Notice>{error}</Notice>}
      </div>
      {/* Outside the status line: a live region would read the dialog out as a change. */}
      {asking && (
        <ConfirmDialog
          open
          title="Discard your unsaved draft?"
          message="What you typed since the newest version is deleted, and the editor goes back to that version."
          confirmLabel="Discard draft"
          busy={busy}
          onCancel={() => setAsking(false)}
          onConfirm={() => void discard()}
        />
      )}
    </>
  );
}
