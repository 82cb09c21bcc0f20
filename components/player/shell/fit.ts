// Text that fits and fills: before a slide is painted its type is shrunk, in fixed steps, until everything
// sits inside the slide's padding, down to a floor; what still does not fit is marked, never silently cut.
// A content slide whose body is short (three bullets under a heading) has its body drawn larger instead,
// up to GROW_MAX, until it fills about FILL_TARGET of the height under the heading: a slide is for a room.
//
// Three factors, all plain custom properties so the fitted sizes are in computed styles (PDF prints
// them, the PPTX extractor reads them):
//   --dh-slide-fit on .dh-slide scales --dh-base, so every size on the slide shrinks together and the
//                  type ladder keeps its proportions (floor SLIDE_FLOOR);
//   --dh-grow      on a content .dh-slide scales the ladder of the body only (vocabulary.css), so the
//                  heading keeps the deck's size on every slide (at most GROW_MAX); at that size a list
//                  still short of the target spaces its points out with --dh-spread (1-SPREAD_MAX);
//   --dh-fit       on a Title, Heading or Stat value whose longest word is wider than its box (floor
//                  WORD_FLOORS, counted against the unfitted size); Stat values that sit side by side
//                  share the smallest factor so a row of numbers stays one size.
// What is still too wide at the floor breaks (overflow-wrap in vocabulary.css); what is still too tall
// gets data-dh-overflow on the slide and on the components that cross its bottom or right edge.
// Measuring uses layout boxes (offsetTop/offsetHeight), not screen rectangles, so it is the same in a
// scaled stage, a thumbnail and an export page.

import { FIT_FLOORS, FIT_GROW_MAX } from "@/lib/contract/deck";
import { fitKey, recallFit, rememberFit } from "./fit-memo";

export const SLIDE_FLOOR = FIT_FLOORS.slide;
export const WORD_FLOORS: Readonly<Record<string, number>> = {
  "dh-title-text": FIT_FLOORS.word,
  "dh-heading-text": FIT_FLOORS.word,
  "dh-stat-value": FIT_FLOORS.stat,
};
const STEPS = 100; // factors are multiples of 1/100, so the same slide always gets the same sizes
export const GROW_MAX = FIT_GROW_MAX; // body 48px → 67px (34 pt) under a 100px heading: the hierarchy still reads
const GROW_STEPS = Math.round(GROW_MAX * STEPS);
const FILL_TARGET = 0.8;
const SPREAD_MAX = 2; // of the height under the heading; the rest is the breathing room around the body
// Not in the flow of the slide's column: the background image, a pinned Logo, the export's scrim copy, and
// Frames, each at a place of its own (what does not fit in a Frame is its own overflow, see overflowing).
const OUT_OF_FLOW = ".dh-slide-image, .dh-logo-pinned, [data-dh-pseudo], .dh-frame";
const WORD_SELECTOR = Object.keys(WORD_FLOORS)
  .map((name) => `.${name}`)
  .join(", ");
const MARKED =
  ".dh-title, .dh-heading, .dh-text, .dh-bullets, .dh-quote, .dh-code, .dh-image, .dh-icon, .dh-stat, .dh-table, .dh-chart, .dh-timeline, .dh-steps, .dh-diagram, .dh-logo, .dh-columns, .dh-stack, .dh-grid, .dh-box, .dh-frame";
const CONTAINERS = ".dh-columns, .dh-grid, .dh-stack, .dh-box, .dh-chart, .dh-image, .dh-diagram";

const mounted = new Set<HTMLElement>();
const fitted = new WeakMap<HTMLElement, string>();
// Counts the font loads seen (fontsChanged): a slide fitted since the last one has nothing new to measure.
let fontLoads = 0;

/** Fits a slide when it is new or its content changed (a render that changed nothing costs one string). */
export function fitSlideOnce(slide: HTMLElement): () => void {
  mounted.add(slide);
  // An export page is not shown before the deck is ready, and the deck is ready only once every slide is
  // fitted with its fonts loaded (refitAll): fitted now, while fonts load, it would be fitted twice.
  if (document.fonts.status === "loading" && slide.closest('.dh-player[data-mode="export"]')) {
    return () => mounted.delete(slide);
  }
  if (fitted.get(slide) !== signature(slide)) fitAndRemember(slide);
  return () => mounted.delete(slide);
}

/** Fonts arrived: every slide fitted before now is measured again at the next refitAll. */
export function fontsChanged(): void {
  fontLoads += 1;
}

/**
 * Fits every mounted slide again whose content changed or that was fitted before the last font load; the
 * others are as they would be fitted now. (Fitting every slide on each of the loads, then once more when the
 * deck is ready, had made drawing a big deck cost several times its slides.)
 */
export function refitAll(): void {
  for (const slide of mounted) {
    if (!slide.isConnected) {
      mounted.delete(slide);
      continue;
    }
    if (fitted.get(slide) !== signature(slide)) fitAndRemember(slide);
  }
}

export function refitContaining(node: Node): void {
  const slide = node instanceof Element ? node.closest<HTMLElement>(".dh-slide") : null;
  if (slide && mounted.has(slide)) fitAndRemember(slide);
}

// A slide that is not laid out is not remembered: it is fitted when it is next asked for.
function fitAndRemember(slide: HTMLElement): void {
  if (fitSlide(slide)) fitted.set(slide, signature(slide));
  else fitted.delete(slide);
}

function signature(slide: HTMLElement): string {
  return `${fontLoads}|${slide.getElementsByTagName("*").length}|${slide.textContent ?? ""}`;
}

function fitSlide(slide: HTMLElement): boolean {
  // Not laid out (display: none somewhere above): nothing to measure; fitted when it is shown.
  if (slide.offsetWidth === 0 || slide.offsetHeight === 0) return false;
  clearMarks(slide);
  slide.style.removeProperty("--dh-grow");
  slide.style.removeProperty("--dh-spread");
  slide.style.removeProperty("--dh-slide-fit");
  const words = [...slide.querySelectorAll<HTMLElement>(WORD_SELECTOR)];
  for (const element of words) element.style.removeProperty("--dh-fit");
  // A slide drawn exactly as one fitted before gets that fit (fit-memo.ts); any other is measured.
  const key = fitKey(slide, fontLoads);
  if (key !== null && recallFit(key, slide, words)) return true;
  measureFit(slide);
  if (key !== null) rememberFit(key, slide, words);
  return true;
}

function measureFit(slide: HTMLElement): void {
  apply(slide, STEPS);
  if (overflowing(slide).length === 0) return grow(slide);
  const floor = Math.round(SLIDE_FLOOR * STEPS);
  apply(slide, floor);
  const atFloor = overflowing(slide);
  if (atFloor.length > 0) {
    slide.setAttribute("data-dh-overflow", "");
    for (const element of atFloor) element.setAttribute("data-dh-overflow", "");
    return;
  }
  // Binary search on the step grid: `low` fits, `high` does not.
  let low = floor;
  let high = STEPS;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    apply(slide, middle);
    if (overflowing(slide).length === 0) low = middle;
    else high = middle;
  }
  apply(slide, low);
}

// The largest body factor, on the step grid up to GROW_MAX, at which the body still fits and fills at most
// FILL_TARGET of the height under the heading. Only content slides grow (covers and statements are
// composed around their Title); a body that already takes the height (a chart, an image) does not.
function grow(slide: HTMLElement): void {
  if (slide.dataset.layout !== "content") return;
  const words = bodyWords(slide);
  let fill = 1;
  const fits = (step: number) => {
    setGrow(slide, step, words);
    fill = bodyFill(slide);
    return fill <= FILL_TARGET && overflowing(slide).length === 0;
  };
  if (!fits(STEPS + 1)) {
    setGrow(slide, STEPS, words);
    return;
  }
  // The body's height grows with its type: the step that fills the target is about where the first try
  // says, so the search starts there (a handful of layouts instead of a dozen per slide).
  const guess = Math.floor(((STEPS + 1) * FILL_TARGET) / Math.max(fill, 1e-3));
  const low = largestFitting(STEPS + 1, GROW_STEPS + 1, guess, fits);
  setGrow(slide, low, words);
  if (low === GROW_STEPS) spread(slide);
}

// A list still short of the target at the largest type gets air between its points instead (its gap, from
// half a line up to SPREAD_MAX times that), so three big bullets are not a strip in the middle of the slide.
function spread(slide: HTMLElement): void {
  if (!slide.querySelector(".dh-bullets")) return;
  const before = bodyFill(slide);
  let fill = 1;
  const fits = (step: number) => {
    setSpread(slide, step);
    fill = bodyFill(slide);
    return fill <= FILL_TARGET && overflowing(slide).length === 0;
  };
  if (!fits(STEPS + 1)) {
    setSpread(slide, STEPS);
    return;
  }
  // The gaps grow linearly with the step: the first step's growth says where the target is.
  const perStep = fill - before;
  const guess = perStep > 0 ? STEPS + 1 + Math.floor((FILL_TARGET - fill) / perStep) : STEPS + 1;
  setSpread(slide, largestFitting(STEPS + 1, Math.round(SPREAD_MAX * STEPS) + 1, guess, fits));
}

/**
 * The largest step in [low, high) that `fits`, given that `low` fits and `high` does not, searched from a
 * guess: outwards in doubling strides until the answer is bracketed, then by halves. For a test that holds
 * up to a step and fails past it (what fitting assumes), the answer is the binary search's; a good guess
 * takes two tries. `fits` leaves the slide at the step it tried last.
 */
function largestFitting(low: number, high: number, guess: number, fits: (step: number) => boolean): number {
  const first = Math.min(Math.max(guess, low + 1), high - 1);
  if (first > low) {
    if (fits(first)) {
      low = first;
      for (let stride = 1; low + stride < high; stride *= 2) {
        if (!fits(low + stride)) {
          high = low + stride;
          break;
        }
        low += stride;
      }
    } else {
      high = first;
      for (let stride = 1; high - stride > low; stride *= 2) {
        if (fits(high - stride)) {
          low = high - stride;
          break;
        }
        high -= stride;
      }
    }
  }
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle;
  }
  return low;
}

function setSpread(slide: HTMLElement, step: number) {
  if (step <= STEPS) slide.style.removeProperty("--dh-spread");
  else slide.style.setProperty("--dh-spread", String(step / STEPS));
}

// The body's type at `step`; its words (the heading's keep their size: growth is the body's only) fitted again.
function setGrow(slide: HTMLElement, step: number, words: HTMLElement[]) {
  if (step <= STEPS) slide.style.removeProperty("--dh-grow");
  else slide.style.setProperty("--dh-grow", String(step / STEPS));
  fitWords(slide, 1, words);
}

// The word-fitted elements of the body: those of a leading Heading or Title are not scaled by --dh-grow.
function bodyWords(slide: HTMLElement): HTMLElement[] {
  const first = [...slide.children].find((child) => !child.matches(OUT_OF_FLOW));
  const lead = first?.matches(".dh-heading, .dh-title") ? first : null;
  return [...slide.querySelectorAll<HTMLElement>(WORD_SELECTOR)].filter((element) => !lead?.contains(element));
}

// How much of the height left under the slide's heading its body takes (0-1): the in-flow children after
// a leading Heading or Title, their heights and the gaps between them.
function bodyFill(slide: HTMLElement): number {
  const style = getComputedStyle(slide);
  const inner = slide.clientHeight - Number.parseFloat(style.paddingTop) - Number.parseFloat(style.paddingBottom);
  const gap = Number.parseFloat(style.rowGap) || 0;
  const children = [...slide.children].filter(
    (child): child is HTMLElement => child instanceof HTMLElement && !child.matches(OUT_OF_FLOW),
  );
  const heading = children[0]?.matches(".dh-heading, .dh-title") ? children.shift() : undefined;
  if (children.length === 0) return 1;
  const available = inner - (heading ? heading.offsetHeight + gap : 0);
  const used = children.reduce((sum, child) => sum + child.offsetHeight, 0) + gap * (children.length - 1);
  return available > 0 ? used / available : 1;
}

function clearMarks(slide: HTMLElement) {
  slide.removeAttribute("data-dh-overflow");
  for (const element of slide.querySelectorAll("[data-dh-overflow]")) element.removeAttribute("data-dh-overflow");
}

function apply(slide: HTMLElement, step: number) {
  if (step >= STEPS) slide.style.removeProperty("--dh-slide-fit");
  else slide.style.setProperty("--dh-slide-fit", String(step / STEPS));
  fitWords(slide, step / STEPS);
}

// Shrinks the type whose longest word is wider than its box. Measured with word breaking off (the
// data-dh-measuring rule in structure.css, set on the measured texts alone), so "$16.8M" is one word as wide as it is drawn.
function fitWords(
  slide: HTMLElement,
  slideFit: number,
  targets = [...slide.querySelectorAll<HTMLElement>(WORD_SELECTOR)],
) {
  for (const element of targets) element.style.removeProperty("--dh-fit");
  if (targets.length === 0) return;
  for (const element of targets) element.setAttribute("data-dh-measuring", "");
  const factors = new Map<HTMLElement, number>();
  const minimum = (element: HTMLElement) => {
    const floor = WORD_FLOORS[[...element.classList].find((name) => name in WORD_FLOORS) ?? ""] ?? 1;
    return Math.min(STEPS, Math.ceil((floor / slideFit) * STEPS - 1e-9));
  };
  for (const element of targets) {
    const ratio = tooWide(element) ? element.clientWidth / element.scrollWidth : 1;
    factors.set(element, Math.max(minimum(element), Math.min(STEPS, Math.floor(ratio * STEPS))));
  }
  // Stat values side by side (one Columns, Grid or Stack) share the smallest size.
  const groups = new Map<Element, HTMLElement[]>();
  for (const element of targets) {
    if (!element.classList.contains("dh-stat-value")) continue;
    const row = element.closest(".dh-stat")?.parentElement;
    if (!row || !row.matches(".dh-columns, .dh-grid, .dh-stack")) continue;
    groups.set(row, [...(groups.get(row) ?? []), element]);
  }
  for (const members of groups.values()) {
    const smallest = Math.min(...members.map((element) => factors.get(element) ?? STEPS));
    for (const element of members) factors.set(element, smallest);
  }
  const set = (element: HTMLElement, step: number) => {
    if (step >= STEPS) element.style.removeProperty("--dh-fit");
    else element.style.setProperty("--dh-fit", String(step / STEPS));
  };
  for (const [element, step] of factors) set(element, step);
  // Width is not exactly proportional to size (rounding, kerning): step down until it fits.
  for (const [element, start] of factors) {
    let step = start;
    const floor = minimum(element);
    while (step > floor && tooWide(element)) {
      step -= 1;
      set(element, step);
    }
    if (step !== start) {
      for (const member of groups.get(element.closest(".dh-stat")?.parentElement ?? element) ?? []) {
        if (member !== element) set(member, Math.min(step, factors.get(member) ?? STEPS));
      }
    }
  }
  for (const element of targets) element.removeAttribute("data-dh-measuring");
}

function tooWide(element: HTMLElement): boolean {
  return element.scrollWidth > element.clientWidth + 1;
}

// The components that cross the slide's content box (bottom or right), or containers whose content
// spills out of them (a shrunk Columns drawing over the caption below it).
function overflowing(slide: HTMLElement): HTMLElement[] {
  const style = getComputedStyle(slide);
  const bottom = slide.clientHeight - Number.parseFloat(style.paddingBottom) + 1;
  const right = slide.clientWidth - Number.parseFloat(style.paddingRight) + 1;
  const found: HTMLElement[] = [];
  // Inside a Frame only what spills out of its container counts: the frame is placed, not the slide's flow.
  const walk = (parent: Element, inFrame = false) => {
    for (const child of parent.children) {
      // Out of the flow on purpose: the background image, a Logo pinned in the slide's padding.
      if (!(child instanceof HTMLElement) || child.matches(OUT_OF_FLOW)) continue;
      const box = layoutBox(child, slide);
      if (!box) continue;
      const outside = !inFrame && (box.bottom > bottom || box.right > right);
      const spills = (child.parentElement === slide || child.matches(CONTAINERS)) && spillsOut(child);
      if ((outside || spills) && child.matches(MARKED)) found.push(child);
      else if (outside || spills) found.push(child.closest<HTMLElement>(MARKED) ?? child);
      walk(child, inFrame);
    }
  };
  walk(slide);
  // A Frame's content is measured against the frame (it is placed anywhere, the slide's padding aside):
  // text taller or wider than its box is the frame's overflow.
  for (const frame of slide.querySelectorAll<HTMLElement>(":scope > .dh-frame")) {
    if (frameSpills(frame)) found.push(frame);
    walk(frame, true);
  }
  return [...new Set(found)].filter((element) => element !== slide);
}

// A box that was allowed to shrink below its content (min-height: 0, like a growing Chart or Columns) and
// did. Boxes at their content height never spill; the slack is the ink of a tight line height (glyphs
// rising above their line box count in scrollHeight but are not cut).
function spillsOut(element: HTMLElement): boolean {
  if (element.scrollHeight <= element.clientHeight + 1) return false;
  const style = getComputedStyle(element);
  if (style.minHeight === "auto") return false;
  return element.scrollHeight > element.clientHeight + Number.parseFloat(style.fontSize) * 0.25;
}

function frameSpills(frame: HTMLElement): boolean {
  const slack = Number.parseFloat(getComputedStyle(frame).fontSize) * 0.25;
  return frame.scrollHeight > frame.clientHeight + slack || frame.scrollWidth > frame.clientWidth + slack;
}

function layoutBox(element: HTMLElement, slide: HTMLElement): { bottom: number; right: number } | null {
  if (element.offsetParent === null) return null;
  let top = 0;
  let left = 0;
  let node: HTMLElement | null = element;
  while (node && node !== slide) {
    top += node.offsetTop;
    left += node.offsetLeft;
    const parent: Element | null = node.offsetParent;
    if (!(parent instanceof HTMLElement)) return null;
    node = parent;
  }
  if (node !== slide) return null;
  return { bottom: top + element.offsetHeight, right: left + element.offsetWidth };
}
