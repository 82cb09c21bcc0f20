import fs from "node:fs";
import type { Page, Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import { unwrap } from "@/lib/client";
import { apiOf, person, signUp } from "../helpers/app-session";
import { openCodePanel } from "../helpers/code-panel";
import { serverAndBrowser } from "../helpers/editor-suite";

// Live saves (issue 37, item 9) in a real Chromium against `next start`: a save made elsewhere (here through
// the API) appears in an open editor within seconds, both the author's own other tab and a colleague reading
// the deck ("Ada saved version 3"); Review shows the changed slides as pictures side by side with the code
// one click away, and Load puts the version on screen; with unsaved work, Review is the save conflict, whose
// default is the merge (it never replaces their work). What is typed while Load reads the version, or while
// the merge is saved, is never replaced, and a second Ctrl+S during a save sends nothing.

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
    // Nothing was saved: the editor says the version was loaded.
    await expect.poll(() => page.getByTestId("editor-status").textContent()).toBe("Loaded version 2");

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

    // Typing while Load reads the version: the typing stays, and Load becomes the save conflict, showing
    // pictures of the slides that differ; the merge (the edits touch different slides) is the default.
    await page.goto(`${server.origin}/decks/${id}`);
    await preview(page).getByText("The biggest market").first().waitFor({ state: "attached", timeout: 60_000 });
    await openCodePanel(page);
    await unwrapPut(api, id, deckSource("Acme robots", "The biggest market of all"));
    await notice.waitFor({ timeout: 30_000 });
    const read = await holdAction(page, (body) => body.includes('"version":"4"'));
    await notice.getByRole("button", { name: "Load" }).click();
    await read.arrived;
    await code(page).click();
    await page.keyboard.press("Control+a");
    await page.keyboard.insertText(deckSource("Acme robots, Inc.", "The biggest market"));
    await read.release();
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
    // Yours are pictures of what is typed, not of an earlier compile.
    await conflict.frameLocator('iframe[title="Slide 1 in yours"]').getByText("Acme robots, Inc.").waitFor();
    await conflict.screenshot({ path: `${SHOTS}/save-conflict.png` });

    // Typing while the merge is saved: the typing stays, merged onto the saved version.
    const mergeSave = await holdAction(page, (body) => body.includes('"prompt"'));
    await merge.click();
    await mergeSave.arrived;
    await code(page).click();
    await page.keyboard.press("Control+a");
    await page.keyboard.insertText(deckSource("Acme robots, Inc. (typed while saving)", "The biggest market"));
    await mergeSave.release();
    await page.locator('[data-testid="editor-status"][data-kind="saved"]').waitFor({ timeout: 60_000 });
    const merged = unwrap(await api.api.GET("/decks/{id}", { params: { path: { id } } }));
    expect(merged.versionCount).toBe(5);
    expect(merged.latestVersion?.source).toContain("Acme robots, Inc.");
    expect(merged.latestVersion?.source).toContain("The biggest market of all");
    await expect.poll(() => code(page).textContent()).toContain("Acme robots, Inc. (typed while saving)");
    expect(await code(page).textContent()).toContain("The biggest market of all");

    // Ctrl+S twice while a save is on its way: one save (a second would carry the old base: a false conflict).
    // First the preview catches up with the merged typing (Save waits while compiling).
    await preview(page)
      .getByText("Acme robots, Inc. (typed while saving)")
      .first()
      .waitFor({ state: "attached", timeout: 60_000 });
    await preview(page).getByText("The biggest market of all").first().waitFor({ state: "attached", timeout: 60_000 });
    const saves = await holdAction(page, (body) => body.includes('"prompt"'));
    await page.keyboard.press("Control+s");
    await saves.arrived;
    await page.keyboard.press("Control+s");
    await saves.release();
    await expect.poll(() => page.getByTestId("editor-status").textContent()).toBe("Saved as version 6");
    expect(saves.count()).toBe(1);
    expect(await page.getByTestId("save-conflict").count()).toBe(0);
    await context.close();
  }, 600_000);
});

/** Holds the editor's next server action whose request body `matches` until released; counts the matches. */
async function holdAction(page: Page, matches: (body: string) => boolean) {
  let count = 0;
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  const handler = async (route: Route) => {
    const request = route.request();
    if (request.method() === "POST" && request.headers()["next-action"] && matches(request.postData() ?? "")) {
      count++;
      arrive();
      await opened;
    }
    await route.fallback();
  };
  await page.route("**/decks/*", handler);
  return {
    arrived,
    count: () => count,
    release: async () => {
      open();
      await page.unroute("**/decks/*", handler);
    },
  };
}

async function unwrapPut(api: Awaited<ReturnType<typeof apiOf>>, id: string, source: string) {
  return unwrap(await api.api.PUT("/decks/{id}/content", { params: { path: { id } }, body: { source } }));
}
