// The editor's remembered yes/no choices (components/app/editor/use-stored-flag.ts): kept in the browser's
// storage, and in memory for the page when the browser refuses storage, so a toggle still toggles.
import { afterEach, describe, expect, it, vi } from "vitest";
import { readFlag, writeFlag } from "@/components/app/editor/use-stored-flag";

function fakeWindow(storage: Partial<Storage>) {
  vi.stubGlobal("window", { localStorage: storage, addEventListener: () => {}, removeEventListener: () => {} });
}

afterEach(() => vi.unstubAllGlobals());

describe("stored flags", () => {
  it("keep the choice in the browser's storage", () => {
    const kept = new Map<string, string>();
    fakeWindow({ getItem: (key) => kept.get(key) ?? null, setItem: (key, value) => void kept.set(key, value) });
    expect(readFlag("test.open")).toBeNull();
    writeFlag("test.open", true);
    expect(kept.get("test.open")).toBe("true");
    expect(readFlag("test.open")).toBe("true");
  });

  it("keep it in memory for the page when storage refuses it (blocked storage)", () => {
    const refuse = () => {
      throw new DOMException("The operation is insecure.", "SecurityError");
    };
    fakeWindow({ getItem: refuse, setItem: refuse });
    expect(readFlag("test.blocked")).toBeNull();
    writeFlag("test.blocked", true);
    expect(readFlag("test.blocked")).toBe("true");
    writeFlag("test.blocked", false);
    expect(readFlag("test.blocked")).toBe("false");
  });
});
