"use client";

// A Mermaid diagram. This component is all the runtime carries: mermaid itself is a module of its own
// under /player/ (components/player/diagram/render.ts, named by the player's config) that is imported the
// first time a deck draws a <Diagram>, so decks without one never load it. The player's ready report
// waits for every diagram (shell/pending.ts) and the slide is fitted again once one is drawn.
//
// A source mermaid cannot parse shows its message on the slide, in place of the diagram. It is not one of
// the player's errors (window.__deckhand.errors), which fail an export: the deck is drawn, one element
// of it says what is wrong, like an Image whose picture is missing; the figure carries data-state="error".

import { Children, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { flushSync } from "react-dom";
import type { DiagramProblem, drawDiagram } from "@/components/player/diagram/render";
import { refitContaining } from "@/components/player/shell/fit";
import { holdReady } from "@/components/player/shell/pending";
import { usePlayer } from "@/components/player/shell/player-context";
import { textOf } from "@/components/player/vocabulary/tone";

type DiagramProps = {
  code?: string;
  title?: string;
  alt?: string;
  children?: ReactNode;
};

let renderer: Promise<{ drawDiagram: typeof drawDiagram }> | undefined;

function draw(url: string, ...args: Parameters<typeof drawDiagram>): Promise<DiagramProblem | null> {
  renderer ??= import(/* webpackIgnore: true */ url);
  return renderer.then(
    (loaded) => loaded.drawDiagram(...args),
    () => {
      // A failed load (a network blip in the viewer) is tried again by the next diagram.
      renderer = undefined;
      return { message: "The diagram renderer could not be loaded.", excerpt: "" };
    },
  );
}

// `code`, or the children as text: one template literal, or the strings and numbers JSX split it into.
function sourceOf(code: unknown, children: ReactNode): string {
  const given = textOf(code);
  if (given?.trim()) return given;
  const parts: string[] = [];
  Children.forEach(children, (child) => {
    const text = textOf(child);
    if (text !== undefined) parts.push(text);
  });
  return parts.join("");
}

export function Diagram({ code, title, alt, children }: DiagramProps) {
  const { config } = usePlayer();
  const source = sourceOf(code, children);
  const titleText = textOf(title);
  const altText = textOf(alt);
  const figure = useRef<HTMLElement>(null);
  const canvas = useRef<HTMLDivElement>(null);
  // How the last drawing of this source ended (null: drawn); a source not drawn yet is being drawn.
  const [outcome, setOutcome] = useState<{ source: string; problem: DiagramProblem | null } | null>(null);
  const done = outcome?.source === source;
  const problem = done ? outcome.problem : null;
  const state = !done ? "drawing" : problem ? "error" : "drawn";

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const controller = new AbortController();
    const options = { alt: altText, title: titleText, signal: controller.signal };
    // Committed at once (and the slide fitted again, below) before the work counts as done, so the
    // ready report never comes between the drawing and the state that shows it.
    const work = draw(config.diagramUrl, element, source, options).then((result) => {
      if (!controller.signal.aborted) flushSync(() => setOutcome({ source, problem: result }));
    });
    holdReady(work);
    return () => controller.abort();
  }, [config.diagramUrl, source, altText, titleText]);

  // What the slide holds changed size (a drawing, a message): it is fitted again.
  useLayoutEffect(() => {
    if (state !== "drawing" && figure.current) refitContaining(figure.current);
  }, [state, problem]);

  return (
    <figure className="dh-diagram" data-state={state} ref={figure}>
      {titleText ? (
        <figcaption className="dh-diagram-title" dir="auto">
          {titleText}
        </figcaption>
      ) : null}
      {/* Mermaid's SVG is put here by the renderer, never by React. */}
      <div className="dh-diagram-canvas" ref={canvas} hidden={problem !== null} />
      {problem ? (
        <div className="dh-diagram-error" role="alert">
          <p className="dh-diagram-error-title">This diagram could not be drawn</p>
          <p className="dh-diagram-error-message" dir="auto">
            {problem.message}
          </p>
          {problem.excerpt ? <pre className="dh-diagram-error-excerpt">{problem.excerpt}</pre> : null}
        </div>
      ) : null}
    </figure>
  );
}
