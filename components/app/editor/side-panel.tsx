"use client";

import { useState } from "react";
import { Tabs } from "@/components/ui";
import type { DeckFormat } from "@/lib/contract/deck";
import { BrandPicker } from "./brand-picker";
import { Inspector } from "./inspector";
import { ThemePanel } from "./theme-panel/theme-panel";
import type { SelectedElement } from "./use-selected-element";

// The editor's right-hand panel, beside the canvas: the inspector of the selected element, or the deck's
// theme (the brand, then colours and type); one or the other, never in place of the rail or the canvas.
// The editor shows it to those who can edit the deck only.
// It scrolls in a box of its own, so the slide stays whole on screen while a long inspector scrolls.

type Apply = (change: (source: string) => string) => boolean;

export function SidePanel({
  format,
  source,
  slide,
  selected,
  apply,
  onError,
  tokens,
  setTokens,
  brand,
  brandPicker,
  brandUnsaved,
}: {
  format: DeckFormat;
  source: string;
  /** 0-based, the slide on screen. */
  slide: number;
  selected: SelectedElement;
  apply: Apply;
  onError: (message: string) => void;
  tokens: string;
  setTokens: (tokens: string) => void;
  brand: { name: string; tokensCss: string } | null;
  brandPicker: Parameters<typeof BrandPicker>[0];
  brandUnsaved: boolean;
}) {
  const [tab, setTab] = useState<"inspector" | "theme">("inspector");
  return (
    <aside
      id="editor-inspector"
      tabIndex={-1}
      className="hidden min-h-0 flex-col border-l border-zinc-200 bg-white focus:outline-none lg:flex"
      aria-label="Inspector and theme"
    >
      <div className="flex shrink-0 items-center border-b border-zinc-200 px-2 py-1.5">
        <Tabs
          look="segment"
          items={[
            { value: "inspector", label: "Inspector" },
            { value: "theme", label: "Theme" },
          ]}
          value={tab}
          onChange={setTab}
        />
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain p-3" data-testid="side-panel">
        {tab === "inspector" ? (
          <Inspector
            format={format}
            source={source}
            slide={slide}
            selected={selected}
            apply={apply}
            onError={onError}
          />
        ) : (
          <div className="space-y-3">
            <BrandPicker {...brandPicker} />
            {brandUnsaved && (
              <p role="status" className="text-xs text-amber-800">
                Brand tokens applied: save to keep them
              </p>
            )}
            <ThemePanel tokensCss={tokens} onChange={setTokens} brand={brand} />
          </div>
        )}
      </div>
    </aside>
  );
}
