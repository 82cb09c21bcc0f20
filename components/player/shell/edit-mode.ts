// Edit mode: the editor's preview frame only (PlayerConfig.edit, set by the preview frame route for ?edit=1;
// never the share viewer, embeds or exports). Text a deck draws with the vocabulary's text components shows an
// outline under the pointer; a click selects it (`select` to the editor) and makes it editable in place
// (contenteditable="plaintext-only"); Enter or leaving it commits (`edit-text`), Escape puts the text back.
// The editor writes the change into the TSX source and recompiles: nothing here changes the deck's code.
//
// A text is named as the editor's source library finds it: the 0-based slide, the text as rendered, and its
// 0-based occurrence among the slide's editable texts that read the same. A text drawn from a prop's data
// (a chart's labels and values, Timeline and Steps items) is named by where it is written instead: the
// component marks it with `data-dh-edit` (the path into its props, e.g. "data.2.label") and, when it shows
// the value formatted or shortened, `data-dh-raw` (the value as written, which is what is edited). Chart
// texts are SVG, which cannot be contenteditable: they are edited in an HTML box laid over them.

import {
  EDIT_PATH_MAX,
  EDIT_TEXT_MAX,
  type EditableComponent,
  type EditItem,
  type EditSelectMessage,
  type EditTextMessage,
} from "@/lib/contract/player";

/** Leaf text elements the vocabulary draws, innermost first, with the component each belongs to. */
const EDITABLE: readonly [selector: string, component: EditableComponent][] = [
  [".dh-title .dh-title-text, .dh-title > .dh-kicker, .dh-title > .dh-subtitle", "Title"],
  [".dh-heading .dh-heading-text, .dh-heading > .dh-kicker", "Heading"],
  [".dh-text", "Text"],
  [".dh-bullet-body", "Bullets"],
  [".dh-stat-value, .dh-stat-label, .dh-stat-detail", "Stat"],
  [".dh-quote-text, .dh-quote-name, .dh-quote-role", "Quote"],
  [".dh-table-cell", "Table"],
  [".dh-chart-title, .dh-chart-legend-name, .dh-chart [data-dh-edit]", "Chart"],
  [".dh-timeline [data-dh-edit]", "Timeline"],
  [".dh-steps [data-dh-edit]", "Steps"],
];
const ANY_EDITABLE = EDITABLE.map(([selector]) => selector).join(", ");
/** The texts found by their words (not by a path): the ones occurrences are counted among. */
const BY_TEXT = EDITABLE.map(([selector]) => selector)
  .join(", ")
  .split(/,\s*/)
  .filter((selector) => !selector.includes("[data-dh-edit]"))
  .join(", ");
/** The element of each component that holds its items, to tell which of them on a slide an item is in. */
const ROOTS: Partial<Record<EditableComponent, string>> = {
  Chart: ".dh-chart",
  Timeline: ".dh-timeline",
  Steps: ".dh-steps",
};

type Post = (message: EditSelectMessage | EditTextMessage) => void;

export type EditTarget = { element: HTMLElement | SVGElement; slide: number; component: EditableComponent };

/** The editable text element at (or around) `node`, its slide and component; null outside one. */
export function editTargetOf(node: EventTarget | null): EditTarget | null {
  if (!(node instanceof Element)) return null;
  const element = node.closest<HTMLElement | SVGElement>(ANY_EDITABLE);
  const slide = element?.closest<HTMLElement>(".dh-slide[data-slide]");
  if (!element || !slide) return null;
  // The innermost match is the element; its component is the first rule it matches.
  const component = EDITABLE.find(([selector]) => element.matches(selector))?.[1];
  const number = Number(slide.dataset.slide);
  if (!component || !Number.isInteger(number) || number < 1) return null;
  return { element, slide: number - 1, component };
}

/**
 * Where a text drawn from a prop's data is written: its component's element among those on the slide, and
 * the path into the props; null for a text found by its words.
 */
export function itemOf(target: EditTarget): EditItem | null {
  const path = target.element.getAttribute("data-dh-edit");
  const root = ROOTS[target.component];
  if (path === null || !root) return null;
  const steps = path.split(".").map((step) => (/^\d+$/.test(step) ? Number(step) : step));
  if (steps.length === 0 || steps.length > EDIT_PATH_MAX || typeof steps[0] !== "string") return null;
  const slide = target.element.closest(".dh-slide");
  const own = target.element.closest(root);
  if (!slide || !own) return null;
  const all = [...slide.querySelectorAll(root)];
  return { component: target.component, index: all.indexOf(own), count: all.length, path: steps };
}

/** The text as the deck wrote it: the quote marks the player adds around a Quote are not the author's. */
export function renderedText(element: Element): string {
  const raw = element.getAttribute("data-dh-raw");
  if (raw !== null) return raw.replace(/\s+/g, " ").trim();
  let text = element.textContent ?? "";
  if (element.matches(".dh-quote-text")) text = text.replace(/^“/, "").replace(/”$/, "");
  return text.replace(/\s+/g, " ").trim();
}

/** Whether the element holds only text (a Quote's opening mark aside): markup inside is edited in code. */
function isPlain(element: Element): boolean {
  return [...element.children].every((child) => child.matches(".dh-quote-open"));
}

/**
 * The 0-based rank of `target`'s text among the places the slide shows it, in document order: every time
 * it appears in an earlier editable text (inside a longer one too), as the source library counts the
 * places it is written (lib/deck/source/text.ts).
 */
export function occurrenceOf(target: EditTarget, text: string): number {
  const slide = target.element.closest(".dh-slide");
  if (!slide || text === "") return 0;
  let rank = 0;
  for (const other of slide.querySelectorAll<HTMLElement>(BY_TEXT)) {
    if (other === target.element) return rank;
    // Only innermost matches count, as only they are targets.
    if (editTargetOf(other)?.element !== other) continue;
    const shown = renderedText(other);
    for (let at = shown.indexOf(text); at >= 0; at = shown.indexOf(text, at + text.length)) rank++;
  }
  return rank;
}

function clip(text: string): string {
  return text.length > EDIT_TEXT_MAX ? text.slice(0, EDIT_TEXT_MAX) : text;
}

/** Turns edit mode on for the document; returns what turns it off. */
export function startEditMode(post: Post): () => void {
  let hovered: Element | null = null;
  let editing: {
    target: EditTarget;
    /** What takes the typing: the text element itself, or the box laid over an SVG text. */
    box: HTMLElement;
    text: string;
    occurrence: number;
    item: EditItem | null;
    before: string;
  } | null = null;

  const setHover = (element: Element | null) => {
    if (hovered === element) return;
    hovered?.removeAttribute("data-dh-hover");
    hovered = element;
    hovered?.setAttribute("data-dh-hover", "");
  };

  const finish = (commit: boolean) => {
    const current = editing;
    if (!current) return;
    editing = null;
    const { element } = current.target;
    const { box } = current;
    const next = (box.textContent ?? "").replace(/\s+/g, " ").trim();
    box.removeAttribute("contenteditable");
    element.removeAttribute("data-dh-editing");
    box.removeEventListener("keydown", onKey);
    box.removeEventListener("blur", onBlur);
    if (box !== element) {
      box.remove();
      element.removeAttribute("data-dh-covered");
    } else if (element.textContent !== current.before) {
      // Put back what was there; the deck's own DOM is left as React drew it (a new compile redraws it).
      element.textContent = current.before;
    }
    if (!commit || next === current.text || next === "") return;
    post({
      source: "deckhand-player",
      type: "edit-text",
      slide: current.target.slide,
      text: clip(current.text),
      occurrence: current.occurrence,
      next: clip(next),
      ...(current.item ? { item: current.item } : {}),
    });
  };

  function onKey(event: KeyboardEvent) {
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      finish(true);
      (event.currentTarget as HTMLElement | null)?.blur();
    } else if (event.key === "Escape") {
      event.preventDefault();
      finish(false);
      (event.currentTarget as HTMLElement | null)?.blur();
    }
    // Keys typed into the text are not the player's (arrows, space, letters).
    event.stopPropagation();
  }
  function onBlur() {
    finish(true);
  }

  const onPointerOver = (event: PointerEvent) => setHover(editTargetOf(event.target)?.element ?? null);
  const onPointerLeave = () => setHover(null);

  const onClick = (event: MouseEvent) => {
    // A click inside the box over an SVG text places the caret there, and nothing else.
    if (editing && editing.box !== editing.target.element && event.target instanceof Node) {
      if (editing.box.contains(event.target)) {
        event.stopPropagation();
        return;
      }
    }
    const target = editTargetOf(event.target);
    if (!target) return;
    // A click on text never moves the slide on, and a click inside the text being edited places the caret.
    event.preventDefault();
    event.stopPropagation();
    if (editing?.target.element === target.element) return;
    finish(true);
    const item = itemOf(target);
    const text = renderedText(target.element);
    const occurrence = item ? 0 : occurrenceOf(target, text);
    post({
      source: "deckhand-player",
      type: "select",
      slide: target.slide,
      text: clip(text),
      occurrence,
      component: target.component,
      ...(item ? { item } : {}),
    });
    if (!isPlain(target.element) || text === "" || text.length > EDIT_TEXT_MAX) return;
    // An item's path that cannot be told (a component outside its own element): selected, not edited.
    if (target.element.hasAttribute("data-dh-edit") && (!item || item.index < 0)) return;
    const element = target.element;
    const before = element.textContent ?? "";
    const box = element instanceof HTMLElement ? element : overlay(element, text);
    // What is edited is the value as written (a chart value without its unit, a shortened label whole).
    if (box === element && element.hasAttribute("data-dh-raw") && before.replace(/\s+/g, " ").trim() !== text) {
      box.textContent = text;
    }
    editing = { target, box, text, occurrence, item, before };
    box.setAttribute("contenteditable", "plaintext-only");
    element.setAttribute("data-dh-editing", "");
    box.addEventListener("keydown", onKey);
    box.addEventListener("blur", onBlur);
    box.focus();
    if (box === element) placeCaret(event.clientX, event.clientY, element);
    else selectAll(box);
  };

  document.documentElement.dataset.edit = "true";
  document.addEventListener("pointerover", onPointerOver);
  document.addEventListener("pointerleave", onPointerLeave);
  // Capture: before the stage's own click handling (and the deck's).
  document.addEventListener("click", onClick, true);
  return () => {
    finish(false);
    setHover(null);
    delete document.documentElement.dataset.edit;
    document.removeEventListener("pointerover", onPointerOver);
    document.removeEventListener("pointerleave", onPointerLeave);
    document.removeEventListener("click", onClick, true);
  };
}

/**
 * An HTML box over an SVG text, holding `text` at about its size and place (the SVG text is hidden under
 * it while it is edited): SVG elements cannot be contenteditable.
 */
function overlay(element: SVGElement, text: string): HTMLElement {
  const rect = element.getBoundingClientRect();
  const anchor = element.getAttribute("text-anchor") ?? getComputedStyle(element).textAnchor;
  const box = document.createElement("span");
  box.className = "dh-edit-box";
  box.setAttribute("dir", "auto");
  box.textContent = text;
  // The size the text is drawn at, but never too small to read while typing (a scaled-down preview).
  const size = Math.max(rect.height / 1.25, 12);
  const x = anchor === "middle" ? rect.left + rect.width / 2 : anchor === "end" ? rect.right : rect.left;
  Object.assign(box.style, {
    left: `${x}px`,
    top: `${rect.top + rect.height / 2}px`,
    fontSize: `${size}px`,
    fontFamily: getComputedStyle(element).fontFamily,
    fontWeight: getComputedStyle(element).fontWeight,
    transform: `translate(${anchor === "middle" ? "-50%" : anchor === "end" ? "-100%" : "0"}, -50%)`,
  });
  element.setAttribute("data-dh-covered", "");
  document.body.append(box);
  return box;
}

function selectAll(element: HTMLElement) {
  const selection = window.getSelection();
  if (!selection) return;
  const range = document.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
}

// The caret where the person clicked (else at the end of the text).
function placeCaret(x: number, y: number, element: HTMLElement) {
  const selection = window.getSelection();
  if (!selection) return;
  const range = document.caretRangeFromPoint?.(x, y) ?? null;
  if (range && element.contains(range.startContainer)) {
    selection.removeAllRanges();
    selection.addRange(range);
    return;
  }
  const end = document.createRange();
  end.selectNodeContents(element);
  end.collapse(false);
  selection.removeAllRanges();
  selection.addRange(end);
}
