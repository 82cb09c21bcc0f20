// Fits remembered: a slide drawn again exactly as before (the deck check's kept page drawing the deck's next
// version, the editor's preview drawing a new revision) gets the sizes it was fitted to without being
// measured again, so only the slides that changed cost layouts. What fitting wrote (the slide's factors, each
// word-fitted text's factor, the overflow marks) is remembered under the slide's markup as drawn before
// fitting, its laid-out size, the theme's type tokens and the fonts loaded so far. A slide with a picture
// still loading is measured (its size is not known yet), and so is one never seen.

const SLIDE_PROPERTIES = ["--dh-slide-fit", "--dh-grow", "--dh-spread"] as const;
const TOKENS = ["--type-base", "--type-scale", "--space", "--font-body", "--font-heading", "--font-mono"];
/** Slides remembered at most (the oldest are forgotten first). */
const LIMIT = 400;

type Fit = { slide: (string | null)[]; words: (string | null)[]; marked: number[]; slideMarked: boolean };
const memo = new Map<string, Fit>();

/** The key a slide's fit is remembered under, with nothing fitted on it yet; null when it cannot be. */
export function fitKey(slide: HTMLElement, fontLoads: number): string | null {
  for (const image of slide.getElementsByTagName("img")) if (!image.complete) return null;
  const root = getComputedStyle(document.documentElement);
  const tokens = TOKENS.map((token) => root.getPropertyValue(token)).join("|");
  return `${fontLoads}|${slide.offsetWidth}x${slide.offsetHeight}|${tokens}|${slide.outerHTML}`;
}

export function rememberFit(key: string, slide: HTMLElement, words: HTMLElement[]): void {
  const all = [...slide.querySelectorAll("*")];
  memo.delete(key);
  memo.set(key, {
    slide: SLIDE_PROPERTIES.map((name) => slide.style.getPropertyValue(name) || null),
    words: words.map((element) => element.style.getPropertyValue("--dh-fit") || null),
    marked: all.flatMap((element, index) => (element.hasAttribute("data-dh-overflow") ? [index] : [])),
    slideMarked: slide.hasAttribute("data-dh-overflow"),
  });
  if (memo.size > LIMIT) memo.delete(memo.keys().next().value!);
}

/** Writes a remembered fit onto the slide (as fitting left it); false when there is none. */
export function recallFit(key: string, slide: HTMLElement, words: HTMLElement[]): boolean {
  const fit = memo.get(key);
  if (!fit || fit.words.length !== words.length) return false;
  SLIDE_PROPERTIES.forEach((name, index) => {
    const value = fit.slide[index];
    if (value) slide.style.setProperty(name, value);
  });
  words.forEach((element, index) => {
    const value = fit.words[index];
    if (value) element.style.setProperty("--dh-fit", value);
  });
  if (fit.slideMarked) slide.setAttribute("data-dh-overflow", "");
  if (fit.marked.length > 0) {
    const all = slide.querySelectorAll("*");
    for (const index of fit.marked) all[index]?.setAttribute("data-dh-overflow", "");
  }
  return true;
}
