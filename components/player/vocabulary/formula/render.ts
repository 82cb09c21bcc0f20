// The Formula renderer: KaTeX, built by scripts/build-player.ts as a module of its own under /player/ and
// imported by <Formula> (formula.tsx) only when a deck draws one, like the Diagram renderer: the runtime
// never carries it. It turns TeX into KaTeX's HTML (drawn with the KaTeX fonts, formula.css) together with
// MathML (what screen readers read; the HTML is aria-hidden). KaTeX runs with `trust: false`, so \href,
// \url, \includegraphics and \html… are refused as errors: a formula is only ever text and layout. The
// markup is inserted with innerHTML, through the frame's one Trusted Types policy (shell/lockdown.ts).

import katex from "katex";

/** What the slide shows instead of a formula KaTeX could not read. */
export type FormulaProblem = { message: string };

/** Sizes and macro expansions a formula may reach: a slide's formula never needs more. */
const limits = { maxSize: 40, maxExpand: 500 };

/** Draws `tex` into `target` (an empty element of the component's); the problem when KaTeX refuses it. */
export function drawFormula(target: HTMLElement, tex: string, display: boolean): FormulaProblem | null {
  if (!tex.trim()) return { message: "This formula has no TeX." };
  try {
    const html = katex.renderToString(tex, {
      displayMode: display,
      output: "htmlAndMathml",
      throwOnError: true,
      trust: false,
      strict: "ignore",
      ...limits,
    });
    // innerHTML: through the frame's Trusted Types "default" policy (see the top of this file).
    target.innerHTML = html;
    return null;
  } catch (error) {
    target.replaceChildren();
    const text = error instanceof Error ? error.message : String(error);
    return { message: (text.split("\n")[0] ?? "").slice(0, 300) || "KaTeX could not read this formula." };
  }
}
