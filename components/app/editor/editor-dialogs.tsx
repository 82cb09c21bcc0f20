"use client";

import { readVersionAction, type DeckSettings } from "@/server/actions/editor";
import { ConflictDialog } from "./conflict-dialog";
import { AiDialog, PublishDialog } from "./deck-panels";
import { DraftNotice } from "./draft-notice";
import type { useCompile } from "./use-compile";
import type { useDeckContent, useSave } from "./use-save";

// The editor's dialogs and notices: Share, the AI, the conflict of a save with a version written elsewhere,
// and the notice of a restored draft.

export function EditorDialogs({
  deck,
  settings,
  publicUrl,
  hasContent,
  aiModel,
  dialog,
  setDialog,
  content,
  compile,
  saving,
}: {
  deck: { id: string; versionCount: number };
  settings: DeckSettings;
  publicUrl: string | null;
  hasContent: boolean;
  /** The AI model generate and edit use; null: the offline generator. */
  aiModel: string | null;
  dialog: "share" | "ai" | null;
  setDialog: (dialog: "share" | "ai" | null) => void;
  content: ReturnType<typeof useDeckContent>;
  compile: ReturnType<typeof useCompile>;
  saving: ReturnType<typeof useSave>;
}) {
  const { source, tokens, base } = content;
  return (
    <>
      <PublishDialog
        deckId={deck.id}
        settings={settings}
        publicUrl={publicUrl}
        open={dialog === "share"}
        onClose={() => setDialog(null)}
      />
      <AiDialog
        deckId={deck.id}
        hasContent={hasContent}
        open={dialog === "ai"}
        model={aiModel}
        onClose={() => setDialog(null)}
        onDone={async (version) => {
          setDialog(null);
          const read = await readVersionAction({ id: deck.id, version: String(version) });
          if (read.ok) saving.afterRevert(version, read.value);
          else compile.showRefusal(read.error, `Saved as version ${version}, but not loaded`);
        }}
      />
      {saving.conflict && (
        <ConflictDialog
          deckId={deck.id}
          open={saving.conflict}
          base={base}
          mine={{ source, tokensCss: tokens }}
          onKeepMine={(version) => void saving.save({ version })}
          onTakeTheirs={saving.afterLoad}
          onMerge={(version, merged) => void saving.save({ version, content: merged })}
          onClose={() => saving.setConflict(false)}
        />
      )}
      {content.restored && (
        <DraftNotice
          deckId={deck.id}
          savedAt={content.restored.savedAt}
          basedOnVersion={content.restored.basedOnVersion}
          newestVersion={deck.versionCount}
          onDiscarded={content.discardDraft}
        />
      )}
    </>
  );
}
