import { describe, expect, it } from "vitest";
import { decode } from "@/lib/brands/create-brand";

describe("decoding a fetched page", () => {
  const latin1 = Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x4e, 0x6f, 0xeb, 0x6c]); // "Café Noël" in windows-1252

  it("uses the declared charset", () => {
    expect(decode(latin1, "windows-1252")).toBe("Café Noël");
  });

  it("falls back to a <meta charset> in the page, then to UTF-8", () => {
    const page = Buffer.concat([Buffer.from('<html><head><meta charset="iso-8859-1"></head><body>'), latin1]);
    expect(decode(page, null)).toContain("Café Noël");
    expect(decode(Buffer.from("Zoë", "utf8"), null)).toBe("Zoë");
    expect(decode(Buffer.from("plain"), "no-such-charset")).toBe("plain");
  });
});
