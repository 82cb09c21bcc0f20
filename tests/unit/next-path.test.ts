import { describe, expect, it } from "vitest";
import { safeNextPath } from "@/server/next-path";

// Sign-in's `next`: a path of this app is kept (the deep link lands where it pointed), anything that could
// leave the origin falls back to the library.
describe("safeNextPath", () => {
  it("keeps a same-origin relative path with its query and hash", () => {
    for (const path of [
      "/decks/0b9f2c5e-8f0e-4a57-9a8e-3b0f1c2d4e5f",
      "/decks/0b9f2c5e-8f0e-4a57-9a8e-3b0f1c2d4e5f?from=mail",
      "/settings/keys#usage",
      "/invite/abc_DEF-123",
      "/decks?scope=org&kind=template&q=a%20b",
    ]) {
      expect(safeNextPath(path), path).toBe(path);
    }
  });

  it("refuses other origins, scheme-relative and backslash tricks, dot segments and odd characters", () => {
    for (const path of [
      undefined,
      null,
      "",
      "decks",
      "https://evil.example/decks",
      "//evil.example",
      "///evil.example",
      "/\\evil.example",
      "\\\\evil.example",
      "/%5C%5Cevil.example".replace("%5C%5C", "\\\\"),
      "/.//evil.example",
      "/decks/..//evil.example",
      "/a/../b",
      "/./decks",
      "/ /evil.example",
      "/\tevil.example",
      "/\nLocation: https://evil.example",
      "/decks\u0000",
      "javascript:alert(1)",
      "/decks<script>",
      `/${"a".repeat(3000)}`,
    ]) {
      expect(safeNextPath(path), String(path)).toBe("/decks");
    }
  });
});
