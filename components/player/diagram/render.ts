// The Diagram renderer: mermaid, built by scripts/build-player.ts as an entry of its own under /player/
// (split into chunks, so each diagram type loads only its own code) and imported by the <Diagram>
// component (vocabulary/diagram/diagram.tsx) only when a deck draws one. The runtime never contains it.
//
// Mermaid runs in "strict" security (labels are text: no HTML, no scripts, no click handlers) with
// SVG-only labels (no <foreignObject>, so PDF keeps the labels as text and PPTX pictures match), in the
// deck's theme: colours and font are read from the computed tokens where the diagram sits. Its SVG
// string is inserted with innerHTML, which the frame's Trusted Types CSP sends through the player's one
// "default" policy (shell/lockdown.ts) like every other markup: mermaid's output (already sanitised by its
// own DOMPurify, which cannot create a policy of its own here) passes, and markup with frames, links,
// metas or bases is refused as everywhere else. Nothing in the policy is relaxed for diagrams.

import mermaid, { type MermaidConfig } from "mermaid";
import { contrastRatio, parseHex, relativeLuminance, type Rgb } from "@/lib/contract/color";

// Config keys a diagram's own `%%{init: …}%%` directive may not change: mermaid's own list, plus the
// ones that keep diagrams in the deck's theme, in SVG labels and under the sanitiser's defaults.
const secure = [
  "secure",
  "securityLevel",
  "startOnLoad",
  "maxTextSize",
  "suppressErrorRendering",
  "maxEdges",
  "htmlLabels",
  "dompurifyConfig",
  "theme",
  "themeVariables",
  "themeCSS",
  "fontFamily",
  "darkMode",
];

let sequence = 0;
// Mermaid holds one configuration: diagrams (each in the colours of its own slide) render one at a time.
let queue: Promise<unknown> = Promise.resolve();

let paint: CanvasRenderingContext2D | null = null;

// A CSS colour as "#rrggbb", flattened onto `ground` (translucent tones on strong fills are mixes).
function hexOf(css: string, ground: string): string {
  paint ??= Object.assign(document.createElement("canvas"), { width: 1, height: 1 }).getContext("2d", {
    willReadFrequently: true,
  });
  if (!paint) return "#000000";
  paint.clearRect(0, 0, 1, 1);
  paint.fillStyle = "#ffffff";
  paint.fillStyle = ground;
  paint.fillRect(0, 0, 1, 1);
  paint.fillStyle = "#000000";
  paint.fillStyle = css;
  paint.fillRect(0, 0, 1, 1);
  const [r = 0, g = 0, b = 0] = paint.getImageData(0, 0, 1, 1).data;
  return `#${[r, g, b].map((channel) => channel.toString(16).padStart(2, "0")).join("")}`;
}

// The channels of a hexOf() value, for the contrast maths of lib/contract/color.ts.
function rgbOf(hex: string): Rgb {
  return parseHex(hex) ?? { r: 0, g: 0, b: 0 };
}

type Theme = { variables: Record<string, string | boolean>; fontFamily: string; fontSize: number };

// The deck's colours where the diagram sits (a primary Box remaps them), as the hex values mermaid's
// colour maths needs: every value is resolved by the browser from the context variables of
// vocabulary.css, mixes included, then painted to read it back.
function readTheme(target: HTMLElement): Theme {
  const probe = document.createElement("span");
  probe.style.display = "none";
  target.append(probe);
  const resolve = (value: string) => {
    probe.style.color = "";
    probe.style.setProperty("color", value);
    return getComputedStyle(probe).color;
  };
  try {
    const style = getComputedStyle(target);
    const ground = resolve("var(--dh-ground)");
    const colour = (value: string) => hexOf(resolve(value), ground);
    const mix = (token: string, share: number) =>
      colour(`color-mix(in srgb, var(${token}) ${share}%, var(--dh-ground))`);
    const fg = colour("var(--dh-fg)");
    const background = hexOf(ground, "#ffffff");
    const primary = colour("var(--dh-primary)");
    const secondary = colour("var(--dh-secondary)");
    const accent = colour("var(--dh-accent)");
    const line = mix("--dh-fg", 55);
    const hairline = colour("var(--dh-line)");
    const tint = colour("var(--dh-tint)");
    const primaryFill = mix("--dh-primary", 14);
    const secondaryFill = mix("--dh-secondary", 14);
    const accentFill = mix("--dh-accent", 14);
    const fontFamily = style.fontFamily || "sans-serif";
    const fontSize = Number.parseFloat(style.fontSize) || 24;
    // Colours by index: strong for pie slices and git branches; tints under dark text for the types that
    // fill their boxes with them (mindmap, timeline, journey), so labels keep their contrast.
    const strong = [
      primary,
      secondary,
      accent,
      mix("--dh-primary", 55),
      mix("--dh-secondary", 55),
      mix("--dh-accent", 55),
    ];
    const tints = [
      primaryFill,
      secondaryFill,
      accentFill,
      mix("--dh-primary", 28),
      mix("--dh-secondary", 28),
      mix("--dh-accent", 28),
    ];
    const variables: Record<string, string | boolean> = {
      darkMode: relativeLuminance(rgbOf(background)) < 0.35,
      background,
      fontFamily,
      fontSize: `${fontSize}px`,
      textColor: fg,
      titleColor: fg,
      lineColor: line,
      primaryColor: primaryFill,
      primaryBorderColor: primary,
      primaryTextColor: fg,
      secondaryColor: secondaryFill,
      secondaryBorderColor: secondary,
      secondaryTextColor: fg,
      tertiaryColor: tint,
      tertiaryBorderColor: hairline,
      tertiaryTextColor: fg,
      mainBkg: primaryFill,
      nodeBorder: primary,
      nodeTextColor: fg,
      clusterBkg: tint,
      clusterBorder: hairline,
      edgeLabelBackground: background,
      noteBkgColor: accentFill,
      noteBorderColor: accent,
      noteTextColor: fg,
      actorBkg: primaryFill,
      actorBorder: primary,
      actorTextColor: fg,
      actorLineColor: line,
      signalColor: fg,
      signalTextColor: fg,
      labelBoxBkgColor: tint,
      labelBoxBorderColor: hairline,
      labelTextColor: fg,
      loopTextColor: fg,
      activationBkgColor: tint,
      activationBorderColor: hairline,
      sequenceNumberColor: background,
      pieTitleTextColor: fg,
      pieLegendTextColor: fg,
      pieStrokeColor: background,
      pieOuterStrokeColor: hairline,
    };
    // Text on a strong colour: the page colour or the text colour, whichever reads better on it.
    const contrast = (a: string, b: string) => contrastRatio(rgbOf(a), rgbOf(b));
    const on = (colour: string) => (contrast(colour, background) >= contrast(colour, fg) ? background : fg);
    strong.forEach((value, index) => {
      variables[`pie${index + 1}`] = value;
      variables[`git${index}`] = value;
      variables[`gitBranchLabel${index}`] = on(value);
    });
    variables.pieSectionTextColor = on(primary);
    for (let index = 0; index < 12; index++) {
      variables[`cScale${index}`] = tints[index % tints.length]!;
      variables[`cScaleLabel${index}`] = fg;
      variables[`cScalePeer${index}`] = strong[index % strong.length]!;
    }
    return { variables, fontFamily, fontSize };
  } finally {
    probe.remove();
  }
}

// The first family a font-family list names, for loading it before mermaid measures its labels.
function firstFamily(list: string): string {
  const first = list.split(",")[0]?.trim() ?? "";
  return first.replace(/^["']|["']$/g, "");
}

type Policy = { createHTML: (html: string) => unknown; createScriptURL: (url: string) => unknown };

// The player's Trusted Types policy (shell/lockdown.ts), where the browser has Trusted Types, as a plain
// object of functions: mermaid copies its config, which would leave a policy object without its methods.
function defaultPolicy(): Policy | undefined {
  const policy = (window as { trustedTypes?: { defaultPolicy?: Policy | null } }).trustedTypes?.defaultPolicy;
  if (!policy) return undefined;
  return {
    createHTML: (html) => policy.createHTML(html),
    createScriptURL: (url) => policy.createScriptURL(url),
  };
}

export type DrawOptions = {
  /** What the diagram shows, for screen readers and the PPTX picture's alt text. */
  alt?: string;
  /** The diagram's caption: its alt text when it has no `alt`. */
  title?: string;
  /** Set when the component no longer wants this drawing (its source changed, it unmounted). */
  signal?: AbortSignal;
};

/** What the slide shows instead of a diagram mermaid could not draw. */
export type DiagramProblem = {
  /** Mermaid's first line: what is wrong and where ("Parse error on line 2:"). */
  message: string;
  /** For a parse error, the source line mermaid quotes and its caret under the place; else "". */
  excerpt: string;
};

// The largest a diagram is drawn, as a factor of its natural size: a three-node flowchart should not
// turn its labels into headlines just because the slide has room.
const MAX_SCALE = 1.5;

function firstLine(text: string): string {
  return (
    text
      .split("\n")
      .map((line) => line.trim())
      .find(Boolean) ?? ""
  );
}

// Mermaid's errors are several lines: what is wrong and where, then for a parse error the source line
// and a caret under the place, then the long list of what it expected instead, which is left out.
function problemOf(error: unknown): DiagramProblem {
  const text =
    error instanceof Error
      ? error.message
      : typeof error === "object" && error !== null && "str" in error
        ? String((error as { str: unknown }).str)
        : String(error);
  const lines = text.split("\n").filter((line) => line.trim());
  const caret = lines.findIndex((line) => /^-*\^$/.test(line.trim()));
  return {
    message: (lines[0] ?? "").trim().slice(0, 300) || "Mermaid could not read this diagram.",
    excerpt:
      caret >= 1
        ? lines
            .slice(Math.max(1, caret - 1), caret + 1)
            .join("\n")
            .slice(0, 400)
        : "",
  };
}

/**
 * Draws `source` into `target` (an empty box the caller sized): the SVG scales to the box, keeps its
 * aspect ratio and is centred (vocabulary.css). Resolves null once drawn (or no longer wanted), or with
 * the problem to show for a source mermaid cannot draw, leaving `target` empty; it never rejects.
 */
export function drawDiagram(
  target: HTMLElement,
  source: string,
  options: DrawOptions = {},
): Promise<DiagramProblem | null> {
  const run = queue.then(() => draw(target, source, options));
  queue = run;
  return run;
}

async function draw(target: HTMLElement, source: string, options: DrawOptions): Promise<DiagramProblem | null> {
  if (options.signal?.aborted) return null;
  if (!source.trim()) return { message: "This diagram has no Mermaid source.", excerpt: "" };
  try {
    await render(target, source, options);
    return null;
  } catch (error) {
    if (!options.signal?.aborted) target.replaceChildren();
    return problemOf(error);
  }
}

async function render(target: HTMLElement, source: string, { alt, title, signal }: DrawOptions): Promise<void> {
  const theme = readTheme(target);
  // Mermaid sizes every box from text it measures: the deck's font has to be there first.
  const family = firstFamily(theme.fontFamily);
  if (family) {
    await Promise.all(
      ["400", "600"].map((weight) =>
        document.fonts.load(`${weight} ${theme.fontSize}px ${JSON.stringify(family)}`).catch(() => []),
      ),
    );
  }
  const config: MermaidConfig = {
    startOnLoad: false,
    securityLevel: "strict",
    suppressErrorRendering: true,
    secure,
    htmlLabels: false,
    theme: "base",
    look: "classic",
    // Mermaid's classic layout: its default, ELK, is a 1.5 MB chunk more for every flowchart.
    layout: "dagre",
    themeVariables: theme.variables,
    fontFamily: theme.fontFamily,
    fontSize: theme.fontSize,
    deterministicIds: true,
    logLevel: "fatal",
    // Mermaid's labels are sanitised by DOMPurify with this config (it replaces mermaid's own, whose
    // FORBID_TAGS is kept). DOMPurify would try to create a Trusted Types policy of its own, which the
    // frame's CSP refuses; it is handed the player's "default" policy instead, the one every markup
    // string in the frame goes through anyway.
    dompurifyConfig: {
      FORBID_TAGS: ["style"],
      TRUSTED_TYPES_POLICY: defaultPolicy(),
    } as MermaidConfig["dompurifyConfig"],
    // Mermaid's spacing is made for 16px labels; a slide's are larger, so labels wrap at about three
    // words (not mid-word) and boxes keep their proportions.
    flowchart: {
      htmlLabels: false,
      useMaxWidth: false,
      padding: Math.round(theme.fontSize * 0.6),
      wrappingWidth: Math.round(theme.fontSize * 9),
      minNodeWidth: Math.round(theme.fontSize * 3),
      nodeSpacing: Math.round(theme.fontSize * 1.75),
      rankSpacing: Math.round(theme.fontSize * 2),
    },
    state: {
      useMaxWidth: false,
      padding: Math.round(theme.fontSize * 0.4),
      wrappingWidth: Math.round(theme.fontSize * 9),
      minNodeWidth: Math.round(theme.fontSize * 3),
    },
    sequence: { useMaxWidth: false },
    // Gantt charts keep their own small type: brought to the slide's, with short dates on the axis.
    gantt: {
      useMaxWidth: false,
      fontSize: Math.round(theme.fontSize * 0.75),
      sectionFontSize: Math.round(theme.fontSize * 0.75),
      barHeight: Math.round(theme.fontSize * 1.4),
      barGap: Math.round(theme.fontSize * 0.3),
      topPadding: Math.round(theme.fontSize * 2.2),
      leftPadding: Math.round(theme.fontSize * 5),
      gridLineStartPadding: Math.round(theme.fontSize * 1.5),
      axisFormat: "%b %e",
    },
  };
  mermaid.initialize(config);
  const id = `dh-diagram-${++sequence}`;
  const { svg } = await mermaid.render(id, source);
  if (signal?.aborted) return;
  // innerHTML: through the frame's Trusted Types "default" policy (see the top of this file).
  target.innerHTML = svg;
  const drawing = target.querySelector("svg");
  if (!drawing) throw new Error("Mermaid drew nothing for this source.");
  const box = drawing.viewBox.baseVal;
  const width = box && box.width > 0 ? box.width : drawing.getBBox().width;
  const height = box && box.height > 0 ? box.height : drawing.getBBox().height;
  drawing.removeAttribute("width");
  drawing.removeAttribute("height");
  drawing.removeAttribute("style");
  drawing.setAttribute("preserveAspectRatio", "xMidYMid meet");
  drawing.setAttribute("role", "img");
  drawing.setAttribute("aria-label", (alt?.trim() || title?.trim() || firstLine(source) || "Diagram").slice(0, 500));
  drawing.classList.add("dh-diagram-svg");
  drawing.style.setProperty("--dh-diagram-max-width", `${Math.ceil(width * MAX_SCALE)}px`);
  drawing.style.setProperty("--dh-diagram-max-height", `${Math.ceil(height * MAX_SCALE)}px`);
}
