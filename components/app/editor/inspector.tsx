"use client";

import { useId, useMemo } from "react";
import type { DeckFormat } from "@/lib/contract/deck";
import { readElementTexts, setElementText } from "@/lib/source/transform/element-text";
import { removeElement } from "@/lib/source/transform/elements";
import { moveElementTo } from "@/lib/source/transform/insert";
import { vocabulary } from "@/lib/source/component-specs";
import { ImageSource } from "./image-source";
import { describe, ElementPicker } from "./element-picker";
import { CommitInput } from "./inspector-fields";
import { componentLabel } from "./plain-words";
import { PropControl } from "./prop-control";
import type { SelectedElement } from "./use-selected-element";

// The inspector: one element of the slide on screen, in plain words. The element list (element-picker.tsx:
// the one clicked on the preview, or picked here), its own words as a text field (the keyboard path to every text), Move
// earlier / later among the elements beside it, Remove, and a control per prop (prop-control.tsx). Each
// change is a function of lib/source/transform applied as one undoable step.

type Apply = (change: (source: string) => string) => boolean;

export function Inspector({
  format,
  source,
  slide,
  selected,
  apply,
  onError,
}: {
  format: DeckFormat;
  source: string;
  /** 0-based, the slide on screen. */
  slide: number;
  selected: SelectedElement;
  apply: Apply;
  /** An upload refused (too large, not an image…). */
  onError: (message: string) => void;
}) {
  const { elements, index, element, pick, pickAt } = selected;
  const spec = element ? vocabulary.find((component) => component.name === element.name) : undefined;
  const pickerId = useId();
  const remove = () => {
    if (element && apply((now) => removeElement(now, format, { slide, start: element.start }))) pick(-1);
  };
  // The moved element stays selected, at the place it moved to.
  const move = (direction: -1 | 1) => {
    if (!element) return;
    let moved: number | null = null;
    const changed = apply((now) => {
      const next = moveElementTo(now, format, { slide, start: element.start, direction });
      moved = next.start;
      return next.source;
    });
    if (changed && moved !== null) pickAt(moved);
  };
  const texts = useMemo(
    () =>
      readElementTexts(
        source,
        format,
        elements.map((candidate) => candidate.start),
      ),
    [elements, format, source],
  );
  const text = element ? (texts.get(element.start) ?? null) : null;
  const name = element ? `${componentLabel(element.name)} ${describe(element, texts)}`.trim() : "";

  return (
    <section aria-labelledby={`${pickerId}-heading`} className="space-y-3 text-sm" data-testid="inspector">
      <h2 id={`${pickerId}-heading`} className="sr-only">
        Inspector
      </h2>
      {elements.length === 0 ? (
        <p className="text-zinc-600">This slide has no elements to edit here. Use Insert to add one.</p>
      ) : (
        <>
          <ElementPicker elements={elements} index={index} texts={texts} onPick={pick} onRemove={remove} />
          {element && (
            <div className="flex flex-wrap items-center gap-1.5">
              <SmallButton onClick={() => move(-1)} label={`Move ${name} earlier`} title="Earlier on the slide">
                ↑ Earlier
              </SmallButton>
              <SmallButton onClick={() => move(1)} label={`Move ${name} later`} title="Later on the slide">
                ↓ Later
              </SmallButton>
              <SmallButton onClick={remove} label={`Remove ${element.name} ${describe(element, texts)}`.trim()} danger>
                Remove
              </SmallButton>
            </div>
          )}
          {!element && (
            <p className="text-xs leading-5 text-zinc-500">
              Click a text or a picture on the slide to edit it here, or add one with Insert.
            </p>
          )}
          {element && spec && (
            <div className="space-y-2.5" data-component={element.name}>
              {text !== null && (
                <OwnText
                  key={element.start}
                  component={element.name}
                  text={text}
                  onCommit={(next) => apply((now) => setElementText(now, format, { start: element.start, next }))}
                />
              )}
              {element.name === "Image" && (
                <ImageSource key={element.start} element={element} apply={apply} onError={onError} />
              )}
              {spec.props.map((prop) => (
                <PropControl
                  key={`${element.start}-${prop.name}`}
                  spec={prop}
                  source={source}
                  element={element}
                  apply={apply}
                />
              ))}
            </div>
          )}
        </>
      )}
    </section>
  );
}

function SmallButton({
  onClick,
  label,
  title,
  danger,
  children,
}: {
  onClick: () => void;
  label: string;
  title?: string;
  danger?: boolean;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      title={title ?? (danger ? "Remove from the slide (Delete)" : undefined)}
      className={`rounded px-2 py-1 text-xs font-medium ring-1 ring-zinc-300 ${danger ? "text-red-700 hover:bg-red-50" : "text-zinc-700 hover:bg-zinc-100"}`}
    >
      {children}
    </button>
  );
}

// The element's own words: a Heading's, a Text's, a Quote's.
function OwnText({ component, text, onCommit }: { component: string; text: string; onCommit: (next: string) => void }) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-xs font-medium text-zinc-700">
        {component === "Quote" ? "Quoted words" : `${componentLabel(component)} text`}
      </label>
      <CommitInput id={id} value={text} onCommit={(next) => next.trim() !== "" && onCommit(next)} />
    </div>
  );
}
