import { describe, expect, it } from "vitest";
import { mintUnlockToken, UNLOCK_TTL_SECONDS, unlockTokenOf, verifyUnlockToken } from "@/lib/viewer/link-access";

// The unlock of a password link: signed, bound to the slug and to the password's hash, expiring.

const hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g";

describe("unlock tokens", () => {
  it("verify for their link and password only, until they expire", () => {
    const now = Date.UTC(2026, 10, 26, 12);
    const token = mintUnlockToken("abcdefghjk23", hash, now);
    expect(verifyUnlockToken(token, "abcdefghjk23", hash, now)).toBe(true);
    expect(verifyUnlockToken(token, "abcdefghjk24", hash, now)).toBe(false);
    expect(verifyUnlockToken(token, "abcdefghjk23", `${hash}x`, now)).toBe(false);
    expect(verifyUnlockToken(token, "abcdefghjk23", hash, now + UNLOCK_TTL_SECONDS * 1000 + 1)).toBe(false);
    const [expires, signature] = token.split(".");
    expect(verifyUnlockToken(`${Number(expires) + 3600}.${signature}`, "abcdefghjk23", hash, now)).toBe(false);
    expect(verifyUnlockToken(`${expires}.${"A".repeat(43)}`, "abcdefghjk23", hash, now)).toBe(false);
    for (const bad of [null, undefined, "", "garbage", `${expires}.`, `.${signature}`]) {
      expect(verifyUnlockToken(bad, "abcdefghjk23", hash, now)).toBe(false);
    }
  });

  it("are read from ?unlock= or the link's cookie", () => {
    expect(unlockTokenOf(new Request("http://x/d/abc123/module/1?unlock=1.2"), "abc123")).toBe("1.2");
    const withCookie = new Request("http://x/d/abc123", { headers: { cookie: "a=b; dh_unlock_abc123=9.sig; c=d" } });
    expect(unlockTokenOf(withCookie, "abc123")).toBe("9.sig");
    expect(unlockTokenOf(withCookie, "abc124")).toBeNull();
  });
});
