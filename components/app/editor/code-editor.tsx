"use client";

import { autocompletion, type Completion, type CompletionContext } from "@codemirror/autocomplete";
import { css } from "@codemirror/lang-css";
import { javascript } from "@codemirror/lang-javascript";
import { type Diagnostic, lintGutter, setDiagnostics } from "@codemirror/lint";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { basicSetup } from "codemirror";
import { useEffect, useRef } from "react";
import { themeTokens, vocabulary } from "@/lib/deck/vocabulary";

// CodeMirror 6, shipped with the app: TSX (or CSS for the theme tokens) with completions from the deck
// vocabulary and the compiler's problems shown at their line.

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

export function CodeEditor({
  value,
  language,
  onChange,
  problems = NO_PROBLEMS,
  readOnly = false,
  label,
}: {
  value: string;
  language: "tsx" | "css";
  onChange: (value: string) => void;
  problems?: Problem[];
  readOnly?: boolean;
  label: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // The newest onChange, read by CodeMirror's listener (which is made once per editor).
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

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
          EditorView.contentAttributes.of({ "aria-label": label }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current(update.state.doc.toString());
          }),
          EditorView.theme({
            "&": { height: "100%", fontSize: "13px", backgroundColor: "white" },
            ".cm-scroller": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace" },
          }),
        ],
      }),
    });
    view.current = editor;
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

  return <div ref={host} className="h-full overflow-hidden" data-testid={`editor-${language}`} />;
}
