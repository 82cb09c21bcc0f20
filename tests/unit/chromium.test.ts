import { describe, expect, it } from "vitest";
import { chromiumArgs, sandboxMode, testChromiumArgs } from "@/lib/render/chromium";

// The export renderer's Chromium runs sandboxed wherever the platform allows (see sandboxMode).
describe("the renderer's sandbox", () => {
  it("is not turned off by the shared arguments; only the tests' own browser runs without it", () => {
    expect(chromiumArgs).not.toContain("--no-sandbox");
    expect(testChromiumArgs).toContain("--no-sandbox");
  });

  it("is tried for an ordinary user, required when CHROMIUM_SANDBOX=1, off where it cannot start", () => {
    expect(sandboxMode({}, 1000)).toBe("try");
    expect(sandboxMode({ CHROMIUM_SANDBOX: "1" }, 1000)).toBe("on");
    expect(sandboxMode({ CHROMIUM_SANDBOX: "0" }, 1000)).toBe("off");
    // Chromium refuses its sandbox as root; serverless functions have no user namespaces.
    expect(sandboxMode({}, 0)).toBe("off");
    expect(sandboxMode({ CHROMIUM_SANDBOX: "1" }, 0)).toBe("off");
    expect(sandboxMode({ AWS_LAMBDA_FUNCTION_NAME: "render" }, 1000)).toBe("off");
    expect(sandboxMode({ VERCEL: "1" }, 1000)).toBe("off");
  });
});
