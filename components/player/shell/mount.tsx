import { type ComponentType, isValidElement, type ReactElement, type ReactNode } from "react";
import { createRoot } from "react-dom/client";
import type { PlayerConfig, PlayerMessage } from "@/lib/contract/player";
import { ErrorPanel, RootBoundary, describeError } from "./error-boundary";
import { lockDown } from "./lockdown";
import { isSiblingModule, readUpdateMessage } from "./module-update";
import { Player } from "./player";

// Loads the deck's compiled module and renders it in the player. Whatever fails — the module's network
// load, its top-level code, a default export that is not a component — ends in a readable panel.
//
// The editor's preview (edit mode) also draws newer modules in place (shell/module-update.ts): each is
// imported and rendered as the next `revision` of the same Player, which keeps the slide on screen. A slide
// whose element is the same as the last module's (same components, same props) keeps its DOM and its fit;
// every other slide is drawn from scratch, as in a new frame (structure.tsx). One that fails to load is
// not drawn: the editor is told and loads a new frame instead, which shows the failure.

type Entry = ComponentType | ReactElement;

function post(message: PlayerMessage) {
  if (window.parent !== window) window.parent.postMessage(message, "*");
}

async function load(url: string): Promise<Entry> {
  const entry = ((await import(/* webpackIgnore: true */ url)) as { default?: unknown }).default;
  if (typeof entry !== "function" && !isValidElement(entry)) {
    throw new Error("The module's default export is not a component or element.");
  }
  return entry as Entry;
}

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
  const draw = (entry: Entry, revision: number, onReady?: () => void) => {
    root.render(
      <Player config={config} revision={revision} onReady={onReady}>
        <RootBoundary revision={revision} onError={() => {}}>
          <DeckRoot entry={entry} />
        </RootBoundary>
      </Player>,
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
  draw(entry as Entry, 0);
  if (config.edit && config.embedded) listenForUpdates(config.moduleUrl, draw);
  // The deck check's renderer keeps a deck's page and draws its next version in it (lib/render/deck-page.ts):
  // it marks the page not ready and posts the update to the page itself; a module that fails to load ends
  // the revision as a deck that failed would.
  else if (config.mode === "export" && !config.embedded) {
    listenForUpdates(config.moduleUrl, draw, (error) => fail("This deck could not be loaded", error));
  }
}

/**
 * The module's default export, drawn. A component is called here rather than rendered as an element of its
 * own type: each module's function is a new type, which would make React draw the whole deck anew on every
 * in-place update; called, its <Deck> (the player's, one type) is the same from one module to the next and
 * <Deck> keeps the slides whose elements did not change (structure.tsx). Deck code cannot import React, so
 * the function holds no hooks of its own.
 */
function DeckRoot({ entry }: { entry: Entry }) {
  return isValidElement(entry) ? entry : (entry as (props: Record<string, never>) => ReactNode)({});
}

// Updates are drawn in the order they were asked for; one overtaken by a newer one while it loaded is
// dropped. `updated` is posted once the new revision is ready (drawn, fonts loaded, fitted), as a new
// frame's `ready` would be. Without `failed`, updates come from the editor (the parent); with it, from the
// renderer (the page itself).
function listenForUpdates(
  moduleUrl: string,
  draw: (entry: Entry, revision: number, onReady: () => void) => void,
  failed?: (error: unknown) => void,
) {
  let latest = 0;
  window.addEventListener("message", (event: MessageEvent) => {
    const renderer = failed !== undefined;
    if (renderer ? event.source !== window : event.source !== window.parent || window.parent === window) return;
    const url = readUpdateMessage(event.data);
    if (url === null) return;
    if (!isSiblingModule(url, moduleUrl, renderer)) {
      failed?.("The module to draw is not this deck's.");
      return post({ source: "deckhand-player", type: "update-failed", moduleUrl: url });
    }
    const revision = ++latest;
    load(url).then(
      (entry) => {
        if (revision !== latest) return;
        let told = false;
        draw(entry, revision, () => {
          if (told) return;
          told = true;
          post({ source: "deckhand-player", type: "updated", moduleUrl: url });
        });
      },
      (error) => {
        if (revision !== latest) return;
        failed?.(error);
        post({ source: "deckhand-player", type: "update-failed", moduleUrl: url });
      },
    );
  });
}
