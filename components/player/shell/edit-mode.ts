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
// texts are SVG, which cannot be contenteditable: they are edited in an HTML box laid over them, sized for
// the screen (the editor tells the frame how far it is scaled down: `scale`), not for the slide.
//
// An element without text (an `<Image>`) is selected as a whole: a click posts `select` naming it by which
// of its component's elements on the slide it is, as the source library finds it (lib/source/transform/elements.ts),
// and outlines it; nothing is edited in place.

import {
  EDIT_PATH_MAX,
  EDIT_SCALE_MAX,
  EDIT_SCALE_MIN,
  EDIT_TEXT_MAX,
  type EditableComponent,
  editableComponents,
  type EditElement,
  type EditHistoryMessage,
  type EditRemoveMessage,
  type EditItem,
  type EditScaleMessage,
  type EditSelectMessage,
  type EditTextMessage,
  type SelectableComponent,
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
/** Elements selected as a whole (no text of their own to edit), with their component. */
const WHOLE: readonly [selector: string, component: SelectableComponent][] = [[".dh-image", "Image"]];
const SELECTABLE = [...EDITABLE, ...WHOLE];
const ANY_SELECTABLE = SELECTABLE.map(([selector]) => selector).join(", ");
/** The texts found by their words (not by a path): the ones occurrences are counted among. */
const BY_TEXT = EDITABLE.map(([selector]) => selector)
  .join(", ")
  .split(/,\s*/)
  .filter((selector) => !selector.includes("[data-dh-edit]"))
  .join(", ");
/** The element of each component that holds its items, to tell which of them on a slide an item is in. */
const ROOTS: Partial<Record<SelectableComponent, string>> = {
  Chart: ".dh-chart",
  Timeline: ".dh-timeline",
  Steps: ".dh-steps",
};

/** The smallest font the box over an SVG text has on screen, in the page's CSS pixels: legible while typing. */
const BOX_FONT_MIN = 14;
/** The narrowest the box over an SVG text is, in ems of its font: room to type over a two-letter label. */
const BOX_WIDTH_MIN_EM = 6;

// How large one of the frame's CSS pixels is on screen (the editor's `scale` message; 1 until it says).
// Kept across edit mode's restarts: a module drawn in place starts it again in the same frame.
let screenScale = 1;

type Post = (message: EditSelectMessage | EditTextMessage | EditHistoryMessage | EditRemoveMessage) => void;

type EditTarget = { element: HTMLElement | SVGElement; slide: number; component: SelectableComponent };

function isEditable(component: SelectableComponent): component is EditableComponent {
  return (editableComponents as readonly string[]).includes(component);
}

/** The selectable element at (or around) `node` (a text, an image), its slide and component; null outside one. */
function editTargetOf(node: EventTarget | null): EditTarget | null {
  if (!(node instanceof Element)) return null;
  const element = node.closest<HTMLElement | SVGElement>(ANY_SELECTABLE);
  const slide = element?.closest<HTMLElement>(".dh-slide[data-slide]");
  if (!element || !slide) return null;
  // The innermost match is the element; its component is the first rule it matches.
  const component = SELECTABLE.find(([selector]) => element.matches(selector))?.[1];
  const number = Number(slide.dataset.slide);
  if (!component || !Number.isInteger(number) || number < 1) return null;
  return { element, slide: number - 1, component };
}

/**
 * Where a text drawn from a prop's data is written: its component's element among those on the slide, and
 * the path into the props; null for a text found by its words.
 */
function itemOf(target: EditTarget): EditItem | null {
  const path = target.element.getAttribute("data-dh-edit");
  const root = ROOTS[target.component];
  if (path === null || !root || !isEditable(target.component)) return null;
  const steps = path.split(".").map((step) => (/^\d+$/.test(step) ? Number(step) : step));
  if (steps.length === 0 || steps.length > EDIT_PATH_MAX || typeof steps[0] !== "string") return null;
  const slide = target.element.closest(".dh-slide");
  const own = target.element.closest(root);
  if (!slide || !own) return null;
  const all = [...slide.querySelectorAll(root)];
  return { component: target.component, index: all.indexOf(own), count: all.length, path: steps };
}

/** Which of its component's elements on the slide an element selected as a whole is; null for a text. */
function elementOf(target: EditTarget): EditElement | null {
  const selector = WHOLE.find(([, component]) => component === target.component)?.[0];
  const slide = target.element.closest(".dh-slide");
  if (!selector || !slide) return null;
  const all = [...slide.querySelectorAll(selector)];
  const index = all.indexOf(target.element);
  return index < 0 ? null : { index, count: all.length };
}

/** The scale a message from the editor names, when it is one (exact fields, a bounded number); else null. */
export function readScaleMessage(data: unknown): number | null {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return null;
  const prototype = Object.getPrototypeOf(data);
  if (prototype !== Object.prototype && prototype !== null) return null;
  const keys = Object.keys(data);
  if (keys.length !== 3 || !["source", "type", "scale"].every((key) => Object.hasOwn(data, key))) return null;
  const message = data as Partial<EditScaleMessage>;
  if (message.source !== "deckhand-viewer" || message.type !== "scale") return null;
  const scale = message.scale;
  if (typeof scale !== "number" || !Number.isFinite(scale)) return null;
  return scale >= EDIT_SCALE_MIN && scale <= EDIT_SCALE_MAX ? scale : null;
}

/** The text as the deck wrote it: the quote marks the player adds around a Quote are not the author's. */
function renderedText(element: Element): string {
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
 * places it is written (lib/source/transform/text.ts).
 */
function occurrenceOf(target: EditTarget, text: string): number {
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
  // An element selected as a whole (an image), outlined until the next click selects something else.
  let selected: Element | null = null;
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
  const setSelected = (element: Element | null) => {
    if (selected === element) return;
    selected?.removeAttribute("data-dh-selected");
    selected = element;
    selected?.setAttribute("data-dh-selected", "");
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

  // The editor says how far the frame is scaled down on screen; only the page around the frame may.
  const onMessage = (event: MessageEvent) => {
    if (event.source !== window.parent) return;
    const scale = readScaleMessage(event.data);
    if (scale !== null) screenScale = scale;
  };

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
    if (!isEditable(target.component)) {
      // An image: selected for the inspector, named by its place among the slide's images.
      const element = elementOf(target);
      post({
        source: "deckhand-player",
        type: "select",
        slide: target.slide,
        text: "",
        occurrence: 0,
        component: target.component,
        ...(element ? { element } : {}),
      });
      setSelected(target.element);
      return;
    }
    setSelected(null);
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

  // Undo and redo on the preview are the editor's (its one history); inside a text being edited they are
  // the text's own. So is Delete: it removes the selected element.
  const onKeyDown = (event: KeyboardEvent) => {
    // Delete (or Backspace) while no text is being edited: the editor removes the element selected last.
    if ((event.key === "Delete" || event.key === "Backspace") && !editing && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      post({ source: "deckhand-player", type: "remove" });
      return;
    }
    if (!(event.ctrlKey || event.metaKey) || event.altKey || editing) return;
    const key = event.key.toLowerCase();
    const action = key === "z" ? (event.shiftKey ? "redo" : "undo") : key === "y" && !event.shiftKey ? "redo" : null;
    if (!action) return;
    event.preventDefault();
    post({ source: "deckhand-player", type: "history", action });
  };

  document.documentElement.dataset.edit = "true";
  document.addEventListener("keydown", onKeyDown);
  document.addEventListener("pointerover", onPointerOver);
  document.addEventListener("pointerleave", onPointerLeave);
  // Capture: before the stage's own click handling (and the deck's).
  document.addEventListener("click", onClick, true);
  window.addEventListener("message", onMessage);
  return () => {
    finish(false);
    setHover(null);
    setSelected(null);
    window.removeEventListener("message", onMessage);
    document.removeEventListener("keydown", onKeyDown);
    delete document.documentElement.dataset.edit;
    document.removeEventListener("pointerover", onPointerOver);
    document.removeEventListener("pointerleave", onPointerLeave);
    document.removeEventListener("click", onClick, true);
  };
}

/**
 * An HTML box over an SVG text, holding `text` where it is drawn (the SVG text is hidden under it while it
 * is edited): SVG elements cannot be contenteditable. The box is sized for the screen, not the slide: the
 * preview draws the frame scaled down (a 24 px label is under 10 px on a 780 px wide preview), so its font
 * is the label's size or BOX_FONT_MIN on screen, whichever is larger, and it is at least BOX_WIDTH_MIN_EM
 * wide. It is fixed over the page, so the slide's layout does not move, and kept inside the frame's
 * viewport (the label of a chart's last bar may be close to its edge).
 */
function overlay(element: SVGElement, text: string): HTMLElement {
  const rect = element.getBoundingClientRect();
  const style = getComputedStyle(element);
  const anchor = element.getAttribute("text-anchor") ?? style.textAnchor;
  const box = document.createElement("span");
  box.className = "dh-edit-box";
  box.setAttribute("dir", "auto");
  box.textContent = text;
  // An SVG text's box is about 1.25 of its font size high.
  const size = Math.max(rect.height / 1.25, BOX_FONT_MIN / screenScale);
  Object.assign(box.style, {
    left: "0px",
    top: "0px",
    fontSize: `${size}px`,
    minWidth: `${Math.max(rect.width, size * BOX_WIDTH_MIN_EM)}px`,
    // The outline and corners stay visible on screen too (2 and 3 px there), never thinner than at full size.
    outlineWidth: `${Math.max(3, 2 / screenScale)}px`,
    borderRadius: `${Math.max(4, 3 / screenScale)}px`,
    fontFamily: style.fontFamily,
    fontWeight: style.fontWeight,
    textAlign: anchor === "middle" ? "center" : anchor === "end" ? "right" : "left",
  });
  element.setAttribute("data-dh-covered", "");
  document.body.append(box);
  // Placed once its size is known: on the label's anchor and middle line, inside the viewport.
  const width = box.offsetWidth;
  const height = box.offsetHeight;
  const x =
    anchor === "middle" ? rect.left + rect.width / 2 - width / 2 : anchor === "end" ? rect.right - width : rect.left;
  const y = rect.top + rect.height / 2 - height / 2;
  const inside = (at: number, length: number, room: number) => Math.max(0, Math.min(at, room - length));
  box.style.left = `${inside(x, width, window.innerWidth)}px`;
  box.style.top = `${inside(y, height, window.innerHeight)}px`;
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
