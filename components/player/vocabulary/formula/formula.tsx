"use client";

// A formula written in TeX, typeset by KaTeX: inline in a sentence (in Text, a bullet, a table cell, a
// heading), or on its own line (`display`), centred and larger. KaTeX is a module of its own
// (render.ts, named by the player's config) imported the first time a deck draws a formula, so decks
// without one never load it; until it has drawn, the TeX is shown as written, and the player's ready
// report (what exports wait for) waits for the drawing. KaTeX writes HTML for the eye and MathML for
// screen readers. The PPTX export places a display formula as a picture whose alt text is its TeX, and
// writes an inline one as text (extract.ts).
//
// TeX that KaTeX cannot read is shown as written, marked data-state="error" with KaTeX's message as its
// title: like a Diagram that does not parse, it is the slide's problem, not one of the player's errors.

import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import type { drawFormula, FormulaProblem } from "@/components/player/vocabulary/formula/render";
import { refitContaining } from "@/components/player/shell/fit";
import { holdReady } from "@/components/player/shell/pending";
import { usePlayer } from "@/components/player/shell/player-context";
import { textOf } from "@/components/player/vocabulary/tone";

type FormulaProps = {
  tex: string;
  display?: boolean;
};

let renderer: Promise<{ drawFormula: typeof drawFormula }> | undefined;

function draw(url: string, ...args: Parameters<typeof drawFormula>): Promise<FormulaProblem | null> {
  renderer ??= import(/* webpackIgnore: true */ url);
  return renderer.then(
    (loaded) => loaded.drawFormula(...args),
    () => {
      // A failed load (a network blip in the viewer) is tried again by the next formula.
      renderer = undefined;
      return { message: "The formula renderer could not be loaded." };
    },
  );
}

export function Formula({ tex, display }: FormulaProps) {
  const { config } = usePlayer();
  const source = textOf(tex)?.trim() ?? "";
  const block = display === true;
  // A <div> on its own line, a <span> in a sentence: typed as both so one ref serves either.
  const element = useRef<HTMLDivElement & HTMLSpanElement>(null);
  const canvas = useRef<HTMLDivElement & HTMLSpanElement>(null);
  const [outcome, setOutcome] = useState<{ key: string; problem: FormulaProblem | null } | null>(null);
  const key = `${block ? "display" : "inline"}:${source}`;
  const done = outcome?.key === key;
  const problem = done ? outcome.problem : null;
  const state = !done ? "drawing" : problem ? "error" : "drawn";

  useEffect(() => {
    const target = canvas.current;
    if (!target) return;
    let current = true;
    const work = draw(config.formulaUrl, target, source, block).then((result) => {
      if (current) flushSync(() => setOutcome({ key, problem: result }));
    });
    holdReady(work);
    return () => {
      current = false;
    };
  }, [config.formulaUrl, source, block, key]);

  // The drawing is wider or taller than the TeX it replaced: the slide is fitted again.
  useLayoutEffect(() => {
    if (state !== "drawing" && element.current) refitContaining(element.current);
  }, [state]);

  const Tag = block ? "div" : "span";
  return (
    <Tag
      className="dh-formula"
      data-display={block ? "" : undefined}
      data-state={state}
      data-tex={source}
      title={problem?.message}
      ref={element}
    >
      {/* KaTeX's markup is put here by the renderer, never by React. */}
      <Tag className="dh-formula-canvas" ref={canvas} hidden={state !== "drawn"} />
      {state !== "drawn" ? (
        <code className="dh-formula-source" dir="ltr">
          {source}
        </code>
      ) : null}
    </Tag>
  );
}
