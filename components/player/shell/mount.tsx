import { type ComponentType, isValidElement, type ReactElement } from "react";
import { createRoot } from "react-dom/client";
import type { PlayerConfig } from "@/lib/contract/player";
import { ErrorPanel, RootBoundary, describeError } from "./error-boundary";
import { lockDown } from "./lockdown";
import { Player } from "./player";

// Loads the deck's compiled module and renders it in the player. Whatever fails — the module's network
// load, its top-level code, a default export that is not a component — ends in a readable panel.
export async function mountPlayer(config: PlayerConfig): Promise<void> {
  const container = document.getElementById("dh-root");
  if (!container) throw new Error("The player needs an element with id dh-root");
  const root = createRoot(container);
  const fail = (title: string, error: unknown) => {
    const message = describeError(error);
    window.__deckhand = { ready: true, count: 0, slides: [], missingFonts: [], errors: [message] };
    document.documentElement.dataset.ready = "true";
    root.render(
      <div className="dh-error-screen">
        <ErrorPanel title={title} message={message} />
      </div>,
    );
  };

  lockDown();
  // A thumbnail is a still picture: player.css stops animations and transitions under this attribute.
  document.documentElement.dataset.mode = config.mode;

  let entry: unknown;
  try {
    entry = ((await import(/* webpackIgnore: true */ config.moduleUrl)) as { default?: unknown }).default;
  } catch (error) {
    return fail("This deck could not be loaded", error);
  }
  if (typeof entry !== "function" && !isValidElement(entry)) {
    return fail("This deck could not be shown", "The module's default export is not a component or element.");
  }
  const Root = entry as ComponentType;
  root.render(
    <Player config={config}>
      <RootBoundary onError={() => {}}>{isValidElement(entry) ? (entry as ReactElement) : <Root />}</RootBoundary>
    </Player>,
  );
}
