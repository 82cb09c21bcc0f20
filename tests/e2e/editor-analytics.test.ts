import { describe, expect, it } from "vitest";
import { unwrap } from "@/lib/client";
import { apiOf, person, signUp } from "../helpers/app-session";
import { deckSource } from "../helpers/decks";
import { serverAndBrowser } from "../helpers/editor-suite";
import { viewerEventsUrl } from "../helpers/viewer-page";

// The editor's Analytics panel against `next start`: a view sent to the deck's share link shows in the
// panel's totals, its per-slide reach and the slides holding attention longest.

const { server, browser } = serverAndBrowser();

describe("the editor's Analytics panel", () => {
  it("shows a view of the share link: totals, reach per slide, the slide holding attention longest", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signUp(page, server.origin, person("Ana"));
    const api = await apiOf(page, server.origin, "analytics");
    const deck = unwrap(await api.api.POST("/decks", { body: { title: "Watched" } }));
    unwrap(
      await api.api.PUT("/decks/{id}/content", {
        params: { path: { id: deck.id } },
        body: { source: deckSource(["Cover", "Problem", "Ask"]) },
      }),
    );
    const published = unwrap(
      await api.api.PATCH("/decks/{id}", { params: { path: { id: deck.id } }, body: { visibility: "public" } }),
    );
    // A viewer's page reporting: slide 1 for 2 s, slide 2 for 9 s, leaving there.
    const sent = await fetch(await viewerEventsUrl(published.publicUrl!), {
      method: "POST",
      headers: {
        origin: server.origin,
        "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/147.0.0.0 Safari/537.36",
      },
      body: JSON.stringify({
        view: crypto.randomUUID(),
        source: "share",
        referrer: null,
        events: [
          { slide: 1, ms: 2000 },
          { slide: 2, ms: 9000 },
        ],
      }),
    });
    expect(sent.status).toBe(204);

    await page.goto(`${server.origin}/decks/${deck.id}`);
    await page.getByRole("button", { name: "Analytics" }).click();
    const panel = page.getByTestId("analytics-panel");
    await expect.poll(() => panel.textContent()).toContain("Unique viewers");
    // The slides' labels come from the editor's outline once its preview has compiled.
    await expect.poll(() => panel.textContent()).toContain("2. Problem9.0 s per view");
    const text = (await panel.textContent())!;
    expect(text).toMatch(/Views\s*1Unique viewers\s*1/);
    expect(text).toContain("2. Problem: reached by 1, 1 stopped here");
    await expect.poll(() => panel.locator("svg rect").count()).toBeGreaterThanOrEqual(30 + 3);
    await context.close();
  }, 120_000);
});
