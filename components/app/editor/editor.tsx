"use client";

import { diffLines } from "diff";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useId, useMemo, useRef, useState, useTransition } from "react";
import {
  checkDraftAction,
  type DeckSettings,
  presentDraftAction,
  previewDraftAction,
  readVersionAction,
  revertAction,
  saveVersionAction,
} from "@/app/(app)/decks/[id]/actions";
import type { ActionError } from "@/app/_server/action";
import { Badge, Button, Input, Notice, Tabs } from "@/components/ui";
import { CodeEditor, type CodeEditorHandle, type HistoryDepth, type Problem } from "./code-editor";
import { ImagePicker, uploadImage } from "./images";
import { compileProblems } from "./problems";
import { AnalyticsButton } from "./analytics-panel";
import { AiDialog, ExportButtons, PublishDialog } from "./deck-panels";
import { LiveSaveNotice } from "./live-save-notice";
import { BrandPicker } from "./brand-picker";
import { ThemePanel } from "./theme-panel/theme-panel";
import { ConflictDialog, type Content } from "./conflict-dialog";
import { DraftNotice } from "./draft-notice";
import { NotesField } from "./notes-field";
import { PresenceList } from "./presence-list";
import { DuplicateButton, ReaderNotes, ReadOnlyNotice } from "./reader-panel";
import { useBackGuard } from "./use-back-guard";
import { usePresence } from "./use-presence";
import type { UnsavedDraft } from "@/lib/decks/drafts";
import { Inspector } from "./inspector";
import { PreviewFrame } from "./preview-frame";
import { type RailActions, SlideRail } from "./slide-rail";
import { type CompiledPreview, useRailThumbnails } from "./rail-thumbnails";
import { useVisualEdits } from "./use-visual-edits";
import type { DeckFormat } from "@/lib/contract/deck";
import {
  addSlide,
  deleteSlide,
  duplicateSlide,
  moveSlide,
  readSlideNotes,
  renameSlide,
  setSlideNotes,
} from "@/lib/deck/source/edit";
import type { Finding } from "@/lib/render/check-findings";

// The deck editor: TSX source and theme tokens in CodeMirror, a live preview of what is typed (compiled
// on the server into the author's draft, shown in the sandboxed player), save with a note, and the history
// with diffs and revert. It is also a visual editor over the same source: text edited in place on the
// preview (preview-frame.tsx), the slide rail (slide-rail.tsx) and the inspector (inspector.tsx), each change
// a source transformation applied to the code's own history (use-visual-edits.ts).

type DiffPart = { added?: boolean; removed?: boolean; value: string };
type HistoryEntry = { version: number; note: string | null; createdAt: string; author: string };
type Status = { kind: "idle" | "compiling" | "ok" | "error" | "saving" | "saved"; text: string };

const COMPILE_DELAY_MS = 400;
/** The deck check runs once the preview has been up to date this long (it draws every slide). */
const CHECK_DELAY_MS = 600;

export function Editor({
  deck,
  settings,
  publicUrl,
  brands,
  brandId,
  brand: initialBrand,
  presentUrl,
  canEdit,
  noteMaxLength,
  initialSource,
  initialTokens,
  history,
  draft = null,
  reader = null,
  aiModel = null,
}: {
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
}) {
  const router = useRouter();
  const [source, setSource] = useState(draft?.source ?? initialSource);
  const [tokens, setTokens] = useState(draft?.tokensCss ?? initialTokens);
  const [restored, setRestored] = useState(draft);
  // What the editor opened or last saved, and when (0: not yet). `generation` counts the times the code
  // views were given content from elsewhere (a merge, a revert, a discarded draft): each one starts them
  // anew. A plain save does not: the code keeps its undo history, its cursor and what was typed meanwhile.
  const [loaded, setLoaded] = useState({ source: initialSource, tokens: initialTokens, at: 0, generation: 0 });
  const [tab, setTab] = useState<"source" | "theme" | "tokens">("source");
  const [brand, setBrand] = useState(initialBrand);
  // A brand's tokens applied and not saved yet: said next to the picker until the next save.
  const [brandUnsaved, setBrandUnsaved] = useState(false);
  const [previewUrl, setPreviewUrl] = useState<string | null>(reader?.previewUrl ?? null);
  // The compile's module and frame key: the preview draws a new module in place when it can (preview-frame.tsx).
  const [previewModule, setPreviewModule] = useState<{ module: string; frame: string } | null>(null);
  const [slide, setSlide] = useState(1);
  const [outline, setOutline] = useState<string[]>(reader?.outline ?? []);
  // The preview link with the source and tokens it was compiled from: what the rail's thumbnails draw.
  const [compiled, setCompiled] = useState<CompiledPreview | null>(
    reader?.previewUrl ? { url: reader.previewUrl, source: initialSource, tokens: initialTokens } : null,
  );
  // The preview has reported ready once (its player drew the deck), and the link it shows now.
  const [previewDrawn, setPreviewDrawn] = useState(false);
  const [shownUrl, setShownUrl] = useState<string | null>(null);
  // What the rail's pictures draw: a compile once the preview shows it. A picture loads a frame of its own
  // (the player, the module, the fonts), and loading it beside the preview it waits for put off both: on
  // opening, the preview by about two seconds (`npm run bench -- thumbnails`); on an edit, the preview's
  // update.
  const [railCompiled, setRailCompiled] = useState<CompiledPreview | null>(null);
  if (previewDrawn && compiled && compiled !== railCompiled && (compiled.url === shownUrl || reader)) {
    setRailCompiled(compiled);
  }
  const [problems, setProblems] = useState<Problem[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>({ kind: "idle", text: "" });
  const [note, setNote] = useState("");
  const [showHistory, setShowHistory] = useState(false);
  // The version this editor's content is based on, and whether a save found the deck changed since.
  const [base, setBase] = useState(draft?.basedOnVersion ?? deck.versionCount);
  const [conflict, setConflict] = useState(false);
  const [dialog, setDialog] = useState<"share" | "ai" | null>(null);
  const [showImages, setShowImages] = useState(false);
  const sourceEditor = useRef<CodeEditorHandle | null>(null);
  // The code's history is the editor's one history: what the Undo and Redo buttons can do.
  const [historyDepth, setHistoryDepth] = useState<HistoryDepth>({ undo: 0, redo: 0 });
  const imageError = useCallback((text: string) => setMessage(text), []);
  const onImage = useCallback((file: File) => uploadImage(file, imageError), [imageError]);
  const [, startTransition] = useTransition();
  const sequence = useRef(0);
  // Compile results shown so far: lets a reader (and the tests) tell a fresh answer from the last one.
  const [answered, setAnswered] = useState(0);
  // Drafts the preview has drawn: each one is checked, whatever the status line says (a save or a revert
  // keeps "Saved as version N" there while the preview catches up).
  const [previewed, setPreviewed] = useState(0);
  // The deck check of the draft: findings per slide, for the rail and under the preview; they stay until
  // the next check of a newer draft replaces them.
  const [findings, setFindings] = useState<Finding[] | null>(null);
  // A deck without versions can save what it opened with (the starter) as version 1.
  const dirty = (deck.versionCount === 0 && loaded.at === 0) || source !== loaded.source || tokens !== loaded.tokens;

  // A refusal of the server (a compile error with its lines, a limit, an access rule), shown under the code.
  const showRefusal = useCallback((error: ActionError, status: string) => {
    setProblems(compileProblems(error.message));
    setMessage(error.message);
    setStatus({ kind: "error", text: status });
  }, []);

  // The compile of `content` (also the autosave: what differs from the version it is based on is kept to
  // restore); an answer is shown only while no newer content has come since (`sequence`).
  // `basis`: the version it is based on and the content that version holds (what the editor opened or saved).
  type CompileBasis = { base: number; loadedSource: string; loadedTokens: string };
  const sentFor = useRef<{ source: string; tokens: string; basis: CompileBasis; sequence: number } | null>(null);
  // The newest compile sent: Present waits for it, so that its own write of the draft comes last.
  const compiling = useRef<Promise<void>>(Promise.resolve());
  const sendCompile = useCallback(
    async (content: { source: string; tokens: string }, basis: CompileBasis) => {
      const current = ++sequence.current;
      sentFor.current = { ...content, basis, sequence: current };
      // What was just saved (or reverted to) keeps saying so while the preview catches up with it.
      const saved = content.source === basis.loadedSource && content.tokens === basis.loadedTokens;
      const unlessSaved = (next: Status) => setStatus((now) => (saved && now.kind === "saved" ? now : next));
      unlessSaved({ kind: "compiling", text: "Compiling…" });
      const request = previewDraftAction({
        id: deck.id,
        source: content.source,
        tokensCss: content.tokens,
        basedOnVersion: basis.base,
        unsaved: !saved,
      });
      compiling.current = request.then(
        () => undefined,
        () => undefined,
      );
      const result = await request;
      if (current !== sequence.current) return;
      setAnswered((n) => n + 1);
      if (result.ok) {
        setPreviewUrl(result.value.url);
        setCompiled({ url: result.value.url, ...content });
        setPreviewModule({ module: result.value.module, frame: result.value.frame });
        setOutline(result.value.outline);
        setPreviewed((n) => n + 1);
        setProblems([]);
        setMessage(null);
        unlessSaved({ kind: "ok", text: "Preview up to date" });
      } else {
        showRefusal(result.error, "Does not compile");
      }
    },
    [deck.id, showRefusal],
  );

  // Compile what is typed, a moment after the last keystroke; a visual edit has sent its compile already
  // (at once, before this render), and it is not sent twice.
  useEffect(() => {
    if (!canEdit) return;
    const sent = sentFor.current;
    if (
      sent?.sequence === sequence.current &&
      sent.source === source &&
      sent.tokens === tokens &&
      sent.basis.base === base &&
      sent.basis.loadedSource === loaded.source &&
      sent.basis.loadedTokens === loaded.tokens
    ) {
      return;
    }
    // From now on, answers for older content are ignored.
    sequence.current++;
    const basis = { base, loadedSource: loaded.source, loadedTokens: loaded.tokens };
    const timer = setTimeout(() => void sendCompile({ source, tokens }, basis), COMPILE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [base, canEdit, loaded.source, loaded.tokens, sendCompile, source, tokens]);
  // What a visual edit's compile is sent with: the tokens and basis of the newest render.
  const compileBasis = useRef({ tokens, base, loadedSource: loaded.source, loadedTokens: loaded.tokens });
  useEffect(() => {
    compileBasis.current = { tokens, base, loadedSource: loaded.source, loadedTokens: loaded.tokens };
  }, [tokens, base, loaded.source, loaded.tokens]);

  // Check the draft the preview shows, a moment after it is up to date; an answer for an older draft is
  // dropped. Slides decks only (a webpage has no fixed canvas).
  useEffect(() => {
    if (!canEdit || deck.format !== "slides" || previewed === 0) return;
    const current = sequence.current;
    const timer = setTimeout(async () => {
      const result = await checkDraftAction({ id: deck.id });
      if (current !== sequence.current || !result.ok) return;
      setFindings(result.value.findings);
    }, CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [canEdit, deck.format, deck.id, previewed]);

  // The visual editor: preview, rail and inspector changes are source transformations on the code's history.
  const visual = useVisualEdits({
    format: deck.format,
    source,
    setSource,
    handle: sourceEditor,
    compileNow: useCallback(
      (next: string) => {
        if (!canEdit) return;
        const { tokens, ...basis } = compileBasis.current;
        void sendCompile({ source: next, tokens }, basis);
      },
      [canEdit, sendCompile],
    ),
    onRefused: setMessage,
    slide,
    setSlide,
  });
  const railSlides = visual.outline?.editable
    ? visual.outline.slides.map((entry) => ({
        index: entry.index,
        label: entry.label ?? `${deck.format === "webpage" ? "Beat" : "Slide"} ${entry.index + 1}`,
      }))
    : outline.map((label, index) => ({ index, label }));
  const thumbnails = useRailThumbnails({
    format: deck.format,
    source,
    tokens,
    outline: visual.outline,
    compiled: railCompiled,
    count: railSlides.length,
  });
  const railActions: RailActions = {
    pick: (index) => setSlide(index + 1),
    add: (after, layout) => {
      if (visual.apply((text) => addSlide(text, deck.format, { after, layout }))) setSlide(after + 2);
    },
    duplicate: (index) => {
      if (visual.apply((text) => duplicateSlide(text, deck.format, index))) setSlide(index + 2);
    },
    remove: (index) => {
      if (visual.apply((text) => deleteSlide(text, deck.format, index))) setSlide(Math.max(1, index));
    },
    move: (from, to) => {
      if (visual.apply((text) => moveSlide(text, deck.format, from, to))) setSlide(to + 1);
    },
    rename: (index, label) => void visual.apply((text) => renameSlide(text, deck.format, index, label)),
  };

  // The speaker notes of the slide on screen, when the outline can be edited (undefined: no field).
  const notesEditable = canEdit && deck.format === "slides" && (visual.outline?.editable ?? false);
  const notes = useMemo(() => {
    if (!notesEditable) return undefined;
    try {
      return readSlideNotes(source, deck.format, slide - 1);
    } catch {
      return undefined;
    }
  }, [deck.format, notesEditable, slide, source]);

  const findingsBySlide = new Map<number, Finding[]>();
  for (const finding of findings ?? []) {
    const slideNumber = finding.slide ?? 0;
    findingsBySlide.set(slideNumber, [...(findingsBySlide.get(slideNumber) ?? []), finding]);
  }

  // Saves what is typed as the version after `base` (the one this editor opened or last wrote): a deck
  // saved elsewhere since (another tab, a colleague's AI edit) is a conflict, and nothing typed is lost.
  // From the conflict dialog, `over` saves on top of their newest version (mine, or the merge: `content`).
  const save = useCallback(
    async (over?: { version: number; content?: Content }) => {
      setStatus({ kind: "saving", text: "Saving…" });
      setConflict(false);
      const mine = over?.content ?? { source, tokensCss: tokens };
      const result = await saveVersionAction({
        id: deck.id,
        source: mine.source,
        tokensCss: mine.tokensCss,
        prompt: note.trim() || null,
        basedOnVersion: over?.version ?? base,
      });
      if (result.ok) {
        if (over?.content) {
          setSource(mine.source);
          setTokens(mine.tokensCss);
        }
        setLoaded((now) => ({
          source: mine.source,
          tokens: mine.tokensCss,
          at: Date.now(),
          generation: now.generation + (over?.content ? 1 : 0),
        }));
        setBrandUnsaved(false);
        setBase(result.value.version);
        setRestored(null);
        setNote("");
        setStatus({ kind: "saved", text: `Saved as version ${result.value.version}` });
        startTransition(() => router.refresh());
      } else if (result.error.code === "conflict") {
        setConflict(true);
        setStatus({ kind: "idle", text: "Not saved: the deck changed elsewhere" });
      } else {
        showRefusal(result.error, "Not saved");
      }
    },
    [base, deck.id, note, router, showRefusal, source, tokens],
  );

  // Leaving with unsaved changes asks first: reloading or closing the page (the browser's own prompt), and
  // any link of the app (the breadcrumb, the header), which Next.js would follow without unloading the page.
  useEffect(() => {
    if (!canEdit || !dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    const guardLinks = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!(link instanceof HTMLAnchorElement) || link.target === "_blank" || link.href === window.location.href)
        return;
      if (!window.confirm("Leave without saving? What you changed since the last save will be lost.")) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    window.addEventListener("beforeunload", warn);
    document.addEventListener("click", guardLinks, true);
    return () => {
      window.removeEventListener("beforeunload", warn);
      document.removeEventListener("click", guardLinks, true);
    };
  }, [canEdit, dirty]);

  // Back to another of the app's pages asks too (Next.js does not unload the page for it).
  useBackGuard(canEdit && dirty, canEdit);
  const others = usePresence(deck.id);

  // Ctrl/Cmd+S saves.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key === "s") {
        event.preventDefault();
        if (canEdit && dirty && status.kind !== "error") void save();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [canEdit, dirty, save, status.kind]);

  // Present what is on screen: the source and tokens as they are now (saved or not) become the draft the
  // present-mode page plays, from the slide on screen; the presenter window beside it.
  const [presenting, setPresenting] = useState(false);
  const presentDraftNow = async () => {
    setPresenting(true);
    try {
      await compiling.current;
      const result = await presentDraftAction({
        id: deck.id,
        source,
        tokensCss: tokens,
        basedOnVersion: base,
        unsaved: source !== loaded.source || tokens !== loaded.tokens,
      });
      if (result.ok) present(result.value.url, slide);
      else showRefusal(result.error, "Not presented");
    } finally {
      setPresenting(false);
    }
  };

  // Ctrl/Cmd+Z and Shift+Ctrl/Cmd+Z (or Ctrl+Y) anywhere in the editor undo and redo in the code's history:
  // the code editor takes its own keys, a text field its own typing's, the preview posts them (use-visual-edits).
  useEffect(() => {
    if (!canEdit) return;
    const onKey = (event: KeyboardEvent) => {
      if (!(event.metaKey || event.ctrlKey) || event.altKey || event.defaultPrevented) return;
      const key = event.key.toLowerCase();
      const action = key === "z" ? (event.shiftKey ? "redo" : "undo") : key === "y" && !event.shiftKey ? "redo" : null;
      if (!action) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest(".cm-editor, input, textarea, select, [contenteditable]")) return;
      event.preventDefault();
      sourceEditor.current?.history(action);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [canEdit]);

  // A version written elsewhere (a revert, the AI) becomes the editor's content.
  const afterRevert = (version: number, content: { source: string; tokensCss: string }) => {
    setBase(version);
    setConflict(false);
    setBrandUnsaved(false);
    setRestored(null);
    setSource(content.source);
    setTokens(content.tokensCss);
    setLoaded((now) => ({
      source: content.source,
      tokens: content.tokensCss,
      at: Date.now(),
      generation: now.generation + 1,
    }));
    setStatus({ kind: "saved", text: `Saved as version ${version}` });
    startTransition(() => router.refresh());
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-fills-viewport>
      <div className="flex flex-wrap items-center gap-3 border-b border-zinc-200 bg-white px-4 py-2.5">
        <a href="/decks" className="text-sm text-zinc-500 hover:text-zinc-900">
          Library
        </a>
        <span className="text-zinc-300">/</span>
        <h1 className="truncate text-sm font-semibold">{deck.title}</h1>
        <Badge>{deck.format === "webpage" ? "Webpage" : "Slides"}</Badge>
        <span
          role="status"
          data-testid="editor-status"
          data-kind={status.kind}
          data-answered={answered}
          className={`text-xs ${status.kind === "error" ? "text-red-700" : "text-zinc-500"}`}
        >
          {status.text}
        </span>
        <PresenceList others={others} />
        <LiveSaveNotice
          deckId={deck.id}
          known={canEdit ? base : deck.versionCount}
          knownSource={loaded.source}
          dirty={canEdit && dirty}
          onLoad={(version, content) => (canEdit ? afterRevert(version, content) : window.location.reload())}
          onResolve={() => setConflict(true)}
        />
        <div className="ml-auto flex items-center gap-2">
          {canEdit && (
            <>
              <Button
                variant="ghost"
                type="button"
                onClick={() => sourceEditor.current?.history("undo")}
                disabled={tab !== "source" || historyDepth.undo === 0}
                title="Undo (Ctrl+Z)"
              >
                Undo
              </Button>
              <Button
                variant="ghost"
                type="button"
                onClick={() => sourceEditor.current?.history("redo")}
                disabled={tab !== "source" || historyDepth.redo === 0}
                title="Redo (Shift+Ctrl+Z)"
              >
                Redo
              </Button>
            </>
          )}
          <Button variant="ghost" type="button" onClick={() => setShowHistory((v) => !v)} aria-expanded={showHistory}>
            History ({history.length})
          </Button>
          {canEdit ? (
            <Button
              variant="ghost"
              type="button"
              onClick={() => void presentDraftNow()}
              disabled={presenting || !previewUrl}
              title="Present what is on screen, from this slide"
            >
              Present
            </Button>
          ) : (
            presentUrl && (
              <Button variant="ghost" type="button" onClick={() => present(presentUrl, slide)}>
                Present
              </Button>
            )
          )}
          {canEdit && (
            <BrandPicker
              deckId={deck.id}
              brands={brands}
              brandId={brandId}
              onBrand={(picked) => {
                setBrand(picked?.tokensCss ? { name: picked.name, tokensCss: picked.tokensCss } : null);
                if (!picked?.tokensCss) return;
                setTokens(picked.tokensCss);
                setBrandUnsaved(true);
              }}
            />
          )}
          {canEdit && brandUnsaved && (
            <span role="status" className="text-xs text-amber-800">
              Brand tokens applied: save to keep them
            </span>
          )}
          {deck.format === "slides" && <ExportButtons deckId={deck.id} disabled={history.length === 0} />}
          {!canEdit && history.length > 0 && <DuplicateButton deckId={deck.id} />}
          <AnalyticsButton deckId={deck.id} labels={outline} />
          {canEdit && (
            <>
              <Button variant="secondary" type="button" onClick={() => setDialog("share")}>
                Share
              </Button>
              <Button variant="secondary" type="button" onClick={() => setDialog("ai")}>
                AI
              </Button>
            </>
          )}
          {canEdit && (
            <>
              <label htmlFor="version-note" className="text-sm font-medium text-zinc-700">
                Version note
              </label>
              <Input
                id="version-note"
                value={note}
                onChange={(e) => setNote(e.target.value)}
                placeholder="What changed (optional)"
                className="w-56"
                maxLength={noteMaxLength}
              />
              <Button
                type="button"
                onClick={() => void save()}
                disabled={!dirty || status.kind === "saving" || status.kind === "error" || status.kind === "compiling"}
              >
                Save version
              </Button>
            </>
          )}
        </div>
      </div>

      {canEdit && (
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
            hasContent={history.length > 0}
            open={dialog === "ai"}
            model={aiModel}
            onClose={() => setDialog(null)}
            onDone={async (version) => {
              setDialog(null);
              const read = await readVersionAction({ id: deck.id, version: String(version) });
              if (read.ok) afterRevert(version, read.value);
              else showRefusal(read.error, `Saved as version ${version}, but not loaded`);
            }}
          />
        </>
      )}

      <div className="grid min-h-0 flex-1 grid-cols-[208px_minmax(0,1fr)_minmax(0,1fr)]">
        <SlideRail
          format={deck.format}
          slides={railSlides}
          current={slide - 1}
          findings={findingsBySlide}
          editable={canEdit && tab === "source" && (visual.outline?.editable ?? false)}
          actions={railActions}
          thumbnails={thumbnails}
        />

        <section className="flex min-h-0 flex-col border-r border-zinc-200" aria-label="Code">
          <div className="flex items-center border-b border-zinc-200 bg-zinc-50 px-2 py-1.5">
            <Tabs
              look="segment"
              items={[
                { value: "source", label: "Source (TSX)" },
                { value: "theme", label: "Theme" },
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
          {canEdit && restored && (
            <DraftNotice
              deckId={deck.id}
              savedAt={restored.savedAt}
              basedOnVersion={restored.basedOnVersion}
              newestVersion={deck.versionCount}
              onDiscarded={() => {
                setRestored(null);
                setBase(deck.versionCount);
                setSource(loaded.source);
                setTokens(loaded.tokens);
                setLoaded((now) => ({ ...now, at: Date.now(), generation: now.generation + 1 }));
              }}
            />
          )}
          <ImagePicker
            open={canEdit && tab === "source" && showImages}
            onInsert={(element) => sourceEditor.current?.insertAtCursor(element)}
            onError={imageError}
          />
          <div className="min-h-0 flex-1">
            {tab === "source" ? (
              <CodeEditor
                key={`source-${loaded.generation}`}
                label="Deck source"
                language="tsx"
                value={source}
                onChange={setSource}
                problems={problems}
                readOnly={!canEdit}
                onImage={onImage}
                handle={sourceEditor}
                onCursor={visual.onCursor}
                onHistory={setHistoryDepth}
              />
            ) : tab === "theme" ? (
              <ThemePanel tokensCss={tokens} onChange={setTokens} readOnly={!canEdit} brand={brand} />
            ) : (
              <CodeEditor
                key={`tokens-${loaded.generation}`}
                label="Theme tokens"
                language="css"
                value={tokens}
                onChange={setTokens}
                readOnly={!canEdit}
              />
            )}
          </div>
          {canEdit && conflict && (
            <ConflictDialog
              deckId={deck.id}
              open={conflict}
              base={base}
              mine={{ source, tokensCss: tokens }}
              onKeepMine={(version) => void save({ version })}
              onTakeTheirs={(version, content) => {
                afterRevert(version, content);
                setStatus({ kind: "saved", text: `Loaded version ${version}` });
              }}
              onMerge={(version, content) => void save({ version, content })}
              onClose={() => setConflict(false)}
            />
          )}
          {message && (
            <div className="max-h-40 overflow-y-auto border-t border-red-200 bg-red-50 p-3" data-testid="compile-error">
              <pre className="text-xs whitespace-pre-wrap text-red-800">{message}</pre>
            </div>
          )}
        </section>

        <section className="flex min-h-0 flex-col bg-zinc-100" aria-label="Preview">
          {showHistory ? (
            <History deckId={deck.id} entries={history} canEdit={canEdit} onReverted={afterRevert} />
          ) : (
            // The preview stays in view while the panels under it (the deck check, the inspector with a
            // long grid) scroll in a box of their own; only a window too short for the preview and a few
            // lines of the panels scrolls the column as a whole.
            <div className="flex min-h-0 flex-1 flex-col overflow-y-auto">
              {!canEdit && !previewUrl && (
                <div className="p-4">
                  <ReadOnlyNotice />
                </div>
              )}
              {previewUrl && (
                <div className="flex min-h-0 flex-1 flex-col" data-edit-ms={visual.lastEditMs ?? undefined}>
                  <div className="shrink-0 space-y-3 px-4 pt-4 pb-2">
                    {!canEdit && <ReadOnlyNotice />}
                    <PreviewFrame
                      src={previewUrl}
                      inPlace={previewModule}
                      slide={slide}
                      edit={canEdit && deck.format === "slides"}
                      onMessage={(message, focused) => {
                        if (message.type === "ready") setPreviewDrawn(true);
                        visual.onPreviewMessage(message, focused);
                      }}
                      onShown={(src) => {
                        setShownUrl(src.split("?")[0]!);
                        visual.onShown();
                      }}
                    />
                  </div>
                  {/* Padded inside the scroll box, so the panels' rings and shadows are not cut off. */}
                  <div
                    className="min-h-40 flex-1 space-y-3 overflow-y-auto overscroll-contain px-4 pt-1 pb-4"
                    data-testid="preview-panels"
                  >
                    {notes !== undefined && (
                      <NotesField
                        key={slide}
                        slide={slide}
                        notes={notes}
                        onCommit={(text) =>
                          void visual.apply((now) => setSlideNotes(now, deck.format, slide - 1, text))
                        }
                      />
                    )}
                    {reader && <ReaderNotes notes={reader.notes} slide={slide} />}
                    {findings && <Findings slide={slide} findings={findings} onPick={setSlide} />}
                    {canEdit && tab === "source" && (
                      <Inspector
                        format={deck.format}
                        source={source}
                        slide={slide - 1}
                        selection={visual.selection}
                        apply={visual.apply}
                        onError={imageError}
                      />
                    )}
                  </div>
                </div>
              )}
            </div>
          )}
        </section>
      </div>
    </div>
  );
}

// The deck check under the preview: this slide's findings (and the whole deck's, if it did not draw),
// with a line saying how the rest of the deck stands.
function Findings({
  slide,
  findings,
  onPick,
}: {
  slide: number;
  findings: Finding[];
  onPick: (slide: number) => void;
}) {
  const here = findings.filter((finding) => finding.slide === slide || finding.slide === null);
  const elsewhere = [...new Set(findings.filter((f) => f.slide !== null && f.slide !== slide).map((f) => f.slide!))];
  return (
    <div
      className="rounded-lg bg-white p-3 text-sm shadow-sm ring-1 ring-zinc-200"
      data-testid="findings"
      aria-live="polite"
    >
      <p className="mb-1 text-xs font-semibold tracking-wide text-zinc-500 uppercase">Deck check</p>
      {here.length === 0 ? (
        <p className="text-zinc-600">Nothing to fix on this slide.</p>
      ) : (
        <ul className="space-y-1.5">
          {here.map((finding, index) => (
            <li key={index} data-kind={finding.kind} className="flex gap-2">
              <span
                className={`mt-0.5 h-2 w-2 shrink-0 rounded-full ${finding.severity === "error" ? "bg-red-600" : "bg-amber-400"}`}
                aria-label={finding.severity}
              />
              <span className="text-zinc-800">{finding.message}</span>
            </li>
          ))}
        </ul>
      )}
      {elsewhere.length > 0 && (
        <p className="mt-2 text-xs text-zinc-500">
          Also on slide{elsewhere.length > 1 ? "s" : ""}{" "}
          {elsewhere.map((n, index) => (
            <span key={n}>
              {index > 0 ? ", " : ""}
              <button type="button" className="underline hover:text-zinc-900" onClick={() => onPick(n)}>
                {n}
              </button>
            </span>
          ))}
        </p>
      )}
    </div>
  );
}

// Present mode: the deck on its own page (F: full screen, arrows: move) and the presenter window (current and
// next slide, notes, timer), kept in step, both from `slide` (1-based): the owner's draft as the editor shows
// it, a reader's newest saved version.
function present(viewUrl: string, slide: number) {
  window.open(`${viewUrl}#${slide}`, "deckhand-present");
  window.open(
    `${viewUrl.replace(/\/view$/, "/presenter")}#${slide}`,
    "deckhand-presenter",
    "popup,width=1100,height=720",
  );
}

function History({
  deckId,
  entries,
  canEdit,
  onReverted,
}: {
  deckId: string;
  entries: HistoryEntry[];
  canEdit: boolean;
  onReverted: (version: number, content: { source: string; tokensCss: string }) => void;
}) {
  // What the person picked; until they pick, the comparison follows the list (the newest version against
  // the one before it), so a version saved while the panel is open is compared as soon as it is listed.
  const [picked, setPicked] = useState<{ from?: number; to?: number }>({});
  const listed = (version: number | undefined) =>
    version !== undefined && entries.some((e) => e.version === version) ? version : undefined;
  const from = listed(picked.from) ?? entries[1]?.version;
  const to = listed(picked.to) ?? entries[0]?.version;
  const [diff, setDiff] = useState<{ from: number; to: number; parts: DiffPart[] } | null>(null);
  const [comparing, setComparing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cannotCompare =
    from === undefined || to === undefined
      ? "Pick two versions to compare"
      : from === to
        ? "Pick two different versions"
        : null;

  const compare = async () => {
    if (from === undefined || to === undefined || from === to) return;
    setComparing(true);
    setError(null);
    try {
      const [a, b] = await Promise.all([
        readVersionAction({ id: deckId, version: String(from) }),
        readVersionAction({ id: deckId, version: String(to) }),
      ]);
      if (!a.ok) setError(a.error.message);
      else if (!b.ok) setError(b.error.message);
      else setDiff({ from, to, parts: diffLines(a.value.source, b.value.source) });
    } catch {
      setError(`Versions ${from} and ${to} could not be read; try again.`);
    } finally {
      setComparing(false);
    }
  };
  const revert = async (version: number) => {
    if (!window.confirm(`Copy version ${version} forward as a new version? The history is kept.`)) return;
    const result = await revertAction({ id: deckId, version: String(version) });
    if (!result.ok) return setError(result.error.message);
    const content = await readVersionAction({ id: deckId, version: String(result.value.version) });
    if (!content.ok) return setError(content.error.message);
    onReverted(result.value.version, content.value);
  };

  if (entries.length === 0) {
    return <p className="p-6 text-sm text-zinc-600">No versions yet: save to write version 1.</p>;
  }
  return (
    <div className="flex min-h-0 flex-1 flex-col overflow-y-auto bg-white p-4" data-testid="history">
      {error && <Notice>{error}</Notice>}
      <ol className="divide-y divide-zinc-100">
        {entries.map((entry) => (
          <li key={entry.version} className="flex items-start gap-3 py-2.5" data-version={entry.version}>
            <span className="w-10 shrink-0 font-mono text-sm font-semibold">v{entry.version}</span>
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm">{entry.note ?? <span className="text-zinc-400">No note</span>}</p>
              <p className="text-xs text-zinc-500">
                {entry.author} ·{" "}
                {new Date(entry.createdAt).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" })}
              </p>
            </div>
            {canEdit && (
              <Button
                variant="secondary"
                type="button"
                onClick={() => void revert(entry.version)}
                aria-label={`Revert to version ${entry.version}`}
              >
                Revert
              </Button>
            )}
          </li>
        ))}
      </ol>
      {entries.length > 1 && (
        <div className="mt-4 space-y-3 border-t border-zinc-200 pt-4">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <VersionSelect
              label="From version"
              entries={entries}
              value={from}
              onChange={(version) => setPicked((p) => ({ ...p, from: version }))}
            />
            <VersionSelect
              label="To version"
              entries={entries}
              value={to}
              onChange={(version) => setPicked((p) => ({ ...p, to: version }))}
            />
            <Button
              variant="secondary"
              type="button"
              onClick={() => void compare()}
              disabled={cannotCompare !== null || comparing}
              title={cannotCompare ?? undefined}
            >
              {comparing ? "Comparing…" : "Show diff"}
            </Button>
            {cannotCompare && <span className="text-xs text-zinc-500">{cannotCompare}</span>}
          </div>
          {diff && (
            <p className="text-xs font-medium text-zinc-600">
              Changes from v{diff.from} to v{diff.to}
            </p>
          )}
          {diff && (
            <pre
              className="overflow-x-auto rounded bg-zinc-50 p-3 text-xs"
              data-testid="diff"
              aria-label={`Changes from version ${diff.from} to version ${diff.to}`}
            >
              {diff.parts.map((part, i) => (
                <span
                  key={i}
                  className={
                    part.added
                      ? "block bg-emerald-100 text-emerald-900"
                      : part.removed
                        ? "block bg-red-100 text-red-900"
                        : "block text-zinc-500"
                  }
                >
                  {part.value
                    .replace(/\n$/, "")
                    .split("\n")
                    .map((line) => `${part.added ? "+" : part.removed ? "-" : " "} ${line}`)
                    .join("\n")}
                </span>
              ))}
            </pre>
          )}
        </div>
      )}
    </div>
  );
}

function VersionSelect({
  label,
  entries,
  value,
  onChange,
}: {
  label: string;
  entries: HistoryEntry[];
  value: number | undefined;
  onChange: (version: number) => void;
}) {
  const id = useId();
  return (
    <span className="inline-flex items-center gap-1.5">
      <label htmlFor={id} className="text-zinc-700">
        {label}
      </label>
      <select
        id={id}
        value={value ?? ""}
        onChange={(e) => onChange(Number(e.target.value))}
        className="rounded ring-1 ring-zinc-300"
      >
        {entries.map((e) => (
          <option key={e.version} value={e.version}>
            v{e.version}
          </option>
        ))}
      </select>
    </span>
  );
}
