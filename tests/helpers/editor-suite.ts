import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchBrowser } from "./browser";
import { type NextServer, startNextServer } from "./next-server";

// The set-up the editor's end-to-end suites share: `next start` on the production build and one Chromium,
// started before the suite's tests and stopped after them. Call it once at the top of a suite file:
// `const { server, browser } = serverAndBrowser();` — both stand for what beforeAll starts, so the suite's
// tests use them as they would the started server and browser themselves.

export function serverAndBrowser(): { server: NextServer; browser: Browser } {
  let server: NextServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startNextServer();
    browser = await launchBrowser();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return { server: started(() => server, "server"), browser: started(() => browser, "browser") };
}

// An object that forwards every property to what `current()` holds once it is started (methods bound to it),
// and names the suite's mistake when a test reaches it before beforeAll ran.
function started<T extends object>(current: () => T | undefined, name: string): T {
  return new Proxy({} as T, {
    get(_target, key) {
      const value = current();
      if (!value) throw new Error(`The ${name} is started in beforeAll: use it inside a test or a hook.`);
      const property = Reflect.get(value, key, value) as unknown;
      return typeof property === "function" ? property.bind(value) : property;
    },
  });
}
