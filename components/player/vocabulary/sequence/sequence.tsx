// Sequence components: dated milestones (Timeline) and a numbered process (Steps). Both are plain
// HTML in a grid, so the PPTX export sees native material: the track's segments and markers are boxes
// with fills and borders (shapes, circles as ellipses) and every text is its own text box. Each item
// draws its own piece of the line (a segment before and after its marker), so the line joins the
// markers whatever the items' heights, runs from the right in a right-to-left section, and needs no
// measuring.

import { oneOf, textOf } from "@/components/player/vocabulary/tone";
import { flowDirections, type FlowDirection } from "@/lib/contract/prop-values";

type Milestone = { date?: string; title?: string; detail?: string };

type TimelineProps = {
  items: Milestone[];
  direction?: FlowDirection;
  highlight?: number;
};

/** An item as drawn, and where its texts are written in `items` (`at`; a bare string is its title). */
type Entry = { date: string; title: string; detail: string; at: number; bare: boolean };

// Items arrive unchecked: objects with text fields, or bare strings (a title alone). Anything without
// a date or a title is dropped rather than drawn as an empty marker.
function entries(items: unknown): Entry[] {
  if (!Array.isArray(items)) return [];
  return items.flatMap((item, at): Entry[] => {
    const text = textOf(item);
    if (text !== undefined) return text.trim() ? [{ date: "", title: text, detail: "", at, bare: true }] : [];
    if (typeof item !== "object" || item === null) return [];
    const { date, title, detail } = item as Record<string, unknown>;
    const entry = {
      date: textOf(date) ?? "",
      title: textOf(title) ?? "",
      detail: textOf(detail) ?? "",
      at,
      bare: false,
    };
    return entry.date.trim() || entry.title.trim() ? [entry] : [];
  });
}

// The editor's preview edits an item's texts in place (components/player/shell/edit-mode.ts): each says
// where in `items` it is written.
function editPath(entry: Entry, field: "date" | "title" | "detail") {
  return { "data-dh-edit": entry.bare ? `items.${entry.at}` : `items.${entry.at}.${field}` };
}

function Segment({ side, shown, state }: { side: "before" | "after"; shown: boolean; state?: string }) {
  return (
    <span
      className="dh-sequence-segment"
      data-side={side}
      data-hidden={shown ? undefined : ""}
      data-state={state}
      aria-hidden="true"
    />
  );
}

export function Timeline({ items, direction, highlight }: TimelineProps) {
  const list = entries(items);
  if (list.length === 0) return null;
  const flow = oneOf(direction, flowDirections, "horizontal");
  const current =
    typeof highlight === "number" && Number.isInteger(highlight) && highlight >= 0 && highlight < list.length
      ? highlight
      : -1;
  // With a current milestone, the ones before it are done and the ones after it still to come.
  const stateOf = (index: number) =>
    current === -1 ? undefined : index < current ? "done" : index === current ? "current" : "upcoming";
  return (
    <ol
      className="dh-timeline"
      data-direction={flow}
      style={flow === "horizontal" ? { gridTemplateColumns: `repeat(${list.length}, minmax(0, 1fr))` } : undefined}
    >
      {list.map((entry, index) => {
        const state = stateOf(index);
        return (
          <li className="dh-timeline-item" key={index} data-state={state}>
            <p className="dh-timeline-date" dir="auto" {...(entry.date ? editPath(entry, "date") : {})}>
              {entry.date}
            </p>
            <div className="dh-sequence-track">
              <Segment side="before" shown={index > 0} state={state === "upcoming" ? "upcoming" : undefined} />
              <span className="dh-timeline-marker" data-state={state} aria-hidden="true" />
              <Segment
                side="after"
                shown={index < list.length - 1}
                state={state === "upcoming" || state === "current" ? "upcoming" : undefined}
              />
            </div>
            <div className="dh-sequence-body">
              {entry.title ? (
                <p className="dh-timeline-title" dir="auto" {...editPath(entry, "title")}>
                  {entry.title}
                </p>
              ) : null}
              {entry.detail ? (
                <p className="dh-timeline-detail" dir="auto" {...editPath(entry, "detail")}>
                  {entry.detail}
                </p>
              ) : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}

type Step = { title?: string; detail?: string };

type StepsProps = {
  items: (Step | string)[];
  direction?: FlowDirection;
};

export function Steps({ items, direction }: StepsProps) {
  const list = entries(items).filter((entry) => entry.title.trim());
  if (list.length === 0) return null;
  const flow = oneOf(direction, flowDirections, "horizontal");
  return (
    <ol
      className="dh-steps"
      data-direction={flow}
      style={flow === "horizontal" ? { gridTemplateColumns: `repeat(${list.length}, minmax(0, 1fr))` } : undefined}
    >
      {list.map((entry, index) => (
        <li className="dh-step" key={index}>
          <div className="dh-sequence-track">
            {/* The digit is a box of its own, centred in the badge, so the PPTX text box sits where it is
                drawn instead of at the top of the circle. */}
            <span className="dh-step-number" aria-hidden="true">
              <span className="dh-step-digit">{index + 1}</span>
            </span>
            <Segment side="after" shown={index < list.length - 1} />
          </div>
          <div className="dh-sequence-body">
            <p className="dh-step-title" dir="auto" {...editPath(entry, "title")}>
              {entry.title}
            </p>
            {entry.detail ? (
              <p className="dh-step-detail" dir="auto" {...editPath(entry, "detail")}>
                {entry.detail}
              </p>
            ) : null}
          </div>
        </li>
      ))}
    </ol>
  );
}
