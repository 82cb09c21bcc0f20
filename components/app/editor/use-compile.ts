"use client";

import { type RefObject, useCallback, useEffect, useRef, useState } from "react";
import { checkDraftAction, previewDraftAction } from "@/server/actions/editor";
import type { ActionError } from "@/server/action";
import type { DeckFormat } from "@/lib/contract/deck";
import type { Finding } from "@/lib/render/check-findings";
import type { Problem } from "./code-editor";
import { compileProblems } from "./problems";
import type { CompiledPreview } from "./rail-thumbnails";

// The editor's compile and preview: what is typed is compiled on the server into the author's draft a
// moment after the last keystroke (also the autosave: what differs from the version it is based on is kept
// to restore), a visual edit's change at once; the answer is the preview link, its module and the outline.
// The deck check runs on the draft the preview shows. An answer is shown only while no newer content has
// come since (`sequence`).

export type Status = { kind: "idle" | "compiling" | "ok" | "error" | "saving" | "saved"; text: string };
/** The version a compile's content is based on, and the content that version holds. */
type CompileBasis = { base: number; loadedSource: string; loadedTokens: string };

const COMPILE_DELAY_MS = 400;
/** The deck check runs once the preview has been up to date, and the editor left alone, this long (it draws
 * every slide). */
const CHECK_DELAY_MS = 600;

export function useCompile({
  deckId,
  format,
  canEdit,
  source,
  tokens,
  base,
  loaded,
  reader,
}: {
  deckId: string;
  format: DeckFormat;
  canEdit: boolean;
  source: string;
  tokens: string;
  base: number;
  loaded: { source: string; tokens: string };
  reader: { previewUrl: string; outline: string[] } | null;
}) {
  const [previewUrl, setPreviewUrl] = useState<string | null>(reader?.previewUrl ?? null);
  // The compile's module and frame key: the preview draws a new module in place when it can (preview-frame.tsx).
  const [previewModule, setPreviewModule] = useState<{ module: string; frame: string } | null>(null);
  const [outline, setOutline] = useState<string[]>(reader?.outline ?? []);
  // The preview link with the source and tokens it was compiled from: what the rail's thumbnails draw.
  const [compiled, setCompiled] = useState<CompiledPreview | null>(
    reader?.previewUrl ? { url: reader.previewUrl, source, tokens } : null,
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
  // Compile results shown so far: lets a reader (and the tests) tell a fresh answer from the last one.
  const [answered, setAnswered] = useState(0);
  // Drafts the preview has drawn: each one is checked, whatever the status line says (a save or a revert
  // keeps "Saved as version N" there while the preview catches up).
  const [previewed, setPreviewed] = useState(0);
  const sequence = useRef(0);
  // New content is on its way: a deck check not sent yet waits for it (useDeckCheck).
  const { findings, postpone: postponeCheck } = useDeckCheck({ canEdit, format, deckId, previewed, sequence });

  // A refusal of the server (a compile error with its lines, a limit, an access rule), shown under the code.
  const showRefusal = useCallback((error: ActionError, status: string) => {
    setProblems(compileProblems(error.message));
    setMessage(error.message);
    setStatus({ kind: "error", text: status });
  }, []);

  const sentFor = useRef<{ source: string; tokens: string; basis: CompileBasis; sequence: number } | null>(null);
  // The newest compile sent: Present waits for it, so that its own write of the draft comes last.
  const compiling = useRef<Promise<void>>(Promise.resolve());
  const sendCompile = useCallback(
    async (content: { source: string; tokens: string }, basis: CompileBasis) => {
      const current = ++sequence.current;
      sentFor.current = { ...content, basis, sequence: current };
      postponeCheck();
      // What was just saved (or reverted to) keeps saying so while the preview catches up with it.
      const saved = content.source === basis.loadedSource && content.tokens === basis.loadedTokens;
      const unlessSaved = (next: Status) => setStatus((now) => (saved && now.kind === "saved" ? now : next));
      unlessSaved({ kind: "compiling", text: "Compiling…" });
      const request = previewDraftAction({
        id: deckId,
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
    [deckId, showRefusal, postponeCheck],
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
    postponeCheck();
    const basis = { base, loadedSource: loaded.source, loadedTokens: loaded.tokens };
    const timer = setTimeout(() => void sendCompile({ source, tokens }, basis), COMPILE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [base, canEdit, loaded.source, loaded.tokens, sendCompile, source, tokens, postponeCheck]);
  const compileNow = useCompileNow({ canEdit, tokens, base, loaded, sendCompile });

  return {
    previewUrl,
    previewModule,
    outline,
    railCompiled,
    problems,
    message,
    setMessage,
    status,
    setStatus,
    answered,
    findings,
    postponeCheck,
    showRefusal,
    compileNow,
    compiling,
    onPreviewReady: useCallback(() => setPreviewDrawn(true), []),
    onPreviewShown: useCallback((src: string) => setShownUrl(src.split("?")[0]!), []),
  };
}

// The deck check of the draft the preview shows, once the editor has been left alone a moment: findings per
// slide; they stay until a check of a newer draft replaces them, and an answer for an older draft is dropped.
// Slides decks only (a webpage has no fixed canvas). The check is a server action, and the browser sends
// server actions one at a time: a check under way holds back the compile of the next edit until it is answered
// (on a 20-slide deck, hundreds of milliseconds under load: click-to-edit measured at 0.7 s to 1 s median when
// the two met). So while a person is at work (a click or a key in the page, a click on the preview, new
// content typed or sent to compile: `postpone`) the check waits for them to pause.
function useDeckCheck({
  canEdit,
  format,
  deckId,
  previewed,
  sequence,
}: {
  canEdit: boolean;
  format: DeckFormat;
  deckId: string;
  /** How many drafts the preview has drawn. */
  previewed: number;
  /** The newest content's number (`sequence` of useCompile). */
  sequence: RefObject<number>;
}) {
  const [findings, setFindings] = useState<Finding[] | null>(null);
  const waiting = useRef<{ timer: number; run: () => void } | null>(null);
  useEffect(() => {
    if (!canEdit || format !== "slides" || previewed === 0) return;
    const current = sequence.current;
    const pending = {
      timer: 0,
      run: async () => {
        waiting.current = null;
        const result = await checkDraftAction({ id: deckId });
        if (current !== sequence.current || !result.ok) return;
        setFindings(result.value.findings);
      },
    };
    pending.timer = window.setTimeout(pending.run, CHECK_DELAY_MS);
    waiting.current = pending;
    return () => {
      window.clearTimeout(pending.timer);
      if (waiting.current === pending) waiting.current = null;
    };
  }, [canEdit, format, deckId, previewed, sequence]);
  /** A person is at work: a check not sent yet waits until they pause. */
  const postpone = useCallback(() => {
    const pending = waiting.current;
    if (!pending) return;
    window.clearTimeout(pending.timer);
    pending.timer = window.setTimeout(pending.run, CHECK_DELAY_MS);
  }, []);
  useEffect(() => {
    document.addEventListener("pointerdown", postpone, true);
    document.addEventListener("keydown", postpone, true);
    return () => {
      document.removeEventListener("pointerdown", postpone, true);
      document.removeEventListener("keydown", postpone, true);
    };
  }, [postpone]);
  return { findings, postpone };
}

// A visual edit's compile: at once (no typing delay, and before the change is rendered), with the tokens
// and basis of the newest render.
function useCompileNow({
  canEdit,
  tokens,
  base,
  loaded,
  sendCompile,
}: {
  canEdit: boolean;
  tokens: string;
  base: number;
  loaded: { source: string; tokens: string };
  sendCompile: (content: { source: string; tokens: string }, basis: CompileBasis) => Promise<void>;
}) {
  // What a visual edit's compile is sent with: the tokens and basis of the newest render.
  const compileBasis = useRef({ tokens, base, loadedSource: loaded.source, loadedTokens: loaded.tokens });
  useEffect(() => {
    compileBasis.current = { tokens, base, loadedSource: loaded.source, loadedTokens: loaded.tokens };
  }, [tokens, base, loaded.source, loaded.tokens]);
  return useCallback(
    (next: string) => {
      if (!canEdit) return;
      const { tokens, ...basis } = compileBasis.current;
      void sendCompile({ source: next, tokens }, basis);
    },
    [canEdit, sendCompile],
  );
}
