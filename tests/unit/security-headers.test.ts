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
