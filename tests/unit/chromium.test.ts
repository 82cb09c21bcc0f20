import { afterEach, describe, expect, it, vi } from "vitest";
import { chromiumArgs, sandboxMode, testChromiumArgs } from "@/lib/render/chromium";

// The export renderer's Chromium runs sandboxed wherever the platform allows (see sandboxMode).
describe("the renderer's sandbox", () => {
  it("is not turned off by the shared arguments; only the tests' own browser runs without it", () => {
    expect(chromiumArgs).not.toContain("--no-sandbox");
    expect(testChromiumArgs).toContain("--no-sandbox");
  });

  it("is tried for an ordinary user, required when CHROMIUM_SANDBOX=1, off where it cannot start", () => {
    const modeWith = (env: Record<string, string>, uid: number) => {
      vi.unstubAllEnvs();
      for (const name of ["CHROMIUM_SANDBOX", "AWS_LAMBDA_FUNCTION_NAME", "VERCEL"]) vi.stubEnv(name, env[name] ?? "");
      return sandboxMode(uid);
    };
    expect(modeWith({}, 1000)).toBe("try");
    expect(modeWith({ CHROMIUM_SANDBOX: "1" }, 1000)).toBe("on");
    expect(modeWith({ CHROMIUM_SANDBOX: "0" }, 1000)).toBe("off");
    // Chromium refuses its sandbox as root; serverless functions have no user namespaces.
    expect(modeWith({}, 0)).toBe("off");
    expect(modeWith({ CHROMIUM_SANDBOX: "1" }, 0)).toBe("off");
    expect(modeWith({ AWS_LAMBDA_FUNCTION_NAME: "render" }, 1000)).toBe("off");
    expect(modeWith({ VERCEL: "1" }, 1000)).toBe("off");
  });

  afterEach(() => vi.unstubAllEnvs());
});
