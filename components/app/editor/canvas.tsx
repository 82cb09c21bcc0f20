"use client";

import type { ReactNode } from "react";
import { PreviewFrame } from "./preview-frame";
import type { PreviewMessage } from "./preview-messages";
import type { Upload } from "./use-image-drop";

// The editor's canvas: the slide on screen, as large as the middle of the editor allows (the width, or the
// height left over by the panels under it), with the text on it editable in place (preview-frame.tsx); a
// drop zone over it while images are dragged onto the page; the uploads in progress (or failed); and, under it, what
// belongs to this slide (`children`: the speaker notes, the deck check). On a phone it is the reader's
// page: the slide, Previous / Next and the notes.

export function Canvas({
  src,
  inPlace,
  slide,
  count,
  edit,
  onMessage,
  onShown,
  onSlide,
  dragging,
  dropHandlers,
  uploads,
  onDismiss,
  editMs,
  children,
}: {
  src: string;
  inPlace: { module: string; frame: string } | null;
  /** 1-based, the slide on screen, of `count`. */
  slide: number;
  count: number;
  edit: boolean;
  onMessage: (message: PreviewMessage, focused: boolean) => void;
  onShown: (src: string) => void;
  onSlide: (slide: number) => void;
  dragging: boolean;
  dropHandlers: Record<string, (event: React.DragEvent) => void> | null;
  uploads: Upload[];
  /** Takes a failed upload's line away. */
  onDismiss: (upload: Upload) => void;
  editMs: number | null;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-0 flex-1 flex-col overflow-y-auto" data-edit-ms={editMs ?? undefined}>
      <div className="flex shrink-0 justify-center px-3 pt-3 pb-2 lg:px-8 lg:pt-6">
        {/* The slide fits the width, and the height the notes and the check leave (about 14rem). */}
        <div
          className="relative w-full max-w-[calc((100dvh-20rem)*16/9)] min-w-0 lg:min-w-[28rem]"
          data-testid="canvas"
          {...(dropHandlers ?? {})}
        >
          <PreviewFrame src={src} inPlace={inPlace} slide={slide} edit={edit} onMessage={onMessage} onShown={onShown} />
          {dragging && dropHandlers && (
            <div
              className="absolute inset-0 z-10 flex items-center justify-center rounded-lg border-2 border-dashed border-accent bg-white/80 text-sm font-medium text-accent"
              data-testid="canvas-drop-zone"
              {...dropHandlers}
            >
              Drop the image to add it to slide {slide}
            </div>
          )}
          {uploads.length > 0 && (
            <div className="absolute inset-x-3 bottom-3 z-10 space-y-1" aria-live="polite">
              {uploads.map((upload, at) => (
                <div key={at} className="rounded-md bg-white/95 px-3 py-2 text-xs shadow ring-1 ring-zinc-200">
                  {upload.state === "failed" ? (
                    <p className="flex items-center gap-2 text-red-700" role="alert" data-testid="upload-failed">
                      <span className="min-w-0 flex-1">
                        {upload.name}: {upload.message}
                      </span>
                      <button
                        type="button"
                        className="shrink-0 rounded px-1 font-medium text-zinc-600 hover:bg-zinc-100"
                        onClick={() => onDismiss(upload)}
                      >
                        Dismiss
                      </button>
                    </p>
                  ) : (
                    <label className="flex items-center gap-2">
                      <span className="truncate">Uploading {upload.name}…</span>
                      <progress className="h-1.5 flex-1 accent-accent" aria-label={`Uploading ${upload.name}`} />
                    </label>
                  )}
                </div>
              ))}
            </div>
          )}
        </div>
      </div>
      {count > 1 && (
        <div className="flex shrink-0 items-center justify-center gap-3 pb-1 text-xs text-zinc-600 lg:hidden">
          <button
            type="button"
            className="rounded px-3 py-1.5 font-medium ring-1 ring-zinc-300 disabled:opacity-40"
            onClick={() => onSlide(slide - 1)}
            disabled={slide <= 1}
          >
            Previous
          </button>
          <span>
            Slide {slide} of {count}
          </span>
          <button
            type="button"
            className="rounded px-3 py-1.5 font-medium ring-1 ring-zinc-300 disabled:opacity-40"
            onClick={() => onSlide(slide + 1)}
            disabled={slide >= count}
          >
            Next
          </button>
        </div>
      )}
      <div className="mx-auto w-full max-w-5xl space-y-3 px-3 pt-1 pb-4 lg:px-8" data-testid="preview-panels">
        {children}
      </div>
    </div>
  );
}
