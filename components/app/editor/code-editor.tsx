"use client";

import { autocompletion, type Completion, type CompletionContext } from "@codemirror/autocomplete";
import { indentWithTab, redo, redoDepth, undo, undoDepth } from "@codemirror/commands";
import { css } from "@codemirror/lang-css";
import { javascript } from "@codemirror/lang-javascript";
import { type Diagnostic, lintGutter, setDiagnostics } from "@codemirror/lint";
import { EditorState } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import { basicSetup } from "codemirror";
import { type Ref, type RefObject, useEffect, useId, useImperativeHandle, useRef } from "react";
import { vocabulary } from "@/lib/source/component-specs";
import { themeTokens } from "@/lib/source/theme-tokens";

// CodeMirror 6, shipped with the app: TSX (or CSS for the theme tokens) with completions from the deck
// vocabulary and the compiler's problems shown at their line. Tab and Shift-Tab indent and outdent the
// lines (indentWithTab); Escape then Tab leaves the editor, and Ctrl+M (Shift+Alt+M on a Mac) makes Tab
// move the focus until pressed again (CodeMirror's tab focus mode), which the editor's accessible
// description says, so keyboard users are never trapped. The code is in a panel a person opens: Tab from
// the rail or the canvas never lands in it unasked.

/** What the editor's description tells keyboard users about Tab. */
const TAB_HINT =
  "Tab indents and Shift+Tab outdents the lines. To leave the editor, press Escape, then Tab; Ctrl+M makes Tab leave it until pressed again.";

export type Problem = { line: number; column: number; message: string };

const NO_PROBLEMS: Problem[] = [];

// Component names after "<" or in an import list; props inside a tag; tokens in CSS.
function vocabularyCompletions(context: CompletionContext) {
  const tag = context.matchBefore(/<[A-Z]\w*$/);
  if (tag) {
    return {
      from: tag.from + 1,
      options: vocabulary.map<Completion>((c) => ({ label: c.name, type: "class", info: c.doc })),
    };
  }
  const word = context.matchBefore(/\w+$/);
  if (!word && !context.explicit) return null;
  const before = context.state.sliceDoc(Math.max(0, context.pos - 400), context.pos);
  const openTag = /<([A-Z]\w*)\b[^<>]*$/.exec(before);
  if (openTag) {
    const component = vocabulary.find((c) => c.name === openTag[1]);
    if (component) {
      return {
        from: word?.from ?? context.pos,
        options: component.props.map<Completion>((p) => ({
          label: p.name,
          type: "property",
          detail: p.type,
          info: p.doc,
        })),
      };
    }
  }
  if (/import\s*\{[^}]*$/.test(before)) {
    return {
      from: word?.from ?? context.pos,
      options: vocabulary.map<Completion>((c) => ({ label: c.name, type: "class", info: c.doc })),
    };
  }
  return null;
}

function tokenCompletions(context: CompletionContext) {
  const word = context.matchBefore(/--[\w-]*$/);
  if (!word) return null;
  return {
    from: word.from,
    options: themeTokens.map<Completion>((t) => ({ label: t.name, type: "variable", info: t.doc })),
  };
}

function toDiagnostics(view: EditorView, problems: Problem[]): Diagnostic[] {
  const doc = view.state.doc;
  return problems
    .filter((p) => p.line >= 1 && p.line <= doc.lines)
    .map((p) => {
      const line = doc.line(p.line);
      const from = Math.min(line.from + Math.max(0, p.column - 1), line.to);
      return { from, to: Math.max(from, line.to), severity: "error", message: p.message };
    });
}

/**
 * What the editor lets its owner do with the document: insert text where the cursor is; replace the whole
 * document with `next` as one transaction that changes only the span that differs (a visual edit: one step
 * of the same undo history as typing, Ctrl-Z undoes it); select a range and scroll it into view; undo and
 * redo in that history (the editor's one history, whichever part of the editor has the keyboard).
 */
export type CodeEditorHandle = {
  insertAtCursor: (text: string) => void;
  applyDocument: (next: string) => void;
  select: (from: number, to: number) => void;
  history: (action: "undo" | "redo") => void;
};

/** How many steps the history can undo and redo. */
export type HistoryDepth = { undo: number; redo: number };

/** The one span where `before` and `after` differ: the change that turns one into the other. */
export function differingSpan(before: string, after: string): { from: number; to: number; insert: string } | null {
  if (before === after) return null;
  let start = 0;
  const shortest = Math.min(before.length, after.length);
  while (start < shortest && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before.charCodeAt(endBefore - 1) === after.charCodeAt(endAfter - 1)) {
    endBefore--;
    endAfter--;
  }
  return { from: start, to: endBefore, insert: after.slice(start, endAfter) };
}

/**
 * Turns a pasted or dropped image into the text to insert (an <Image … /> element), or null to insert
 * nothing. It may take a while (an upload): the text goes where the image was pasted or dropped, that
 * place moved along with whatever was typed meanwhile, and nothing typed is replaced.
 */
export type ImageHandler = (file: File) => Promise<string | null>;

export function CodeEditor({
  value,
  language,
  onChange,
  problems = NO_PROBLEMS,
  readOnly = false,
  label,
  onImage,
  handle,
  onCursor,
  onHistory,
}: {
  value: string;
  language: "tsx" | "css";
  onChange: (value: string) => void;
  problems?: Problem[];
  readOnly?: boolean;
  label: string;
  onImage?: ImageHandler;
  handle?: Ref<CodeEditorHandle>;
  /** The cursor moved (a click or a key in the code, not a change made through the handle). */
  onCursor?: (position: number) => void;
  /** The history's depth, after every change of it. */
  onHistory?: (depth: HistoryDepth) => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const view = useRef<EditorView | null>(null);
  // The newest callbacks, read by CodeMirror's listeners (which are made once per editor).
  const onChangeRef = useLatest(onChange);
  const onImageRef = useLatest(onImage);
  const onCursorRef = useLatest(onCursor);
  const onHistoryRef = useLatest(onHistory);
  // Where each pending image goes, mapped through every change made while it uploads.
  const pending = useRef(new Map<number, number>());

  const pendingCount = useRef(0);

  useEditorHandle(handle, view, readOnly);

  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          language === "tsx" ? javascript({ jsx: true, typescript: true }) : css(),
          autocompletion({ override: [language === "tsx" ? vocabularyCompletions : tokenCompletions] }),
          lintGutter(),
          EditorState.readOnly.of(readOnly),
          keymap.of([indentWithTab]),
          EditorView.contentAttributes.of({ "aria-label": label, "aria-describedby": hintId }),
          EditorView.updateListener.of((update) => {
            // The cursor moved by a person: a click or a key, typing, undo and redo (not a visual edit, whose
            // place the preview already shows, nor new content loaded).
            const visual = update.transactions.some(
              (transaction) => transaction.isUserEvent("select.visual") || transaction.isUserEvent("input.visual"),
            );
            const byPerson =
              !update.docChanged ||
              update.transactions.some((transaction) =>
                ["input", "delete", "undo", "redo"].some((event) => transaction.isUserEvent(event)),
              );
            const cursorMoved = update.selectionSet && !visual && byPerson;
            if (update.docChanged) {
              onHistoryRef.current?.({ undo: undoDepth(update.state), redo: redoDepth(update.state) });
              for (const [id, at] of pending.current) pending.current.set(id, update.changes.mapPos(at, 1));
              onChangeRef.current(update.state.doc.toString());
            }
            if (cursorMoved) onCursorRef.current?.(update.state.selection.main.head);
          }),
          EditorView.domEventHandlers({
            paste: (event, editor) => takeImages(event.clipboardData, editor.state.selection.main.head, event),
            drop: (event, editor) =>
              takeImages(
                event.dataTransfer,
                editor.posAtCoords({ x: event.clientX, y: event.clientY }) ?? editor.state.selection.main.head,
                event,
              ),
          }),
          EditorView.theme({
            "&": { height: "100%", fontSize: "13px", backgroundColor: "white" },
            ".cm-scroller": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace" },
          }),
        ],
      }),
    });
    view.current = editor;
    onHistoryRef.current?.({ undo: 0, redo: 0 });
    // Image files pasted or dropped: each handled on its own; the rest of the event (text) is CodeMirror's.
    function takeImages(data: DataTransfer | null, at: number, event: Event): boolean {
      const files = [...(data?.files ?? [])].filter((file) => file.type.startsWith("image/"));
      const handler = onImageRef.current;
      if (files.length === 0 || !handler || readOnly) return false;
      event.preventDefault();
      for (const file of files) {
        const id = ++pendingCount.current;
        pending.current.set(id, at);
        void handler(file)
          .then((text) => {
            const where = pending.current.get(id);
            if (text === null || where === undefined || view.current !== editor) return;
            editor.dispatch({ changes: { from: Math.min(where, editor.state.doc.length), insert: text } });
          })
          .finally(() => pending.current.delete(id));
      }
      return true;
    }
    return () => editor.destroy();
    // The document is owned by CodeMirror after creation: `value` only seeds it, and `label` names the view.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [language, readOnly]);

  // Replace the document when the caller loads other content (a revert, another version).
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
    }
  }, [value]);

  // The compiler's problems, computed on the server, shown at their lines.
  useEffect(() => {
    const editor = view.current;
    if (editor) editor.dispatch(setDiagnostics(editor.state, toDiagnostics(editor, problems)));
  }, [problems]);

  return (
    <>
      <p id={hintId} className="sr-only">
        {TAB_HINT}
      </p>
      <div ref={host} className="h-full overflow-hidden" data-testid={`editor-${language}`} />
    </>
  );
}

// The ref holding `value` as of the newest render.
function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useEffect(() => {
    ref.current = value;
  }, [value]);
  return ref;
}

// What the editor does for the rest of the editor (CodeEditorHandle): visual edits, selections, undo.
function useEditorHandle(
  handle: Ref<CodeEditorHandle> | undefined,
  view: RefObject<EditorView | null>,
  readOnly: boolean,
) {
  useImperativeHandle(
    handle,
    () => ({
      insertAtCursor: (text: string) => {
        const editor = view.current;
        if (!editor || readOnly) return;
        const at = editor.state.selection.main.head;
        editor.dispatch({ changes: { from: at, insert: text }, selection: { anchor: at + text.length } });
        editor.focus();
      },
      applyDocument: (next: string) => {
        const editor = view.current;
        if (!editor || readOnly) return;
        const change = differingSpan(editor.state.doc.toString(), next);
        if (!change) return;
        editor.dispatch({ changes: change, userEvent: "input.visual", scrollIntoView: false });
      },
      select: (from: number, to: number) => {
        const editor = view.current;
        if (!editor) return;
        const length = editor.state.doc.length;
        const anchor = Math.max(0, Math.min(from, length));
        const head = Math.max(anchor, Math.min(to, length));
        editor.dispatch({
          selection: { anchor, head },
          effects: EditorView.scrollIntoView(anchor, { y: "center" }),
          userEvent: "select.visual",
        });
      },
      history: (action: "undo" | "redo") => {
        const editor = view.current;
        if (!editor || readOnly) return;
        if (action === "undo") undo(editor);
        else redo(editor);
      },
    }),
    [readOnly, view],
  );
}
