// Edit mode: the editor's preview frame only (PlayerConfig.edit, set by the preview frame route for ?edit=1;
// never the share viewer, embeds or exports). Text a deck draws with the vocabulary's text components shows an
// outline under the pointer; a click selects it (`select` to the editor) and makes it editable in place
// (contenteditable="plaintext-only"); Enter or leaving it commits (`edit-text`), Escape puts the text back.
// The editor writes the change into the TSX source and recompiles: nothing here changes the deck's code.
//
// A text is named as the editor's source library finds it: the 0-based slide, the text as rendered, and its
// 0-based occurrence among the slide's editable texts that read the same.

import {
  EDIT_TEXT_MAX,
  type EditableComponent,
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
  [".dh-chart-title, .dh-chart-legend-name", "Chart"],
];
const ANY_EDITABLE = EDITABLE.map(([selector]) => selector).join(", ");

type Post = (message: EditSelectMessage | EditTextMessage) => void;

export type EditTarget = { element: HTMLElement; slide: number; component: EditableComponent };

/** The editable text element at (or around) `node`, its slide and component; null outside one. */
export function editTargetOf(node: EventTarget | null): EditTarget | null {
  if (!(node instanceof Element)) return null;
  const element = node.closest<HTMLElement>(ANY_EDITABLE);
  const slide = element?.closest<HTMLElement>(".dh-slide[data-slide]");
  if (!element || !slide) return null;
  // The innermost match is the element; its component is the first rule it matches.
  const component = EDITABLE.find(([selector]) => element.matches(selector))?.[1];
  const number = Number(slide.dataset.slide);
  if (!component || !Number.isInteger(number) || number < 1) return null;
  return { element, slide: number - 1, component };
}

/** The text as the deck wrote it: the quote marks the player adds around a Quote are not the author's. */
export function renderedText(element: HTMLElement): string {
  let text = element.textContent ?? "";
  if (element.matches(".dh-quote-text")) text = text.replace(/^“/, "").replace(/”$/, "");
  return text.replace(/\s+/g, " ").trim();
}

/** Whether the element holds only text (a Quote's opening mark aside): markup inside is edited in code. */
function isPlain(element: HTMLElement): boolean {
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
  for (const other of slide.querySelectorAll<HTMLElement>(ANY_EDITABLE)) {
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
  let hovered: HTMLElement | null = null;
  let editing: { target: EditTarget; text: string; occurrence: number; before: string } | null = null;

  const setHover = (element: HTMLElement | null) => {
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
    const next = renderedText(element);
    element.removeAttribute("contenteditable");
    element.removeAttribute("data-dh-editing");
    element.removeEventListener("keydown", onKey);
    element.removeEventListener("blur", onBlur);
    if (!commit || next === current.text || next === "") {
      // Put back what was there; the deck's own DOM is left as React drew it.
      if (element.textContent !== current.before) element.textContent = current.before;
      return;
    }
    post({
      source: "deckhand-player",
      type: "edit-text",
      slide: current.target.slide,
      text: clip(current.text),
      occurrence: current.occurrence,
      next: clip(next),
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
    const target = editTargetOf(event.target);
    if (!target) return;
    // A click on text never moves the slide on, and a click inside the text being edited places the caret.
    event.preventDefault();
    event.stopPropagation();
    if (editing?.target.element === target.element) return;
    finish(true);
    const text = renderedText(target.element);
    const occurrence = occurrenceOf(target, text);
    post({
      source: "deckhand-player",
      type: "select",
      slide: target.slide,
      text: clip(text),
      occurrence,
      component: target.component,
    });
    if (!isPlain(target.element) || text === "" || text.length > EDIT_TEXT_MAX) return;
    const element = target.element;
    editing = { target, text, occurrence, before: element.textContent ?? "" };
    element.setAttribute("contenteditable", "plaintext-only");
    element.setAttribute("data-dh-editing", "");
    element.addEventListener("keydown", onKey);
    element.addEventListener("blur", onBlur);
    element.focus();
    placeCaret(event.clientX, event.clientY, element);
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
