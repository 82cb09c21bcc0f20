import fs from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { unwrap } from "@/lib/client";
import { apiOf, person, signUp } from "../helpers/app-session";
import { openCodePanel } from "../helpers/code-panel";
import { serverAndBrowser } from "../helpers/editor-suite";

// Live saves (issue 37, item 9) in a real Chromium against `next start`: a save made elsewhere (here through
// the API) appears in an open editor within seconds, both the author's own other tab and a colleague reading
// the deck ("Ada saved version 3"); Review shows the changed slides as pictures side by side with the code
// one click away, and Load puts the version on screen; with unsaved work, Review is the save conflict, whose
// default is the merge (it never replaces their work).

const { server, browser } = serverAndBrowser();
const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp/deckhand-shots";

fs.mkdirSync(SHOTS, { recursive: true });

const deckSource = (
  cover: string,
  market: string,
) => `import { Deck, Slide, Title, Heading, Text } from "@deckhand/player";

export default function Pitch() {
  return (
    <Deck>
      <Slide label="Cover" layout="center">
        <Title>${cover}</Title>
      </Slide>
      <Slide label="Market">
        <Heading>${market}</Heading>
        <Text>Warehouses first, then hospitals.</Text>
      </Slide>
    </Deck>
  );
}
`;

const preview = (page: Page) => page.frameLocator('iframe[title="Preview"]');
const code = (page: Page) => page.locator('[data-testid="editor-tsx"] .cm-content');

describe("live saves", () => {
  it("shows a save made elsewhere in the author's open editor and in a colleague's, with pictures of the change", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signUp(page, server.origin, person("Ada"));
    const api = await apiOf(page, server.origin, "live");
    const deck = unwrap(await api.api.POST("/decks", { body: { title: "Acme pitch" } }));
    const id = deck.id;
    await unwrapPut(api, id, deckSource("Acme robots", "A large market"));
    unwrap(await api.api.PATCH("/decks/{id}", { params: { path: { id } }, body: { visibility: "org" } }));

    await page.goto(`${server.origin}/decks/${id}`);
    await preview(page).getByText("A large market").first().waitFor({ state: "attached", timeout: 60_000 });

    // Saved elsewhere (the API): the open editor says so within seconds, without a reload.
    await unwrapPut(api, id, deckSource("Acme robots", "A huge market"));
    const notice = page.getByTestId("live-save");
    await notice.waitFor({ timeout: 30_000 });
    expect(await notice.textContent()).toContain("You saved version 2");

    // Review: the changed slide before and after, as pictures; the code one click away.
    await notice.getByRole("button", { name: "Review" }).click();
    const review = page.getByRole("dialog", { name: "Version 2" });
    const changed = review.getByRole("list", { name: "Changed slides" });
    await expect.poll(() => changed.getByRole("listitem").count()).toBe(1);
    expect(await changed.textContent()).toContain("Slide 2 · Market");
    await review.frameLocator('iframe[title="Slide 2 in version 1"]').getByText("A large market").waitFor();
    await review.frameLocator('iframe[title="Slide 2 in version 2"]').getByText("A huge market").waitFor();
    await review.screenshot({ path: `${SHOTS}/live-save-review.png` });
    await review.getByText("Show the code changes").click();
    expect(await review.getByTestId("conflict-diff").textContent()).toContain(
      "+         <Heading>A huge market</Heading>",
    );
    await review.getByRole("button", { name: "Load version 2" }).click();
    await preview(page).getByText("A huge market").first().waitFor({ state: "attached", timeout: 60_000 });
    await notice.waitFor({ state: "detached" });

    // A colleague reading the deck sees Ada's next save appear, and loads it.
    await page.goto(`${server.origin}/settings/members`);
    await page.getByRole("button", { name: "Create invitation link" }).click();
    const link = await page.getByTestId("invite-link").inputValue();
    const bobContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const bob = await bobContext.newPage();
    await bob.goto(link);
    await bob.getByRole("link", { name: "Create an account" }).click();
    const b = person("Bob");
    await bob.getByLabel("Name").fill(b.name);
    await bob.getByLabel("Email").fill(b.email);
    await bob.getByLabel("Password").fill(b.password);
    await bob.getByRole("button", { name: "Create account" }).click();
    await bob.waitForURL(link);
    await bob.getByRole("button", { name: /^Join as/ }).click();
    await bob.waitForURL(`${server.origin}/decks`);
    await bob.goto(`${server.origin}/decks/${id}`);
    await preview(bob).getByText("A huge market").first().waitFor({ state: "attached", timeout: 60_000 });

    await unwrapPut(api, id, deckSource("Acme robots", "The biggest market"));
    const bobNotice = bob.getByTestId("live-save");
    await bobNotice.waitFor({ timeout: 30_000 });
    expect(await bobNotice.textContent()).toContain("Ada saved version 3");
    await bob.screenshot({ path: `${SHOTS}/live-save-notice.png`, clip: { x: 0, y: 0, width: 1440, height: 140 } });
    await bobNotice.getByRole("button", { name: "Load" }).click();
    await preview(bob).getByText("The biggest market").first().waitFor({ state: "attached", timeout: 60_000 });
    await bobContext.close();

    // With unsaved work, Review is the save conflict: pictures of the slides that differ, and the merge
    // (the edits touch different slides) is the default choice.
    await page.goto(`${server.origin}/decks/${id}`);
    await preview(page).getByText("The biggest market").first().waitFor({ state: "attached", timeout: 60_000 });
    await openCodePanel(page);
    await code(page).click();
    await page.keyboard.press("Control+a");
    await page.keyboard.insertText(deckSource("Acme robots, Inc.", "The biggest market"));
    await unwrapPut(api, id, deckSource("Acme robots", "The biggest market of all"));
    await notice.waitFor({ timeout: 30_000 });
    expect(await notice.getByRole("button", { name: "Load" }).count()).toBe(0);
    await notice.getByRole("button", { name: "Review" }).click();
    const conflict = page.getByRole("dialog", { name: "This deck changed since you opened it" });
    const merge = conflict.getByRole("button", { name: "Merge" });
    await expect.poll(() => merge.isEnabled(), { timeout: 60_000 }).toBe(true);
    await expect
      .poll(() => conflict.getByRole("list", { name: "Changed slides" }).getByRole("listitem").count())
      .toBe(2);
    await conflict
      .frameLocator('iframe[title="Slide 2 in their version 4"]')
      .getByText("The biggest market of all")
      .waitFor();
    await conflict.screenshot({ path: `${SHOTS}/save-conflict.png` });
    await merge.click();
    await page.locator('[data-testid="editor-status"][data-kind="saved"]').waitFor({ timeout: 60_000 });
    const merged = unwrap(await api.api.GET("/decks/{id}", { params: { path: { id } } }));
    expect(merged.versionCount).toBe(5);
    expect(merged.latestVersion?.source).toContain("Acme robots, Inc.");
    expect(merged.latestVersion?.source).toContain("The biggest market of all");
    await context.close();
  }, 600_000);
});

async function unwrapPut(api: Awaited<ReturnType<typeof apiOf>>, id: string, source: string) {
  return unwrap(await api.api.PUT("/decks/{id}/content", { params: { path: { id } }, body: { source } }));
}
