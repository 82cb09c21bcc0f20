import { afterEach, describe, expect, it, vi } from "vitest";
import { analyzeDeckFonts, parseFontFamilyList, shippedFonts } from "@/lib/contract/fonts";
import { parseTokensCss } from "@/lib/source/tokens";
import { defaultTokensCss } from "@/lib/source/theme-tokens";
import { escapeHtml } from "@/lib/contract/text";
import { jsonScript } from "@/lib/viewer/html";
import { mintPreviewToken, verifyPreviewToken } from "@/lib/viewer/preview-token";

describe("fonts", () => {
  it("parses font-family lists with quoted and unquoted names", () => {
    expect(parseFontFamilyList(`"Source Serif 4", 'Georgia', Times New Roman,  serif`)).toEqual([
      "Source Serif 4",
      "Georgia",
      "Times New Roman",
      "serif",
    ]);
  });

  it("ships every family the default theme names first", () => {
    const { primary, unavailable } = analyzeDeckFonts(parseTokensCss(defaultTokensCss).properties);
    expect(primary).toEqual(["Source Serif 4", "Inter", "JetBrains Mono"]);
    expect(unavailable).toEqual([]);
  });

  it("reports a primary family that is not shipped", () => {
    const tokens = parseTokensCss(`:root { --font-heading: "Brand Sans", Arial, sans-serif; --font-body: Inter; }`);
    expect(analyzeDeckFonts(tokens.properties)).toEqual({
      primary: ["Brand Sans", "Inter"],
      unavailable: ["Brand Sans"],
    });
  });

  it("names each shipped family once", () => {
    const names = shippedFonts.map((font) => font.family.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
  });
});

describe("preview tokens", () => {
  afterEach(() => vi.useRealTimers());

  it("round-trips a grant and refuses tampering and expiry", () => {
    const token = mintPreviewToken({ deckId: "0b6f0d7e-5c1e-4a57-9b7a-2d7c3f1e9a10", version: 3 }, 60_000);
    expect(verifyPreviewToken(token)).toMatchObject({ deckId: "0b6f0d7e-5c1e-4a57-9b7a-2d7c3f1e9a10", version: 3 });

    const [payload, signature] = token.split(".");
    const forged = Buffer.from(
      JSON.stringify({ d: "0b6f0d7e-5c1e-4a57-9b7a-2d7c3f1e9a10", v: 4, e: Date.now() + 1e6 }),
    ).toString("base64url");
    expect(verifyPreviewToken(`${forged}.${signature}`)).toBeNull();
    expect(verifyPreviewToken(`${payload}.${signature}x`)).toBeNull();
    expect(verifyPreviewToken(`${payload}`)).toBeNull();
    expect(verifyPreviewToken("")).toBeNull();

    vi.useFakeTimers({ now: Date.now() + 61_000 });
    expect(verifyPreviewToken(token)).toBeNull();
  });
});

describe("html", () => {
  it("escapes text and keeps JSON from closing its script element", () => {
    expect(escapeHtml(`<a href="x">&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
    const script = jsonScript("x", { title: "</script><script>alert(1)</script>" });
    expect(script.match(/<\/script>/g)).toHaveLength(1);
    expect(JSON.parse(script.replace(/^<script[^>]*>|<\/script>$/g, ""))).toEqual({
      title: "</script><script>alert(1)</script>",
    });
  });
});
