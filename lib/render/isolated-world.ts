import type { Page } from "puppeteer-core";

// A JavaScript world of a job's own in the deck's page (CDP Page.createIsolatedWorld, as browser
// extensions get): the same DOM, but globals, prototypes and built-ins of its own that the deck's scripts
// cannot reach. The PPTX extractor and the deck check run there, so a deck that redefines Object.defineProperty,
// Array.prototype.map, JSON or getComputedStyle changes nothing it reports; the deck can only change its
// DOM, which is what it draws anyway.
export type IsolatedWorld = { evaluate: (expression: string) => Promise<unknown>; close: () => Promise<void> };

export async function openIsolatedWorld(page: Page, name: string): Promise<IsolatedWorld> {
  const session = await page.createCDPSession();
  const { frameTree } = await session.send("Page.getFrameTree");
  const { executionContextId } = await session.send("Page.createIsolatedWorld", {
    frameId: frameTree.frame.id,
    worldName: name,
  });
  return {
    async evaluate(expression) {
      const { result, exceptionDetails } = await session.send("Runtime.evaluate", {
        expression,
        contextId: executionContextId,
        returnByValue: true,
        // A script that answers a promise (the handout waiting for its fonts) is answered when it settles.
        awaitPromise: true,
      });
      if (exceptionDetails) {
        throw new Error(`The page script failed: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
      }
      return result.value;
    },
    close: () => session.detach().catch(() => {}),
  };
}
