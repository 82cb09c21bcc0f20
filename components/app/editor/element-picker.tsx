"use client";

import {
  ChartColumn,
  Code,
  Columns2,
  Hash,
  Heading,
  Heading1,
  type IconNode,
  Link,
  List,
  ListOrdered,
  Milestone,
  Pilcrow,
  Quote,
  Sigma,
  Smile,
  Square,
  Table,
  Workflow,
} from "lucide";
import { createElement, useEffect, useId, useRef } from "react";
import type { SlideElement } from "@/lib/source/transform/props";
import { componentLabel } from "./plain-words";

// The inspector's element list: every element of the slide on screen as a row of a listbox, an image by
// its picture and its description (alt text), the others by their kind in plain words and their first
// words. One tab stop: ↑/↓, Home and End pick (the inspector follows at once), Delete removes the picked
// element; a click picks too.

export function ElementPicker({
  elements,
  index,
  texts,
  onPick,
  onRemove,
}: {
  elements: SlideElement[];
  /** The picked element's place in `elements`, -1 for none. */
  index: number;
  /** The elements' own words, by where they start (lib/source/transform/element-text.ts). */
  texts: Map<number, string>;
  onPick: (index: number) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const list = useRef<HTMLUListElement>(null);
  // The picked row stays in view while the keyboard goes through a long list.
  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: "nearest" });
  }, [index]);
  const last = elements.length - 1;
  return (
    <div className="space-y-1">
      <p id={`${id}-label`} className="block text-xs font-medium text-zinc-700">
        Element
      </p>
      <ul
        ref={list}
        role="listbox"
        tabIndex={0}
        aria-labelledby={`${id}-label`}
        aria-activedescendant={index >= 0 ? `${id}-${index}` : undefined}
        data-testid="element-picker"
        onKeyDown={(event) => {
          const moves: Record<string, number> = {
            ArrowDown: Math.min(last, index + 1),
            ArrowUp: index < 0 ? last : Math.max(0, index - 1),
            Home: 0,
            End: last,
          };
          const to = moves[event.key];
          if (to !== undefined) onPick(to);
          else if (event.key === "Delete" && index >= 0) onRemove();
          else return;
          event.preventDefault();
        }}
        className="max-h-56 overflow-y-auto rounded bg-white p-0.5 ring-1 ring-zinc-300 focus-visible:outline-2 focus-visible:outline-accent"
      >
        {elements.map((element, at) => {
          const picked = at === index;
          const words = describe(element, texts);
          return (
            <li
              key={`${at}-${element.start}`}
              id={`${id}-${at}`}
              role="option"
              aria-selected={picked}
              onClick={() => onPick(at)}
              className={`flex cursor-default items-center gap-2 rounded px-1.5 py-1 ${picked ? "bg-zinc-900 text-white" : "text-zinc-800 hover:bg-zinc-100"}`}
            >
              {element.name === "Image" ? (
                <Thumbnail element={element} />
              ) : (
                <KindIcon name={element.name} picked={picked} />
              )}
              <span className="min-w-0 flex-1 truncate text-sm">
                {componentLabel(element.name)}{" "}
                <span className={picked ? "text-zinc-300" : "text-zinc-500"}>
                  {words || (element.name === "Image" ? "(no description)" : "")}
                </span>
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

// Each kind's sign (lucide's line icons), where an image shows its picture.
const kinds: Record<string, IconNode> = {
  Title: Heading1,
  Heading,
  Text: Pilcrow,
  Bullets: List,
  Steps: ListOrdered,
  Quote,
  Code,
  Link,
  Formula: Sigma,
  Icon: Smile,
  Diagram: Workflow,
  Stat: Hash,
  Table,
  Chart: ChartColumn,
  Timeline: Milestone,
  Columns: Columns2,
};

function KindIcon({ name, picked }: { name: string; picked: boolean }) {
  return (
    <span
      aria-hidden
      className={`flex h-8 w-12 shrink-0 items-center justify-center rounded ${picked ? "bg-zinc-700" : "bg-zinc-100 text-zinc-500"}`}
    >
      <svg
        viewBox="0 0 24 24"
        width="16"
        height="16"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        {(kinds[name] ?? Square).map(([tag, attrs], index) => createElement(tag, { key: index, ...attrs }))}
      </svg>
    </span>
  );
}

// The picture an Image shows, small.
function Thumbnail({ element }: { element: SlideElement }) {
  const src = element.props.filter((prop) => prop.name === "src").at(-1)?.value;
  if (typeof src !== "string") return <span aria-hidden className="h-8 w-12 shrink-0 rounded bg-zinc-100" />;
  return (
    <img
      src={src}
      alt=""
      data-testid="element-thumbnail"
      className="h-8 w-12 shrink-0 rounded bg-zinc-100 object-cover ring-1 ring-zinc-200"
    />
  );
}

// A few words that tell elements of one kind apart in the list: an Image's description, else the first
// text prop; never a picture's address.
export function describe(element: SlideElement, texts: Map<number, string>): string {
  const own = texts.get(element.start);
  if (own) return `“${own.length > 24 ? `${own.slice(0, 23)}…` : own}”`;
  const alt = element.name === "Image" ? element.props.find((prop) => prop.name === "alt")?.value : undefined;
  const text =
    typeof alt === "string" && alt
      ? alt
      : element.props.find(
          (prop) =>
            prop.kind === "string" &&
            typeof prop.value === "string" &&
            prop.name !== "src" &&
            prop.name !== "href" &&
            !/^(data:|https?:|\/)/.test(prop.value),
        )?.value;
  return typeof text === "string" && text ? `“${text.length > 24 ? `${text.slice(0, 23)}…` : text}”` : "";
}
