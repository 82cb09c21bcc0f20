import { describe, expect, it } from "vitest";
import type { Caller } from "@/lib/auth/caller";
import { canReadDeck } from "@/lib/decks/access";

// canReadDeck is the one rule of who may read a deck by id (lib/decks/access.ts): inside its organization
// by visibility; outside it only a public deck whose share link is open (no password, not expired).

const now = new Date(Date.UTC(2026, 10, 28, 12));
const org = "1b0c6a6e-4f7a-4c39-9d6f-1d2f3a4b5c6d";
const owner: Caller = { organizationId: org, userId: "2b0c6a6e-4f7a-4c39-9d6f-1d2f3a4b5c6d", apiKeyId: null };
const colleague: Caller = { organizationId: org, userId: "3b0c6a6e-4f7a-4c39-9d6f-1d2f3a4b5c6d", apiKeyId: null };
const outsider: Caller = {
  organizationId: "4b0c6a6e-4f7a-4c39-9d6f-1d2f3a4b5c6d",
  userId: "5b0c6a6e-4f7a-4c39-9d6f-1d2f3a4b5c6d",
  apiKeyId: "6b0c6a6e-4f7a-4c39-9d6f-1d2f3a4b5c6d",
};

type Link = { sharePasswordHash: string | null; shareExpiresAt: Date | null };
const open: Link = { sharePasswordHash: null, shareExpiresAt: null };
const locked: Link = { sharePasswordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA", shareExpiresAt: null };
const expired: Link = { sharePasswordHash: null, shareExpiresAt: new Date(now.getTime() - 1) };
const expiresNow: Link = { sharePasswordHash: null, shareExpiresAt: now };
const expiresLater: Link = { sharePasswordHash: null, shareExpiresAt: new Date(now.getTime() + 1) };

const deck = (visibility: "private" | "org" | "public", link: Link) => ({
  organizationId: org,
  ownerId: owner.userId,
  visibility,
  ...link,
});

describe("canReadDeck", () => {
  it("lets another organization read a public deck only while its link is open", () => {
    expect(canReadDeck(deck("public", open), outsider, now)).toBe(true);
    expect(canReadDeck(deck("public", expiresLater), outsider, now)).toBe(true);
    expect(canReadDeck(deck("public", locked), outsider, now)).toBe(false);
    expect(canReadDeck(deck("public", expired), outsider, now)).toBe(false);
    // Expired from the instant of the expiry on, as the share page decides (share_expires_at > now()).
    expect(canReadDeck(deck("public", expiresNow), outsider, now)).toBe(false);
    expect(canReadDeck(deck("public", { ...locked, shareExpiresAt: expiresLater.shareExpiresAt }), outsider, now)).toBe(
      false,
    );
  });

  it("never lets another organization read a private or org deck, open link or not", () => {
    for (const link of [open, locked, expired]) {
      expect(canReadDeck(deck("private", link), outsider, now)).toBe(false);
      expect(canReadDeck(deck("org", link), outsider, now)).toBe(false);
    }
  });

  it("changes nothing inside the organization: a password or an expiry only guards the link", () => {
    for (const link of [open, locked, expired]) {
      expect(canReadDeck(deck("public", link), owner, now)).toBe(true);
      expect(canReadDeck(deck("public", link), colleague, now)).toBe(true);
      expect(canReadDeck(deck("org", link), colleague, now)).toBe(true);
      expect(canReadDeck(deck("private", link), owner, now)).toBe(true);
      expect(canReadDeck(deck("private", link), colleague, now)).toBe(false);
    }
  });
});
