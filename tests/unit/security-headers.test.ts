import { afterEach, describe, expect, it, vi } from "vitest";
import { appSecurityHeaders, isAppPage } from "@/lib/app/security-headers";
import { proxy } from "@/proxy";

// The app's own pages: framed by nobody, framing only deck frames, never sniffed, origin-only referrers.
describe("the app's security headers", () => {
  const directives = (csp: string) => new Map(csp.split("; ").map((d) => [d.split(" ")[0]!, d.split(" ").slice(1)]));

  afterEach(() => vi.unstubAllEnvs());

  it("let the pages frame only deck frames, and nobody frame them", () => {
    vi.stubEnv("NODE_ENV", "production");
    const headers = appSecurityHeaders();
    const csp = directives(headers["Content-Security-Policy"]!);
    expect(csp.get("frame-src")).toEqual(["'self'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("base-uri")).toEqual(["'none'"]);
    expect(csp.get("form-action")).toEqual(["'self'"]);
    expect(csp.get("script-src")).not.toContain("'unsafe-eval'");
    expect(headers["X-Frame-Options"]).toBe("DENY");
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(headers["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
  });

  it("allow the sign-in providers and the blob store that are configured, and nothing else", () => {
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("AUTH_GITHUB_ID", "x");
    vi.stubEnv("AUTH_GITHUB_SECRET", "x");
    vi.stubEnv("BLOB_READ_WRITE_TOKEN", "y");
    const csp = directives(appSecurityHeaders()["Content-Security-Policy"]!);
    expect(csp.get("form-action")).toEqual(["'self'", "https://github.com"]);
    expect(csp.get("img-src")).toContain("https://*.public.blob.vercel-storage.com");
  });

  it("are set by the proxy on app pages only", () => {
    expect(isAppPage("/decks")).toBe(true);
    expect(isAppPage("/decks/0b4a6c5e-9b1f-4f5e-8e3a-1c2d3e4f5a6b")).toBe(true);
    for (const path of [
      "/d/abc",
      "/d/abc/frame",
      "/preview/t/frame",
      "/api/v1/decks",
      "/player/x.js",
      "/favicon.svg",
    ]) {
      expect(isAppPage(path), path).toBe(false);
    }
    const page = proxy(new Request("http://localhost/decks"));
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    const viewer = proxy(new Request("http://localhost/d/abc"));
    expect(viewer.headers.get("content-security-policy")).toBeNull();
  });
});

// Next.js refuses a server action whose Origin is another host (its CSRF check) but answers 500; the proxy
// refuses it first, with the same comparison, as a 403, and lets every action Next.js would run go on.
describe("the proxy and server actions from another origin", () => {
  const action = (headers: Record<string, string>, method = "POST") =>
    proxy(new Request("http://127.0.0.1:3000/decks", { method, headers: { host: "127.0.0.1:3000", ...headers } }));
  const fetchAction = { "next-action": "7f00", "content-type": "text/plain;charset=UTF-8" };

  it("refuses a fetch action or a multipart form action whose Origin names another host with a plain 403", async () => {
    for (const headers of [
      { ...fetchAction, origin: "https://evil.example" },
      { ...fetchAction, origin: "http://127.0.0.1:3001" },
      { ...fetchAction, origin: "null" },
      { ...fetchAction, origin: "not a url" },
      { "content-type": "multipart/form-data; boundary=x", origin: "https://evil.example" },
      // The first X-Forwarded-Host is the host Next.js compares with, as it does.
      { ...fetchAction, origin: "http://127.0.0.1:3000", "x-forwarded-host": "app.example, 127.0.0.1:3000" },
    ]) {
      const res = action(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(res.headers.get("x-middleware-next")).toBeNull();
      expect(await res.text()).toMatch(/sent from another site/);
    }
  });

  it("lets through what Next.js runs: the same origin, a forwarded host, no Origin, and requests that are no action", () => {
    for (const [headers, method] of [
      [{ ...fetchAction, origin: "http://127.0.0.1:3000" }, "POST"],
      [{ ...fetchAction, origin: "https://app.example", "x-forwarded-host": "app.example" }, "POST"],
      [fetchAction, "POST"],
      [{ "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" }, "POST"],
      [{ origin: "https://evil.example" }, "GET"],
    ] as const) {
      expect(action(headers, method).headers.get("x-middleware-next"), JSON.stringify(headers)).toBe("1");
    }
  });
});
