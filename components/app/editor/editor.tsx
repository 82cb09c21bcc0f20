"use client";

import { useCallback, useMemo, useRef, useState } from "react";
import { type DeckSettings, presentDraftAction } from "@/server/actions/editor";
import { Button } from "@/components/ui";
import type { DeckFormat } from "@/lib/contract/deck";
import {
  addSlide,
  deleteSlide,
  duplicateSlide,
  moveSlide,
  readSlideNotes,
  renameSlide,
  setSlideNotes,
} from "@/lib/source/transform/edit";
import { removeElement } from "@/lib/source/transform/elements";
import { insertElement, type InsertKind } from "@/lib/source/transform/insert";
import { elementsOfSlide } from "@/lib/source/transform/props";
import type { UnsavedDraft } from "@/lib/decks/drafts";
import type { Finding } from "@/lib/render/check-findings";
import { Canvas } from "./canvas";
import type { CodeEditorHandle, HistoryDepth } from "./code-editor";
import { CodePanel } from "./code-panel";
import { EditorDialogs } from "./editor-dialogs";
import { EditorToolbar } from "./editor-toolbar";
import { Findings } from "./findings";
import { History, type HistoryEntry } from "./history-panel";
import { uploadImage } from "./images";
import { LiveSaveNotice } from "./live-save-notice";
import { NotesField } from "./notes-field";
import { useRailThumbnails } from "./rail-thumbnails";
import { ReaderNotes, ReadOnlyNotice } from "./reader-panel";
import { SidePanel } from "./side-panel";
import { SkipLinks } from "./skip-links";
import { type RailActions, SlideRail } from "./slide-rail";
import { useCompile } from "./use-compile";
import { useEditorKeys } from "./use-editor-keys";
import { useImageDrop } from "./use-image-drop";
import { usePresence } from "./use-presence";
import { useDeckContent, useSave } from "./use-save";
import { addedElementStart, useSelectedElement } from "./use-selected-element";
import { useStoredFlag } from "./use-stored-flag";
import { useVisualEdits } from "./use-visual-edits";

// The deck editor, canvas first: the slide rail on the left, the selected slide large in the middle
// (canvas.tsx: text edited in place, images dropped on it, the speaker notes and the deck check under it),
// the inspector and the theme on the right (side-panel.tsx), and the code and tokens in a panel a person
// opens (code-panel.tsx). Each visual change is a source transformation applied to the code's own history
// (use-visual-edits.ts); what is typed is compiled into the author's draft and previewed (use-compile.ts),
// saved as versions with conflicts caught (use-save.ts), with the history beside it (history-panel.tsx).

type EditorProps = {
  deck: { id: string; title: string; format: DeckFormat; versionCount: number };
  settings: DeckSettings;
  publicUrl: string | null;
  brands: { id: string; name: string }[];
  brandId: string | null;
  /** The deck's brand and its tokens: the theme panel's starting point. */
  brand: { name: string; tokensCss: string } | null;
  /** A reader's present-mode page: the newest saved version (a preview link). The owner presents the draft. */
  presentUrl: string | null;
  canEdit: boolean;
  /** The longest version note the API takes (set_deck_content's prompt). */
  noteMaxLength: number;
  initialSource: string;
  initialTokens: string;
  history: HistoryEntry[];
  /** The author's unsaved draft, restored in place of the newest version (with a notice). */
  draft?: UnsavedDraft | null;
  /** A reader's view of the newest version: its preview, outline and speaker notes. */
  reader?: { previewUrl: string; outline: string[]; notes: string[] } | null;
  /** The AI model generate and edit use; null: the offline generator. */
  aiModel?: string | null;
};

export function Editor(props: EditorProps) {
  const { deck, canEdit, history, reader = null } = props;
  const state = useEditorState(props);
  const { content, compile, brand, saving, slide, setSlide, showHistory, dialog, setDialog, codeOpen } = state;
  const { sourceEditor, setHistoryDepth, onImage, visual, editable, selected, railSlides, images } = state;
  const { findingsBySlide, railActions, thumbnails, removeSelected } = state;
  const { source, setSource, tokens, setTokens, loaded } = content;
  const { apply } = visual;
  const { setMessage } = compile;

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-fills-viewport>
      <SkipLinks editable={canEdit} />
      <EditorBar props={props} state={state} />
      {canEdit && (
        <EditorDialogs
          deck={deck}
          settings={props.settings}
          publicUrl={props.publicUrl}
          hasContent={history.length > 0}
          aiModel={props.aiModel ?? null}
          dialog={dialog}
          setDialog={setDialog}
          content={content}
          compile={compile}
          saving={saving}
        />
      )}
      <div
        className={`grid min-h-0 flex-1 grid-cols-1 ${codeOpen ? "lg:grid-cols-[184px_minmax(0,1fr)_300px_minmax(0,36%)]" : "lg:grid-cols-[200px_minmax(0,1fr)_320px]"}`}
      >
        <div className="hidden min-h-0 lg:flex lg:flex-col [&>*]:flex-1" {...images.dropTarget(railSlideOf(slide))}>
          <SlideRail
            format={deck.format}
            slides={railSlides}
            current={slide - 1}
            findings={findingsBySlide}
            editable={editable}
            actions={railActions}
            thumbnails={thumbnails}
          />
        </div>

        <section
          className="flex min-h-0 flex-col bg-zinc-100 focus:outline-none"
          aria-label="Preview"
          id="editor-canvas"
          tabIndex={-1}
        >
          {showHistory ? (
            <History deckId={deck.id} entries={history} canEdit={canEdit} onReverted={saving.afterRevert} />
          ) : (
            <PreviewPane
              deck={deck}
              canEdit={canEdit}
              reader={reader}
              source={source}
              editable={editable}
              slide={slide}
              setSlide={setSlide}
              count={railSlides.length}
              compile={compile}
              visual={visual}
              images={images}
              onRemove={removeSelected}
            />
          )}
        </section>

        {canEdit && (
          <SidePanel
            format={deck.format}
            source={source}
            slide={slide - 1}
            selected={selected}
            apply={apply}
            onError={setMessage}
            tokens={tokens}
            setTokens={setTokens}
            brand={brand.brand}
            brandUnsaved={brand.unsaved}
            brandPicker={brand.picker}
          />
        )}
        <CodePanel
          open={codeOpen}
          generation={loaded.generation}
          canEdit={canEdit}
          source={source}
          setSource={setSource}
          tokens={tokens}
          setTokens={setTokens}
          problems={compile.problems}
          onImage={onImage}
          onImageError={setMessage}
          handle={sourceEditor}
          onCursor={visual.onCursor}
          onHistory={setHistoryDepth}
        />
      </div>
    </div>
  );
}

// The editor's state: the content and its compile, saves, the slide on screen, the visual edits and what
// the rail, the canvas and the inspector show of them.
function useEditorState(props: EditorProps) {
  const { deck, canEdit, reader = null } = props;
  const content = useDeckContent({ ...props, draft: props.draft ?? null });
  const { source, setSource, tokens, setTokens, loaded, base } = content;
  const compile = useCompile({ deckId: deck.id, format: deck.format, canEdit, source, tokens, base, loaded, reader });
  const brand = useBrand(props, setTokens);
  const [note, setNote] = useState("");
  const { clear: clearBrandNote } = brand;
  const onSaved = useCallback(() => {
    clearBrandNote();
    setNote("");
  }, [clearBrandNote]);
  const saving = useSave({ deckId: deck.id, format: deck.format, canEdit, content, note, onSaved, ...compile });
  const [slide, setSlide] = useState(1);
  const [showHistory, setShowHistory] = useState(false);
  const [dialog, setDialog] = useState<"share" | "ai" | null>(null);
  const [codeOpen, setCodeOpen] = useStoredFlag("deckhand.editor.code-open", false);
  const sourceEditor = useRef<CodeEditorHandle | null>(null);
  // The code's history is the editor's one history: what the Undo and Redo buttons can do.
  const [historyDepth, setHistoryDepth] = useState<HistoryDepth>({ undo: 0, redo: 0 });
  const { setMessage } = compile;
  const onImage = useCallback((file: File) => uploadImage(file, setMessage), [setMessage]);
  const others = usePresence(deck.id);

  // The visual editor: canvas, rail and inspector changes are source transformations on the code's history.
  const visual = useVisualEdits({
    format: deck.format,
    source,
    setSource,
    handle: sourceEditor,
    compileNow: compile.compileNow,
    onRefused: setMessage,
    slide,
    setSlide,
  });
  const editable = canEdit && (visual.outline?.editable ?? false);
  const selected = useSelectedElement({ format: deck.format, source, slide: slide - 1, selection: visual.selection });
  const railSlides = visual.outline?.editable
    ? visual.outline.slides.map((entry) => ({
        index: entry.index,
        label: entry.label ?? `${deck.format === "webpage" ? "Beat" : "Slide"} ${entry.index + 1}`,
      }))
    : compile.outline.map((label, index) => ({ index, label }));
  const thumbnails = useRailThumbnails({
    format: deck.format,
    source,
    tokens,
    outline: visual.outline,
    compiled: compile.railCompiled,
    count: railSlides.length,
  });
  const railActions = useRailActions(deck.format, visual.apply, setSlide);
  const images = useImageDrop({
    format: deck.format,
    enabled: editable,
    slide: slide - 1,
    apply: visual.apply,
    onError: setMessage,
  });
  const { apply } = visual;
  const { insert, removeSelected } = useElementEdits(deck.format, slide - 1, apply, selected);
  useEditorKeys({ enabled: canEdit, handle: sourceEditor, onRemove: removeSelected });

  const findingsBySlide = useMemo(() => groupFindings(compile.findings), [compile.findings]);
  const presentButton = usePresentButton({ props, content, compile, slide });
  return {
    ...{ content, compile, brand, note, setNote, saving, slide, setSlide, showHistory, setShowHistory },
    ...{ dialog, setDialog, codeOpen, setCodeOpen, sourceEditor, historyDepth, setHistoryDepth, onImage },
    ...{ others, visual, editable, selected, railSlides, thumbnails, railActions, images, insert },
    ...{ removeSelected, findingsBySlide, presentButton },
  };
}

// The editor's bar (editor-toolbar.tsx) over the editor's state, with the notice of a version saved elsewhere.
function EditorBar({ props, state }: { props: EditorProps; state: ReturnType<typeof useEditorState> }) {
  const { deck, canEdit, history } = props;
  const { content, compile, saving, showHistory, setShowHistory, codeOpen, setCodeOpen, note, setNote } = state;
  const { sourceEditor, setDialog } = state;
  const { base, loaded } = content;
  return (
    <EditorToolbar
      deck={deck}
      canEdit={canEdit}
      status={compile.status}
      answered={compile.answered}
      others={state.others}
      liveSaves={
        <LiveSaveNotice
          deckId={deck.id}
          known={canEdit ? base : deck.versionCount}
          knownSource={loaded.source}
          dirty={canEdit && content.changed}
          onLoad={(version, written) => (canEdit ? saving.afterLoad(version, written) : window.location.reload())}
          onResolve={() => saving.setConflict(true)}
        />
      }
      history={state.historyDepth}
      onUndo={() => sourceEditor.current?.history("undo")}
      onRedo={() => sourceEditor.current?.history("redo")}
      insertDisabled={!state.editable || deck.format !== "slides"}
      onInsert={state.insert}
      historyCount={history.length}
      showHistory={showHistory}
      onHistory={() => setShowHistory((v) => !v)}
      present={state.presentButton}
      outline={compile.outline}
      codeOpen={codeOpen}
      onCode={() => setCodeOpen(!codeOpen)}
      onDialog={setDialog}
      note={note}
      setNote={setNote}
      noteMaxLength={props.noteMaxLength}
      canSave={saving.canSave}
      onSave={() => void saving.save()}
    />
  );
}

/** Insert (the new element on the slide on screen, after the selected one, then selected) and Remove. */
function useElementEdits(
  format: DeckFormat,
  slide: number,
  apply: (change: (source: string) => string) => boolean,
  selected: ReturnType<typeof useSelectedElement>,
) {
  const { element, pick, pickAt } = selected;
  const insert = (kind: InsertKind) => {
    let added: number | undefined;
    const changed = apply((now) => {
      const next = insertElement(now, format, { slide, kind, after: element?.start });
      added = addedElementStart(elementsOfSlide(now, format, slide), elementsOfSlide(next, format, slide));
      return next;
    });
    if (changed && added !== undefined) pickAt(added);
  };
  const removeSelected = useCallback(() => {
    if (!element) return false;
    // Nothing is selected after a removal (as the inspector's Remove does): a second Delete must not find
    // another element of the kind to take.
    if (apply((now) => removeElement(now, format, { slide, start: element.start }))) pick(-1);
    return true;
  }, [apply, format, element, pick, slide]);
  return { insert, removeSelected };
}

/** The deck's brand: the theme panel's starting point; one picked applies its tokens, unsaved until a save. */
function useBrand(props: EditorProps, setTokens: (tokens: string) => void) {
  const [brand, setBrand] = useState(props.brand);
  // A brand's tokens applied and not saved yet: said next to the picker until the next save.
  const [unsaved, setUnsaved] = useState(false);
  const picker = {
    deckId: props.deck.id,
    brands: props.brands,
    brandId: props.brandId,
    onBrand: (picked: { name: string; tokensCss: string | null } | null) => {
      setBrand(picked?.tokensCss ? { name: picked.name, tokensCss: picked.tokensCss } : null);
      if (!picked?.tokensCss) return;
      setTokens(picked.tokensCss);
      setUnsaved(true);
    },
  };
  return { brand, unsaved, picker, clear: useCallback(() => setUnsaved(false), []) };
}

/** The rail's slide a drop landed on (0-based), else the slide on screen. */
function railSlideOf(slide: number) {
  return (target: Element | null) => {
    const index = target?.closest<HTMLElement>('[data-testid="rail-slide"]')?.dataset.index;
    return index === undefined ? slide - 1 : Number(index);
  };
}

function groupFindings(findings: Finding[] | null): Map<number, Finding[]> {
  const bySlide = new Map<number, Finding[]>();
  for (const finding of findings ?? []) {
    const slideNumber = finding.slide ?? 0;
    bySlide.set(slideNumber, [...(bySlide.get(slideNumber) ?? []), finding]);
  }
  return bySlide;
}

function useRailActions(
  format: DeckFormat,
  apply: (change: (source: string) => string) => boolean,
  setSlide: (slide: number) => void,
): RailActions {
  return {
    pick: (index) => setSlide(index + 1),
    add: (after, layout) => {
      if (apply((text) => addSlide(text, format, { after, layout }))) setSlide(after + 2);
    },
    duplicate: (index) => {
      if (apply((text) => duplicateSlide(text, format, index))) setSlide(index + 2);
    },
    remove: (index) => {
      if (apply((text) => deleteSlide(text, format, index))) setSlide(Math.max(1, index));
    },
    move: (from, to) => {
      if (apply((text) => moveSlide(text, format, from, to))) setSlide(to + 1);
    },
    rename: (index, label) => void apply((text) => renameSlide(text, format, index, label)),
  };
}

// Present what is on screen: the source and tokens as they are now (saved or not) become the draft the
// present-mode page plays, from the slide on screen, with the presenter window beside it. A reader
// presents the newest saved version.
function usePresentButton({
  props,
  content,
  compile,
  slide,
}: {
  props: EditorProps;
  content: ReturnType<typeof useDeckContent>;
  compile: ReturnType<typeof useCompile>;
  slide: number;
}) {
  const [presenting, setPresenting] = useState(false);
  const { deck, canEdit, presentUrl } = props;
  const presentDraftNow = async () => {
    setPresenting(true);
    try {
      await compile.compiling.current;
      const result = await presentDraftAction({
        id: deck.id,
        source: content.source,
        tokensCss: content.tokens,
        basedOnVersion: content.base,
        unsaved: content.changed,
      });
      if (result.ok) present(result.value.url, slide);
      else compile.showRefusal(result.error, "Not presented");
    } finally {
      setPresenting(false);
    }
  };
  if (canEdit) {
    return (
      <Button
        variant="ghost"
        type="button"
        onClick={() => void presentDraftNow()}
        disabled={presenting || !compile.previewUrl}
        title="Present what is on screen, from this slide"
      >
        Present
      </Button>
    );
  }
  return presentUrl ? (
    <Button variant="ghost" type="button" onClick={() => present(presentUrl, slide)}>
      Present
    </Button>
  ) : null;
}

// Present mode: the deck on its own page (F: full screen, arrows: move) and the presenter window (current and
// next slide, notes, timer), kept in step, both from `slide` (1-based).
function present(viewUrl: string, slide: number) {
  window.open(`${viewUrl}#${slide}`, "deckhand-present");
  window.open(
    `${viewUrl.replace(/\/view$/, "/presenter")}#${slide}`,
    "deckhand-presenter",
    "popup,width=1100,height=720",
  );
}

// The middle of the editor: the canvas with what belongs to the slide on screen under it (a compile error,
// the speaker notes, a reader's notes, the deck check).
function PreviewPane({
  deck,
  canEdit,
  reader,
  source,
  editable,
  slide,
  setSlide,
  count,
  compile,
  visual,
  images,
  onRemove,
}: {
  deck: EditorProps["deck"];
  canEdit: boolean;
  reader: EditorProps["reader"];
  source: string;
  editable: boolean;
  slide: number;
  setSlide: (slide: number) => void;
  count: number;
  compile: ReturnType<typeof useCompile>;
  visual: ReturnType<typeof useVisualEdits>;
  images: ReturnType<typeof useImageDrop>;
  onRemove: () => boolean;
}) {
  // The speaker notes of the slide on screen, when the outline can be edited (undefined: no field).
  const notes = useMemo(() => {
    if (!editable || deck.format !== "slides") return undefined;
    try {
      return readSlideNotes(source, deck.format, slide - 1);
    } catch {
      return undefined;
    }
  }, [deck.format, editable, slide, source]);
  if (!compile.previewUrl) return <div className="p-4">{!canEdit && <ReadOnlyNotice />}</div>;
  return (
    <Canvas
      src={compile.previewUrl}
      inPlace={compile.previewModule}
      slide={slide}
      count={count}
      edit={canEdit && deck.format === "slides"}
      onMessage={(message, focused) => {
        if (message.type === "ready") compile.onPreviewReady();
        // A click on the preview: a person is at work there (its keys stay in the frame).
        if (message.type === "select") compile.postponeCheck();
        if (message.type === "remove") {
          if (focused) onRemove();
          return;
        }
        visual.onPreviewMessage(message, focused);
      }}
      onShown={(src) => {
        compile.onPreviewShown(src);
        visual.onShown();
      }}
      onSlide={setSlide}
      dragging={images.dragging}
      dropHandlers={editable ? images.dropTarget(() => slide - 1) : null}
      uploads={images.uploads}
      onDismiss={images.dismiss}
      editMs={visual.lastEditMs}
    >
      {!canEdit && <ReadOnlyNotice />}
      {compile.message && (
        <div
          className="max-h-40 overflow-y-auto rounded-lg bg-red-50 p-3 ring-1 ring-red-200"
          data-testid="compile-error"
        >
          <pre className="text-xs whitespace-pre-wrap text-red-800">{compile.message}</pre>
        </div>
      )}
      {notes !== undefined && (
        <NotesField
          key={slide}
          slide={slide}
          notes={notes}
          onCommit={(text) => void visual.apply((now) => setSlideNotes(now, deck.format, slide - 1, text))}
        />
      )}
      {reader && <ReaderNotes notes={reader.notes} slide={slide} />}
      {compile.findings && <Findings slide={slide} findings={compile.findings} onPick={setSlide} />}
    </Canvas>
  );
}
