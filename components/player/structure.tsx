import {
  Children,
  Fragment,
  isValidElement,
  type ReactElement,
  type ReactNode,
  useContext,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import type { SlideMeta } from "@/lib/contract/player";
import { ScaledCanvas, Stage } from "./shell/stage";
import { Overview } from "./shell/overview";
import { SectionBoundary } from "./shell/error-boundary";
import { SectionIndexContext, usePlayer } from "./shell/player-context";
import { fitSlideOnce } from "./shell/fit";
import { holdReady } from "./shell/pending";
import { oneOf } from "./vocabulary/tone";
import { SideImage, type SlideOptionProps, slideOptionAttributes } from "./vocabulary/slide/slide-options";
import { sameElement } from "./shell/same-element";
import {
  beatHeights,
  imageFits,
  sectionBackgrounds,
  sectionLayouts,
  type BeatHeight,
  type SectionBackground,
  type SectionLayout,
} from "@/lib/contract/prop-values";

// Fragments and arrays are transparent: `<>{a}{b}</>` and `items.map(…)` give one section per element.
function flattenSections(children: ReactNode): ReactElement[] {
  const sections: ReactElement[] = [];
  Children.forEach(children, (child) => {
    if (!isValidElement(child)) return;
    if (child.type === Fragment) sections.push(...flattenSections((child.props as { children?: ReactNode }).children));
    else sections.push(child);
  });
  return sections;
}

// A slide's label is known without rendering it when it is a <Slide label="…"> element; the error panel
// needs it exactly when rendering failed.
function literalLabel(section: ReactElement): string | undefined {
  if (section.type !== Slide && section.type !== Beat) return undefined;
  const label = (section.props as { label?: unknown }).label;
  return typeof label === "string" && label.trim() ? label.trim() : undefined;
}

export type DeckProps = { title?: string; children?: ReactNode };

// The root of every deck. Each child is one slide (or beat); how they are shown depends on the player's
// mode: one at a time on the stage, all as pages for export, one scaled for a thumbnail (a webpage: all of
// its beats, or the one beat of a thumbnail).
export function Deck({ title, children }: DeckProps) {
  const player = usePlayer();
  const sections = flattenSections(children);
  const keys = useSectionKeys(sections, player.revision);
  const { setCount } = player;

  // Once per revision too: a new revision starts from no deck seen (shell/player.tsx).
  useLayoutEffect(() => setCount(sections.length), [setCount, sections.length, player.revision]);
  useLayoutEffect(() => {
    if (title) document.title = title;
  }, [title]);

  const renderSection = (section: ReactElement, index: number) => (
    <SectionIndexContext.Provider key={keys[index]} value={index}>
      <SectionBoundary index={index} label={literalLabel(section)}>
        {section}
      </SectionBoundary>
    </SectionIndexContext.Provider>
  );

  if (player.config.format === "webpage") {
    // A thumbnail of a webpage is its one beat, at the top of a desktop-wide window.
    if (player.config.mode === "thumb") {
      const index = Math.min(player.slide, sections.length - 1);
      const section = sections[index];
      return <main className="dh-webpage">{section ? renderSection(section, index) : null}</main>;
    }
    return <main className="dh-webpage">{sections.map(renderSection)}</main>;
  }
  if (player.config.mode === "export") {
    return (
      <div className="dh-export">
        {sections.map((section, index) => (
          <div className="dh-export-page" key={keys[index]}>
            {renderSection(section, index)}
          </div>
        ))}
      </div>
    );
  }
  if (player.config.mode === "thumb") {
    const index = Math.min(player.slide, sections.length - 1);
    const section = sections[index];
    return <ScaledCanvas fit>{section ? renderSection(section, index) : null}</ScaledCanvas>;
  }
  return <StageSlides sections={sections} keys={keys} renderSection={renderSection} />;
}

/** Slides drawn around the one shown: those before it and after it, ready before they are shown. */
const DRAWN_BEHIND = 1;
const DRAWN_AHEAD = 2;

// The stage (present mode: the share page, the presenter's current slide, the editor's preview): a slide
// is drawn the first time it comes near the one shown (DRAWN_BEHIND, DRAWN_AHEAD) and kept from then on
// (hidden, fitted, its state kept), so the first slide of a 400-slide deck paints as soon as that of a
// 20-slide deck, and stepping forward finds the next slide drawn. Slides not drawn yet report their label
// and notes from their <Slide> element when it says them literally (the overview, the presenter's notes).
function StageSlides({
  sections,
  keys,
  renderSection,
}: {
  sections: ReactElement[];
  keys: string[];
  renderSection: (section: ReactElement, index: number) => ReactNode;
}) {
  const player = usePlayer();
  const { registerMeta } = player;
  const [drawn, setDrawn] = useState<ReadonlySet<number>>(() => new Set());
  let next = drawn;
  for (let index = player.slide - DRAWN_BEHIND; index <= player.slide + DRAWN_AHEAD; index++) {
    if (index < 0 || index >= sections.length || next.has(index)) continue;
    if (next === drawn) next = new Set(drawn);
    (next as Set<number>).add(index);
  }
  if (next !== drawn) setDrawn(next);

  const known = player.slides;
  useLayoutEffect(() => {
    sections.forEach((section, index) => {
      if (!next.has(index) && !known[index]) registerMeta(index, literalMeta(section, index));
    });
  });

  return (
    <>
      <Stage>
        {sections.map((section, index) =>
          next.has(index) ? (
            <div
              key={keys[index]}
              className="dh-stage-slide"
              hidden={index !== player.slide}
              aria-hidden={index !== player.slide}
            >
              {renderSection(section, index)}
            </div>
          ) : null,
        )}
      </Stage>
      {player.overview ? <Overview sections={sections.map(renderSection)} /> : null}
    </>
  );
}

/**
 * The sections' keys. A newer module drawn in place (the editor's preview: a new `revision`) keeps the key of
 * each section whose element is the same as the last module's at its place (same components, same props:
 * sameElement), so React leaves its DOM, and with it its fit, as it is (fit.ts measures a slide again only
 * when its text changed); a section that changed gets a new key and is drawn from scratch, as in a new
 * frame. Without this every update drew and fitted every slide again: on a 20-slide deck, twenty times the
 * work of the one slide an edit changes.
 */
function useSectionKeys(sections: ReactElement[], revision: number): string[] {
  const [kept, setKept] = useState<KeptSections>(() => ({ revision, sections, keys: sections.map(ownKey), drawn: 0 }));
  if (kept.revision === revision) return sections.map((section, index) => kept.keys[index] ?? ownKey(section, index));
  let drawn = kept.drawn;
  const keys = sections.map((section, index) => {
    const before = kept.sections[index];
    if (before === undefined) return ownKey(section, index);
    if (before === section || sameElement(before, section)) return kept.keys[index]!;
    return `${ownKey(section, index)}~${++drawn}`;
  });
  setKept({ revision, sections, keys, drawn });
  return keys;
}

/** A revision's sections and their keys, and how many sections were drawn anew since the first. */
type KeptSections = { revision: number; sections: ReactElement[]; keys: string[]; drawn: number };

const ownKey = (section: ReactElement, index: number) => String(section.key ?? index);

// What a slide not drawn yet says of itself: its literal label and notes, as useSectionMeta would.
function literalMeta(section: ReactElement, index: number): SlideMeta {
  const notes = (section.props as { notes?: unknown }).notes;
  return {
    label: literalLabel(section) ?? `${section.type === Beat ? "Beat" : "Slide"} ${index + 1}`,
    notes: section.type === Slide && typeof notes === "string" ? notes : "",
  };
}

export type SlideProps = {
  label?: string;
  notes?: string;
  layout?: SectionLayout;
  background?: SectionBackground;
  image?: string;
  children?: ReactNode;
} & SlideOptionProps;

function useSectionMeta(kind: "Slide" | "Beat", label: unknown, notes: unknown) {
  const index = useContext(SectionIndexContext);
  const { registerMeta, revision } = usePlayer();
  const text = typeof label === "string" && label.trim() ? label.trim() : `${kind} ${index + 1}`;
  const notesText = typeof notes === "string" ? notes : "";
  // Again for each revision: a new one starts with no slides reported (a kept slide is not mounted again).
  useLayoutEffect(() => {
    if (index >= 0) registerMeta(index, { label: text, notes: notesText });
  }, [registerMeta, index, text, notesText, revision]);
  return { index, label: text };
}

// One 1920x1080 slide. Its type is fitted to the canvas after every commit that changed it, before the
// browser paints (shell/fit.ts).
export function Slide({ label, notes, layout, background, image, children, ...options }: SlideProps) {
  const { index, label: name } = useSectionMeta("Slide", label, notes);
  const attributes = slideOptionAttributes(options, image);
  const ref = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    if (!ref.current) return undefined;
    followTextDirection(ref.current);
    return fitSlideOnce(ref.current);
  });
  return (
    <section
      ref={ref}
      className="dh-slide"
      data-layout={oneOf(layout, sectionLayouts, "content")}
      data-background={oneOf(background, sectionBackgrounds, "default")}
      data-slide={index + 1}
      aria-label={name}
      {...attributes}
    >
      {attributes["data-image-side"] && typeof image === "string" ? (
        <SideImage src={image} props={options} />
      ) : typeof image === "string" && image ? (
        <SectionImage src={image} fit={options.imageFit} />
      ) : null}
      {children}
    </section>
  );
}

export type BeatProps = Omit<SlideProps, "notes" | keyof SlideOptionProps> & { height?: BeatHeight };

// One section of a scrolling webpage.
export function Beat({ label, layout, background, image, height, children }: BeatProps) {
  const { index, label: name } = useSectionMeta("Beat", label, undefined);
  const ref = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    if (ref.current) followTextDirection(ref.current);
  });
  return (
    <section
      ref={ref}
      className="dh-beat"
      id={`beat-${index + 1}`}
      data-layout={oneOf(layout, sectionLayouts, "content")}
      data-background={oneOf(background, sectionBackgrounds, "default")}
      data-height={oneOf(height, beatHeights, "auto")}
      data-beat={index + 1}
      aria-label={name}
    >
      {typeof image === "string" && image ? <SectionImage src={image} /> : null}
      {children}
    </section>
  );
}

// A section runs in the direction of its text. The vocabulary's text elements carry dir="auto", so the
// browser gives each its own direction from its first strong character (Arabic and Hebrew: right to
// left); the section takes the direction of its first text with letters, so in an Arabic or Hebrew
// slide columns, stacks and boxes start on the right. A section in a left-to-right script gets no dir
// attribute at all and lays out exactly as it always has. (dir="auto" on the section itself would not
// do: the browser skips descendants that have a dir attribute of their own when it resolves "auto".)
function followTextDirection(section: HTMLElement) {
  let rtl = false;
  for (const element of section.querySelectorAll('[dir="auto"]')) {
    if (!/\p{L}/u.test(element.textContent ?? "")) continue;
    rtl = getComputedStyle(element).direction === "rtl";
    break;
  }
  if (rtl) section.setAttribute("dir", "rtl");
  else section.removeAttribute("dir");
}

// A background picture: an <img> covering the section (object-fit: cover, centred), so the PPTX export
// places the stored image itself, as it does an <Image> (extract-slides.ts names it after the section). It is
// decoration here (empty alt, hidden from assistive technology: the section's text says what it is about).
// The ready report waits until it is loaded and decoded, so an export or og.png never catches the slide
// without it.
function SectionImage({ src, fit }: { src: string; fit?: unknown }) {
  const ref = useRef<HTMLImageElement>(null);
  useLayoutEffect(() => {
    if (ref.current) holdReady(ref.current.decode());
  }, [src]);
  return (
    <img
      ref={ref}
      className="dh-slide-image"
      src={src}
      alt=""
      aria-hidden
      draggable={false}
      data-fit={oneOf(fit, imageFits, "cover")}
    />
  );
}
