"use client";

import { type DragEvent, useCallback, useEffect, useState } from "react";
import type { DeckFormat } from "@/lib/contract/deck";
import { insertImage } from "@/lib/source/transform/insert";
import { uploadImageFile } from "./images";

// Images dropped or pasted onto the canvas or the rail: each file is uploaded (the alt text asked first,
// the upload's progress shown), then placed on a slide as an <Image> where the slide's layout puts one
// (insertImage), one undoable step per image. A paste anywhere in the editor but a text field or the code
// (which takes its own pastes) lands on the slide on screen. An upload that fails outright (the connection
// dropped, the server broke) stays listed as failed, with why, until dismissed; the other files go on.

export type Upload = { name: string; state: "uploading" } | { name: string; state: "failed"; message: string };

export function useImageDrop({
  format,
  enabled,
  slide,
  apply,
  onError,
}: {
  format: DeckFormat;
  enabled: boolean;
  /** 0-based, the slide on screen: where a paste or a drop on the canvas goes. */
  slide: number;
  apply: (change: (source: string) => string) => boolean;
  onError: (message: string) => void;
}) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  // Files are being dragged over the page: the canvas lays a drop zone over the preview (a drop on the
  // preview's frame would go to the frame's own document).
  const [dragging, setDragging] = useState(false);

  const place = useCallback(
    async (files: File[], onSlide: number) => {
      for (const file of files.filter((candidate) => candidate.type.startsWith("image/"))) {
        const entry: Upload = { name: file.name || "image", state: "uploading" };
        setUploads((now) => [...now, entry]);
        let failed: Upload | null = null;
        try {
          const uploaded = await uploadImageFile(file, onError);
          if (uploaded)
            apply((now) => insertImage(now, format, { slide: onSlide, src: uploaded.url, alt: uploaded.alt }));
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          failed = { name: entry.name, state: "failed", message: `Not uploaded: ${message}` };
        } finally {
          setUploads((now) => now.flatMap((other) => (other !== entry ? [other] : failed ? [failed] : [])));
        }
      }
    },
    [apply, format, onError],
  );
  /** A failed upload's line is taken away. */
  const dismiss = useCallback((upload: Upload) => setUploads((now) => now.filter((other) => other !== upload)), []);

  /** Drag and drop handlers for a target that puts images on the slide `onSlide` names (0-based). */
  const dropTarget = useCallback(
    (onSlide: (target: Element | null) => number) => ({
      onDragOver: (event: DragEvent) => {
        if (!enabled || !event.dataTransfer.types.includes("Files")) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = "copy";
      },
      onDrop: (event: DragEvent) => {
        setDragging(false);
        if (!enabled || event.dataTransfer.files.length === 0) return;
        event.preventDefault();
        void place([...event.dataTransfer.files], onSlide(event.target instanceof Element ? event.target : null));
      },
    }),
    [enabled, place],
  );

  useEffect(() => {
    if (!enabled) return;
    const enter = (event: globalThis.DragEvent) => {
      if (event.dataTransfer?.types.includes("Files")) setDragging(true);
    };
    const leave = (event: globalThis.DragEvent) => {
      if (event.relatedTarget === null) setDragging(false);
    };
    const end = () => setDragging(false);
    window.addEventListener("dragenter", enter);
    window.addEventListener("dragleave", leave);
    window.addEventListener("drop", end);
    window.addEventListener("dragend", end);
    return () => {
      window.removeEventListener("dragenter", enter);
      window.removeEventListener("dragleave", leave);
      window.removeEventListener("drop", end);
      window.removeEventListener("dragend", end);
    };
  }, [enabled]);

  useEffect(() => {
    if (!enabled) return;
    const onPaste = (event: ClipboardEvent) => {
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest(".cm-editor, input, textarea, [contenteditable]")) return;
      const files = [...(event.clipboardData?.files ?? [])].filter((file) => file.type.startsWith("image/"));
      if (files.length === 0) return;
      event.preventDefault();
      void place(files, slide);
    };
    document.addEventListener("paste", onPaste);
    return () => document.removeEventListener("paste", onPaste);
  }, [enabled, place, slide]);

  return { uploads, dragging, dropTarget, dismiss };
}
