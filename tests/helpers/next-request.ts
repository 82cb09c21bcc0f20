// What a Next.js server sets up before anything else (AsyncLocalStorage on globalThis, which the request
// stores are made of).
import "next/dist/server/node-environment-baseline.js";
import { register } from "node:module";
import { workAsyncStorage } from "next/dist/server/app-render/work-async-storage.external.js";
import { workUnitAsyncStorage } from "next/dist/server/app-render/work-unit-async-storage.external.js";
import { createRequestStoreForAPI } from "next/dist/server/async-storage/request-store.js";
import { NextRequest } from "next/server";

// Server actions and server-side session reads outside a Next.js server: `inRequest` runs code inside the
// request scope Next.js gives a server action (the stores `headers()` and `cookies()` read, a cookie jar
// the code can write to), so tests call the app's real actions and `getAppContext` without a browser.

// next-auth is loaded by Node, not by Vite, and imports `next/server`, `next/headers` and `next/navigation`
// without the `.js` that Node's ESM resolution needs for a package with no exports map (Next's bundler
// adds it). The same files are meant, so the same module instances (and request stores) are shared.
const hook = `export async function resolve(specifier, context, next) {
  return next(/^next\\/[a-z-]+$/.test(specifier) ? specifier + ".js" : specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);

export type Cookie = { name: string; value: string };
export type Outcome<T> = { result?: T; error?: unknown; cookies: Cookie[] };

/** Runs `fn` as Next.js runs a server action; returns what it answered or threw and the cookies it left. */
export async function inRequest<T>(
  fn: () => Promise<T>,
  options: { cookies?: Cookie[]; protocol?: "http" | "https" } = {},
): Promise<Outcome<T>> {
  const protocol = options.protocol ?? "http";
  const headers = new Headers({
    host: "localhost:3000",
    "x-forwarded-proto": protocol,
    cookie: (options.cookies ?? []).map((c) => `${c.name}=${c.value}`).join("; "),
  });
  const url = new URL(`${protocol}://localhost:3000/`);
  const store = createRequestStoreForAPI(
    new NextRequest(url, { headers }),
    url,
    { tags: [], expirationsByCacheKind: new Map() },
    undefined,
    undefined,
    undefined,
  );
  const workStore = { route: "/", forceStatic: false, dynamicShouldError: false } as never;
  const outcome: Outcome<T> = { cookies: [] };
  await workAsyncStorage.run(workStore, () =>
    workUnitAsyncStorage.run(store, async () => {
      try {
        outcome.result = await fn();
      } catch (error) {
        outcome.error = error;
      }
    }),
  );
  // A cleared cookie stays in the jar with an empty value (and an expiry in the past).
  outcome.cookies = store.mutableCookies.getAll().filter((c) => c.value !== "");
  return outcome;
}

/** Where a `redirect()` thrown by Next.js code was going, if `error` is one. */
export function redirectTarget(error: unknown): string | undefined {
  const digest = (error as { digest?: unknown } | null | undefined)?.digest;
  return typeof digest === "string" && digest.startsWith("NEXT_REDIRECT") ? digest.split(";")[2] : undefined;
}
