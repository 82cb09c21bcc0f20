import { type FindingKind, type SlideMeasurements, TEXT_MINIMUMS } from "@/lib/contract/check";
import { FIT_FLOORS } from "@/lib/contract/deck";

// The deck check's findings: what the page script measured on each drawn slide, judged against the
// authoring brief's layout and density rules. Kinds are stable (clients and models switch on them);
// messages say what is wrong, where, and what to do.

type Severity = "error" | "warning";

export type Finding = {
  kind: FindingKind;
  severity: Severity;
  /** 1-based; null for what concerns the whole deck (it did not render at all). */
  slide: number | null;
  label: string | null;
  message: string;
  /** The component concerned, as the deck names it ("Bullets", "Stat"…). */
  component?: string;
  /** The start of its text. */
  text?: string;
  /** The measure behind the finding: px (overflow, overlap), contrast ratio, words or bullets. */
  measured?: number;
};

/** The brief's density rules (lib/source/instructions.ts), with the slack "about" allows. */
const densityLimits = { bodyWords: 45, bullets: 5, bulletWords: 12 } as const;
/** Below this a text is reported; below 3:1 (or 4.5:1 for text under WCAG's large size) it is an error. */
const CONTRAST_MIN = 4.5;
const CONTRAST_LARGE_MIN = 3;
/** A content slide may leave this share of its safe area empty in one band before it is reported. */
const EMPTY_BAND_MAX = 1 / 3;
/** Findings of one kind on one slide, at most (a slide of 40 overlapping lines needs no 40 messages). */
const PER_SLIDE_KIND = 5;

export type CheckInput = {
  slides: SlideMeasurements[];
  /** Fonts the deck asks for that the renderer does not have (the player's report). */
  missingFonts: string[];
};

export function findingsFor({ slides, missingFonts }: CheckInput): Finding[] {
  const findings: Finding[] = [];
  const labels = new Map<string, number[]>();
  for (const slide of slides) {
    labels.set(slide.label, [...(labels.get(slide.label) ?? []), slide.slide]);
  }
  for (const slide of slides) {
    const unlabelled = slide.label === `Slide ${slide.slide}`;
    const where = unlabelled ? `Slide ${slide.slide}` : `Slide ${slide.slide} “${slide.label}”`;
    const add = (finding: Omit<Finding, "slide" | "label">) =>
      findings.push({ slide: slide.slide, label: slide.label, ...finding });
    const quote = (text: string) => (text ? ` (“${text}”)` : "");

    if (slide.failed) {
      add({
        kind: "slide-failed",
        severity: "error",
        message: `${where} could not be drawn: its code threw an error, and the slide shows an error panel. Fix the slide's code (the preview shows the message).`,
      });
      continue;
    }

    for (const item of slide.overflow.slice(0, PER_SLIDE_KIND)) {
      add({
        kind: "overflow",
        severity: "error",
        component: item.component,
        text: item.text,
        measured: item.px,
        message: `${where}: the ${item.component}${quote(item.text)} does not fit even with its type shrunk to ${Math.round(FIT_FLOORS.slide * 100)}%; it runs ${item.px} px past the slide's safe area${item.cut ? " and is cut off" : ""}. Shorten it, move part of it to another slide or to the notes, or split the slide.`,
      });
    }

    for (const overlap of slide.overlaps.slice(0, PER_SLIDE_KIND)) {
      add({
        kind: "overlap",
        severity: "error",
        component: overlap.a.component,
        text: overlap.a.text,
        measured: overlap.px,
        message: `${where}: text of the ${overlap.a.component}${quote(overlap.a.text)} is drawn over text of the ${overlap.b.component}${quote(overlap.b.text)} (${overlap.px} px). Give them room: fewer words, a smaller size, or separate columns.`,
      });
    }

    if (slide.overflow.length === 0 && slide.slideAtFloor) {
      add({
        kind: "text-at-floor",
        severity: "warning",
        measured: Math.round(slide.fit * 100),
        message: `${where}: everything on the slide was shrunk to ${Math.round(slide.fit * 100)}% to fit, the smallest the player allows. Cut the text or split the slide so it reads at its designed size.`,
      });
    }
    for (const item of slide.wordsAtFloor.slice(0, PER_SLIDE_KIND)) {
      add({
        kind: "text-at-floor",
        severity: "warning",
        component: item.component,
        text: item.text,
        message: `${where}: the ${item.component}${quote(item.text)} has a word too wide for its box even at its smallest size, so the word is broken across lines. Use a shorter word or value, or give it a wider column.`,
      });
    }

    for (const item of slide.contrast
      .filter((entry) => entry.ratio !== null && entry.ratio < CONTRAST_MIN)
      .slice(0, PER_SLIDE_KIND)) {
      const ratio = item.ratio!;
      const error = ratio < CONTRAST_LARGE_MIN || !item.large;
      add({
        kind: "low-contrast",
        severity: error ? "error" : "warning",
        component: item.component,
        text: item.text,
        measured: ratio,
        message: `${where}: the ${item.component}${quote(item.text)} has a contrast of ${ratio.toFixed(2)}:1 against its background (at least 4.5:1 reads well${item.large ? ", 3:1 is the minimum for large text" : ""}). Use a text tone or background with more contrast, or a scrim over the image.`,
      });
    }

    const hasBody = slide.bodyWords > 0 || slide.media > 0;
    if (slide.words === 0 && slide.media === 0) {
      add({
        kind: "empty-slide",
        severity: "error",
        message: `${where} is empty: it shows no text and no visual. Give it content or remove it.`,
      });
    } else if (slide.layout === "content" && !hasBody && !slide.title) {
      add({
        kind: "near-empty-slide",
        severity: "warning",
        measured: slide.words,
        message: `${where} has a heading and nothing under it. Add the point's evidence (text, bullets, a stat or a chart), or make it a statement with layout="center".`,
      });
    }

    if (slide.bodyWords > densityLimits.bodyWords) {
      add({
        kind: "too-many-words",
        severity: "warning",
        measured: slide.bodyWords,
        message: `${where} has ${slide.bodyWords} words of body text; the brief allows about 40. Keep the takeaway on the slide and move the rest to its notes.`,
      });
    }
    for (const list of slide.lists) {
      if (list.items > densityLimits.bullets) {
        add({
          kind: "too-many-bullets",
          severity: "warning",
          component: list.component,
          text: list.text,
          measured: list.items,
          message: `${where} has a list of ${list.items} bullets; the brief allows 5. Keep the strongest five, group them, or split the slide.`,
        });
      }
      if (list.longestItemWords > densityLimits.bulletWords) {
        add({
          kind: "long-bullet",
          severity: "warning",
          component: list.component,
          text: list.text,
          measured: list.longestItemWords,
          message: `${where} has a bullet of ${list.longestItemWords} words; the brief allows about 10 per bullet. Say it shorter and put the detail in the notes.`,
        });
      }
    }

    if (unlabelled) {
      add({
        kind: "missing-label",
        severity: "warning",
        message: `${where} has no label, so the outline, the slide list and edits by label cannot name it. Give the <Slide> a short label.`,
      });
    }
    const same = labels.get(slide.label) ?? [];
    if (same.length > 1 && same[0] === slide.slide) {
      add({
        kind: "duplicate-label",
        severity: "warning",
        message: `Slides ${same.join(", ")} share the label “${slide.label}”, so an edit by label cannot tell them apart. Give each slide its own label.`,
      });
    }

    for (const image of slide.images) {
      if (image.failed) {
        add({
          kind: "image-failed",
          severity: "error",
          component: "Image",
          text: image.alt,
          message: `${where}: an image${image.src ? ` (${image.src})` : ""} cannot be shown, so the slide shows its alt text instead. Decks show uploaded images (POST /api/v1/assets, or the editor's image button), https image URLs written as a static src (imported when the version is saved) and data: URLs; any other address is blocked in the viewer and in exports.`,
        });
      } else if (!image.alt) {
        add({
          kind: "image-missing-alt",
          severity: "warning",
          component: "Image",
          message: `${where}: an image has no alt text, so screen readers and the PowerPoint export cannot describe it. Give the <Image> an alt that says what it shows.`,
        });
      }
    }

    for (const problem of slide.diagramErrors) {
      add({
        kind: "diagram-failed",
        severity: "error",
        component: "Diagram",
        text: problem,
        message: `${where}: a Diagram cannot be drawn${problem ? ` (${problem})` : ""}, so the slide shows the error instead. Fix the Mermaid source.`,
      });
    }

    for (const item of slide.missingGlyphs.slice(0, PER_SLIDE_KIND)) {
      add({
        kind: "missing-glyph",
        severity: "error",
        component: item.component,
        text: item.text,
        message: `${where}: the ${item.component}${quote(item.text)} has characters no font of the viewer and exports has (${item.characters}), drawn as empty boxes. Write them as words, or use characters the deck's fonts have.`,
      });
    }

    for (const item of slide.zeroSizeImages.slice(0, PER_SLIDE_KIND)) {
      add({
        kind: "image-zero-size",
        severity: "error",
        component: item.component,
        text: item.text,
        message: `${where}: an image${quote(item.text)} is drawn 0 px high or wide, so it does not show here nor in the PDF or PowerPoint. Give it room of its own: put it directly in the slide's body or in a Columns cell, not inside a centred Title or a Text.`,
      });
    }

    for (const item of slide.sourceText.slice(0, PER_SLIDE_KIND)) {
      const instead = {
        Markdown: "write emphasis as <strong>/<em> and links as text, not ** or [](…)",
        LaTeX: "typeset the formula, or write it in words",
        Mermaid: "draw it with <Diagram>",
        HTML: "use the vocabulary's components instead of HTML tags or entities",
      }[item.syntax];
      add({
        kind: "source-as-text",
        severity: "warning",
        component: item.component,
        text: item.text,
        message: `${where}: the ${item.component}${quote(item.text)} shows ${item.syntax} source as text; ${instead}.`,
      });
    }

    const tiny = slide.smallText.filter((item) => item.px < TEXT_MINIMUMS.any);
    for (const item of [...tiny, ...slide.smallText.filter((entry) => !tiny.includes(entry))].slice(
      0,
      PER_SLIDE_KIND,
    )) {
      const body = item.min === TEXT_MINIMUMS.body;
      add({
        kind: "small-text",
        severity: item.px < TEXT_MINIMUMS.any ? "error" : "warning",
        component: item.component,
        text: item.text,
        measured: item.px,
        message: `${where}: the ${item.component}${quote(item.text)} is drawn at ${item.px / 2} pt (${item.px}px on the 1920px canvas); ${body ? "body text needs 18 pt" : "a label needs 14 pt"} to be read from the back of a room. Cut the slide's text or split it so the type keeps its size${body ? "" : ", or use a larger size"}.`,
      });
    }

    if (slide.emptyBand > EMPTY_BAND_MAX && hasBody) {
      add({
        kind: "empty-space",
        severity: "warning",
        measured: Math.round(slide.emptyBand * 100),
        message: `${where} leaves ${Math.round(slide.emptyBand * 100)}% of its height empty in one band. Give the body more to show (a stat, a chart, a picture), or make the slide a statement with layout="center".`,
      });
    }

    const substituted = slide.fonts.filter((font) =>
      missingFonts.some((missing) => missing.toLowerCase() === font.toLowerCase()),
    );
    if (substituted.length > 0) {
      add({
        kind: "font-substituted",
        severity: "warning",
        message: `${where} uses ${substituted.map((font) => `“${font}”`).join(", ")}, which the viewer and exports do not have; another font is drawn instead. Use one of the shipped fonts (see the brief) in the theme tokens.`,
      });
    }
  }
  // In slide order; on each slide, errors first (a stable sort keeps the order within a severity).
  return findings.sort((a, b) => (a.slide ?? 0) - (b.slide ?? 0) || rank(a) - rank(b));
}

const rank = (finding: Finding) => (finding.severity === "error" ? 0 : 1);

/** A deck the renderer could not draw at all: one finding for the whole deck. */
export function renderFailed(message: string): Finding {
  return {
    kind: "render-failed",
    severity: "error",
    slide: null,
    label: null,
    message: `The deck could not be drawn, so nothing else was checked: ${message}`,
  };
}
