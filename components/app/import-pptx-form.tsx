"use client";

import { useState } from "react";
import { Field } from "@/components/ui";
import { ImportDialog } from "./import-dialog";

// Server actions carry at most 21 MB (next.config.ts); base64 is 4/3 of the file.
const MAX_BYTES = 15 * 1024 * 1024;

// "Import PowerPoint" in the library: a .pptx picked or dropped becomes a new slides deck, as it looks
// (import_deck, faithful mode) or in the house style (restyle), opened in the editor (./import-dialog.tsx).
export function ImportPptxForm() {
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<"faithful" | "restyle">("faithful");
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);

  const choose = (picked: File | undefined) => {
    if (!picked) return;
    if (picked.size > MAX_BYTES) {
      setFile(null);
      return setError(`${picked.name} is larger than 15 MB; import it through the API (POST /decks/import).`);
    }
    setError(null);
    setFile(picked);
  };

  const request = async () => {
    const bytes = new Uint8Array(await file!.arrayBuffer());
    let binary = "";
    for (let at = 0; at < bytes.length; at += 0x8000) {
      binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
    }
    return { file: btoa(binary), mode };
  };

  return (
    <ImportDialog
      label="Import PowerPoint"
      intro={
        <>
          A .pptx file becomes a deck: as it looks (every slide&apos;s layout, colours and fonts kept, its text still
          editable), or in this organization&apos;s style (titles, lists, tables, charts, pictures and speaker notes
          each become the matching component). Up to 15 MB here.
        </>
      }
      titleHint="Optional; the presentation's own title otherwise."
      titleLabel="PowerPoint import title"
      ready={file !== null}
      request={request}
      error={error}
      onError={setError}
    >
      <div
        role="group"
        aria-label="Drop a PowerPoint file"
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          event.preventDefault();
          setOver(false);
          choose(event.dataTransfer.files[0]);
        }}
        className={`rounded-md border-2 border-dashed p-4 text-sm ${over ? "border-zinc-900 bg-zinc-50" : "border-zinc-300"}`}
      >
        <Field label="File" hint="Or drop it here.">
          <input
            type="file"
            accept=".pptx,application/vnd.openxmlformats-officedocument.presentationml.presentation"
            aria-label="PowerPoint file"
            className="block w-full text-sm"
            onChange={(event) => choose(event.target.files?.[0])}
          />
        </Field>
        {file && <p className="mt-2 text-zinc-700">{file.name}</p>}
      </div>
      <fieldset className="flex gap-4 text-sm">
        <legend className="mb-1 font-medium">Slides</legend>
        <label className="flex items-center gap-1">
          <input type="radio" name="pptx-mode" checked={mode === "faithful"} onChange={() => setMode("faithful")} />
          As they look
        </label>
        <label className="flex items-center gap-1">
          <input type="radio" name="pptx-mode" checked={mode === "restyle"} onChange={() => setMode("restyle")} />
          In the house style
        </label>
      </fieldset>
    </ImportDialog>
  );
}
