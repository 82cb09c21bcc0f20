"use client";

import { useState } from "react";
import {
  type DeckSettings,
  deleteDeckAction,
  editDeckAction,
  exportStatusAction,
  generateDeckAction,
  startExportAction,
  updateDeckAction,
} from "@/server/actions/editor";
import { Button, Field, Input, Notice, Select, Tabs } from "@/components/ui";
import { Dialog } from "@/components/ui/dialog";
import { ConfirmDialog } from "../confirm-dialog";
import { AiWorking, aiWriterNote } from "./ai-progress";

// The editor's dialogs: publish (visibility, share link, embed code), export (PDF/PPTX with live status
// and download), and the AI panel (generate or edit, with progress while the model works).

export function PublishDialog({
  deckId,
  settings,
  publicUrl: initialUrl,
  open,
  onClose,
}: {
  deckId: string;
  settings: DeckSettings;
  publicUrl: string | null;
  open: boolean;
  onClose: () => void;
}) {
  const [values, setValues] = useState(settings);
  const [publicUrl, setPublicUrl] = useState(initialUrl);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const embed = publicUrl
    ? `<iframe src="${publicUrl}/embedded" width="960" height="540" style="border:0" allow="fullscreen" title="${values.title.replace(/"/g, "&quot;")}"></iframe>`
    : "";
  const apply = async () => {
    setError(null);
    const result = await updateDeckAction({ id: deckId, ...values });
    if (!result.ok) return setError(result.error.message);
    setPublicUrl(result.value.publicUrl);
    setSaved(true);
  };
  // A deleted deck leaves for the library (the action redirects); a refusal stays here, as a message.
  const remove = async () => {
    setError(null);
    const result = await deleteDeckAction({ id: deckId });
    if (result && !result.ok) setError(result.error.message);
  };
  return (
    <Dialog label="Share and settings" open={open} onClose={onClose}>
      {error && <Notice>{error}</Notice>}
      <Field label="Title">
        <Input value={values.title} maxLength={300} onChange={(e) => setValues({ ...values, title: e.target.value })} />
      </Field>
      <Field label="Who can see it">
        <Select
          value={values.visibility}
          onChange={(e) => setValues({ ...values, visibility: e.target.value as DeckSettings["visibility"] })}
        >
          <option value="private">Only me</option>
          <option value="org">Everyone in the organization</option>
          <option value="public">Anyone with the link (published)</option>
        </Select>
      </Field>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={values.kind === "template"}
          onChange={(e) => setValues({ ...values, kind: e.target.checked ? "template" : "deck" })}
        />
        Offer as a template to the organization
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={values.archived}
          onChange={(e) => setValues({ ...values, archived: e.target.checked })}
        />
        Archived
      </label>
      <Button type="button" onClick={() => void apply()}>
        Save settings
      </Button>
      {saved && !error && <Notice tone="success">Saved.</Notice>}
      {publicUrl && values.visibility === "public" && (
        <div className="space-y-2">
          <Field label="Share link">
            <div className="flex gap-2">
              <Input readOnly value={publicUrl} data-testid="public-url" />
              <Button variant="secondary" type="button" onClick={() => void navigator.clipboard.writeText(publicUrl)}>
                Copy
              </Button>
            </div>
          </Field>
          <Field label="Embed code">
            <textarea
              readOnly
              value={embed}
              rows={3}
              className="w-full rounded-md p-2 font-mono text-xs ring-1 ring-zinc-300"
            />
          </Field>
        </div>
      )}
      <div className="border-t border-zinc-200 pt-4">
        <Button variant="danger" type="button" onClick={() => setConfirmDelete(true)}>
          Delete deck
        </Button>
      </div>
      {confirmDelete && (
        <ConfirmDialog
          open
          title={`Delete “${settings.title}”?`}
          message="The deck and all its versions, exports and share link are deleted. This cannot be undone."
          confirmLabel="Delete deck"
          onCancel={() => setConfirmDelete(false)}
          onConfirm={() => {
            setConfirmDelete(false);
            void remove();
          }}
        />
      )}
    </Dialog>
  );
}

type ExportState = { format: "pdf" | "pptx"; status: string; error?: string | null; downloadUrl?: string | null };

export function ExportButtons({ deckId, disabled }: { deckId: string; disabled: boolean }) {
  const [state, setState] = useState<ExportState | null>(null);
  const start = async (format: "pdf" | "pptx") => {
    setState({ format, status: "pending" });
    const queued = await startExportAction({ id: deckId, format });
    if (!queued.ok) return setState({ format, status: "failed", error: queued.error.message });
    for (;;) {
      await new Promise((r) => setTimeout(r, 700));
      const current = await exportStatusAction({ id: queued.value.id });
      if (!current.ok) return setState({ format, status: "failed", error: current.error.message });
      setState({ format, ...current.value });
      if (current.value.status === "completed" || current.value.status === "failed") return;
    }
  };
  const busy = state?.status === "pending" || state?.status === "running";
  return (
    <div className="flex items-center gap-2">
      <Button variant="secondary" type="button" disabled={disabled || busy} onClick={() => void start("pdf")}>
        PDF
      </Button>
      <Button variant="secondary" type="button" disabled={disabled || busy} onClick={() => void start("pptx")}>
        PPTX
      </Button>
      {state && (
        <span className="text-xs text-zinc-600" role="status" data-testid="export-status" data-status={state.status}>
          {state.status === "completed" && state.downloadUrl ? (
            <a className="font-medium text-accent hover:underline" href={state.downloadUrl} download>
              Download {state.format.toUpperCase()}
            </a>
          ) : state.status === "failed" ? (
            <span className="text-red-700">Export failed: {state.error}</span>
          ) : (
            `${state.format.toUpperCase()} ${state.status}…`
          )}
        </span>
      )}
    </div>
  );
}

export function AiDialog({
  deckId,
  hasContent,
  open,
  onClose,
  onDone,
  model,
}: {
  deckId: string;
  hasContent: boolean;
  open: boolean;
  onClose: () => void;
  onDone: (version: number) => void;
  /** The configured model's name; null: the offline generator writes. */
  model: string | null;
}) {
  const [kind, setKind] = useState<"generate" | "edit">(hasContent ? "edit" : "generate");
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const run = async () => {
    setError(null);
    setWorking(true);
    const result =
      kind === "edit"
        ? await editDeckAction({ id: deckId, instruction: text })
        : await generateDeckAction({ id: deckId, brief: text, mode: hasContent ? "revise" : "create" });
    setWorking(false);
    if (!result.ok) return setError(result.error.message);
    setText("");
    onDone(result.value.version);
  };
  return (
    <Dialog label="Write with AI" open={open} onClose={onClose}>
      <p className="text-sm text-zinc-600">{aiWriterNote(model)}</p>
      <Tabs
        items={[
          { value: "edit", label: "Edit", disabled: !hasContent },
          { value: "generate", label: hasContent ? "Rewrite" : "Generate" },
        ]}
        value={kind}
        onChange={setKind}
      />
      <Field
        label={kind === "edit" ? "Instruction" : "Brief"}
        hint={
          kind === "edit"
            ? 'Name slides by label or number and quote the copy to change, e.g. "Ship v1" → "Ship version one".'
            : "What the deck should contain: an outline, notes or prose (up to 10,000 characters)."
        }
      >
        <textarea
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={6}
          maxLength={10_000}
          className="w-full rounded-md p-2 text-sm ring-1 ring-zinc-300 focus:ring-2 focus:ring-accent focus:outline-none"
        />
      </Field>
      {error && <Notice>{error}</Notice>}
      <div className="flex items-center gap-3">
        <Button type="button" disabled={working || !text.trim()} onClick={() => void run()}>
          {working ? "Working…" : kind === "edit" ? "Apply edit" : "Generate"}
        </Button>
        {working && <AiWorking model={model} />}
      </div>
    </Dialog>
  );
}
