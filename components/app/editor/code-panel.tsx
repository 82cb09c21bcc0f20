"use client";

import { type RefObject, useState } from "react";
import { Tabs } from "@/components/ui";
import { CodeEditor, type CodeEditorHandle, type HistoryDepth, type ImageHandler, type Problem } from "./code-editor";
import { ImagePicker } from "./images";

// The code, in a panel a person opens (the toolbar's Code button, remembered per browser): the deck's TSX
// source and its theme tokens as CSS, in CodeMirror. The source editor stays mounted while the panel is
// closed, because its history is the editor's one history (Undo, Redo, every visual edit) and the visual
// editor writes through it; closed, it is only hidden.

export function CodePanel({
  open,
  generation,
  canEdit,
  source,
  setSource,
  tokens,
  setTokens,
  problems,
  onImage,
  onImageError,
  handle,
  onCursor,
  onHistory,
}: {
  open: boolean;
  /** Bumped when the content came from elsewhere (a merge, a revert): the code views start anew. */
  generation: number;
  canEdit: boolean;
  source: string;
  setSource: (source: string) => void;
  tokens: string;
  setTokens: (tokens: string) => void;
  problems: Problem[];
  onImage: ImageHandler;
  onImageError: (message: string) => void;
  handle: RefObject<CodeEditorHandle | null>;
  onCursor: (position: number) => void;
  onHistory: (depth: HistoryDepth) => void;
}) {
  const [tab, setTab] = useState<"source" | "tokens">("source");
  const [showImages, setShowImages] = useState(false);
  return (
    <section
      id="code-panel"
      className={open ? "hidden min-h-0 flex-col border-l border-zinc-200 bg-white lg:flex" : "hidden"}
      aria-label="Code"
    >
      <div className="flex shrink-0 items-center border-b border-zinc-200 bg-zinc-50 px-2 py-1.5">
        <Tabs
          look="segment"
          items={[
            { value: "source", label: "Source (TSX)" },
            { value: "tokens", label: "Theme tokens (CSS)" },
          ]}
          value={tab}
          onChange={setTab}
        />
        {canEdit && tab === "source" && (
          <button
            type="button"
            className="ml-auto rounded px-2 text-xs font-medium text-zinc-600 hover:bg-zinc-200"
            onClick={() => setShowImages((v) => !v)}
            aria-expanded={showImages}
          >
            Images
          </button>
        )}
      </div>
      <ImagePicker
        open={open && canEdit && tab === "source" && showImages}
        onInsert={(element) => handle.current?.insertAtCursor(element)}
        onError={onImageError}
      />
      <div className={tab === "source" ? "min-h-0 flex-1" : "hidden"}>
        <CodeEditor
          key={`source-${generation}`}
          label="Deck source"
          language="tsx"
          value={source}
          onChange={setSource}
          problems={problems}
          readOnly={!canEdit}
          onImage={onImage}
          handle={handle}
          onCursor={onCursor}
          onHistory={onHistory}
        />
      </div>
      {tab === "tokens" && (
        <div className="min-h-0 flex-1">
          <CodeEditor
            key={`tokens-${generation}`}
            label="Theme tokens"
            language="css"
            value={tokens}
            onChange={setTokens}
            readOnly={!canEdit}
          />
        </div>
      )}
    </section>
  );
}
