"use client";

// The editor's skip links, the first tab stops inside the page (after the app's "Skip to main content"):
// seen only while they have the focus, each puts the keyboard in one part of the editor: the selected
// slide of the rail, the canvas, the element list of the inspector. The rail and the inspector are there
// from 1024 px on (on a phone the editor is a reader: only the canvas).

const links = [
  { label: "Skip to the slides", part: "editor-slides", focus: "[data-rail-stop]", wide: true },
  { label: "Skip to the canvas", part: "editor-canvas", focus: "iframe[title='Preview']", wide: false },
  { label: "Skip to the inspector", part: "editor-inspector", focus: "[role='listbox'], [role='tab']", wide: true },
];

export function SkipLinks({ editable }: { editable: boolean }) {
  return (
    <div className="contents">
      {links
        .filter((link) => editable || link.part !== "editor-inspector")
        .map((link) => (
          <a
            key={link.part}
            href={`#${link.part}`}
            onClick={(event) => {
              const part = document.getElementById(link.part);
              if (!part) return;
              event.preventDefault();
              (part.querySelector<HTMLElement>(link.focus) ?? part).focus();
            }}
            className={`sr-only rounded-md bg-white px-3 py-2 text-sm font-medium text-accent shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 ${link.wide ? "max-lg:hidden" : ""}`}
          >
            {link.label}
          </a>
        ))}
    </div>
  );
}
