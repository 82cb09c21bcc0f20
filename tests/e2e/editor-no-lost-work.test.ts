import type { Dialog, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { unwrap } from "@/lib/client";
import { apiOf, type Person, person, signUp } from "../helpers/app-session";
import { asksBeforeUnload } from "../helpers/browser";
import { deckSource } from "../helpers/decks";
import { serverAndBrowser } from "../helpers/editor-suite";
import { openCodePanel } from "../helpers/code-panel";

// No lost work and no silent overwrites in the browser editor, and what a colleague who may only read a
// deck sees, in a real Chromium against `next start` (issue 19, items 5-7): the typed draft restored after
// a reload (and discarded), Back asking first, the save-conflict dialog's three ways out (merge, keep mine,
// take theirs) between two browser contexts of one author, and a member reading, presenting and
// duplicating an owner's deck while the owner sees them in the deck.

const { server, browser } = serverAndBrowser();

async function signIn(page: Page, who: Person) {
  await page.goto(`${server.origin}/sign-in`);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${server.origin}/decks`);
}

type Api = Awaited<ReturnType<typeof apiOf>>;

async function deckWith(api: Api, title: string, source: string) {
  const deck = unwrap(await api.api.POST("/decks", { body: { title } }));
  unwrap(await api.api.PUT("/decks/{id}/content", { params: { path: { id: deck.id } }, body: { source } }));
  return deck.id;
}

async function versionSource(api: Api, id: string, version: number) {
  return unwrap(await api.api.GET("/decks/{id}/versions/{version}", { params: { path: { id, version } } })).source;
}

async function versionNumbers(api: Api, id: string) {
  return unwrap(await api.api.GET("/decks/{id}/versions", { params: { path: { id } } })).map((v) => v.version);
}

async function waitForStatus(page: Page, kind: "ok" | "error" | "saved") {
  await page.locator(`[data-testid="editor-status"][data-kind="${kind}"]`).waitFor({ timeout: 60_000 });
}

const code = (page: Page) => page.locator('[data-testid="editor-tsx"] .cm-content');

// Replaces the whole source the way a person would and waits for the compile (the autosave) of it.
async function replaceSource(page: Page, source: string) {
  const status = page.getByTestId("editor-status");
  const before = Number(await status.getAttribute("data-answered"));
  await openCodePanel(page);
  await code(page).click();
  await page.keyboard.press("Control+a");
  await page.keyboard.insertText(source);
  await page.waitForFunction(
    (n) => Number(document.querySelector('[data-testid="editor-status"]')?.getAttribute("data-answered")) > n,
    before,
    { timeout: 60_000 },
  );
}

// The next browser dialog (confirm, beforeunload) accepted or dismissed; resolves with its type, or with
// "none" when no dialog came within 30 s (so a missing prompt fails its expectation, not the test's time).
function answerDialog(page: Page, accept: boolean): Promise<string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      page.off("dialog", answer);
      resolve("none");
    }, 30_000);
    const answer = (dialog: Dialog) => {
      clearTimeout(timer);
      resolve(dialog.type());
      void (accept ? dialog.accept() : dialog.dismiss());
    };
    page.once("dialog", answer);
  });
}

// A reload with unsaved typing: the page asks first (see asksBeforeUnload), and the reload accepts.
async function reloadAskingFirst(page: Page) {
  expect(await asksBeforeUnload(page), "the page asks before a reload").toBe(true);
  const accept = (dialog: Dialog) => void dialog.accept();
  page.on("dialog", accept);
  await page.reload();
  page.off("dialog", accept);
}

describe("no lost work", () => {
  it("restores the typed draft after a reload, even one that does not compile, until saved or discarded; Back asks first", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signUp(page, server.origin, person("Drafter"));
    const api = await apiOf(page, server.origin);
    const id = await deckWith(api, "Draft deck", deckSource(["Opening"]));

    // Opened from the library (an in-app navigation, so Back does not unload the page).
    await page.goto(`${server.origin}/decks`);
    await page
      .getByRole("link", { name: /Draft deck/ })
      .first()
      .click();
    await page.waitForURL(`${server.origin}/decks/${id}`);
    await waitForStatus(page, "ok");
    expect(await page.getByTestId("draft-restored").count()).toBe(0);

    // Typing that does not compile is still kept; a reload (confirmed) brings it back with a notice.
    const broken = deckSource(["Half typed"]).replace("</Title>", "</Titel>");
    await replaceSource(page, broken);
    await waitForStatus(page, "error");
    await reloadAskingFirst(page);
    await page.getByTestId("draft-restored").waitFor();
    expect(await page.getByTestId("draft-restored").textContent()).toMatch(
      /^Restored your unsaved draft from .+ · Discard/,
    );
    await expect.poll(() => code(page).textContent()).toContain("</Titel>");

    // Fixed and saved: the version is what was typed, and nothing is left to restore.
    const fixed = deckSource(["Half typed, fixed"]);
    await replaceSource(page, fixed);
    await waitForStatus(page, "ok");
    await page.getByRole("button", { name: "Save version" }).click();
    await page.getByText("Saved as version 2").waitFor();
    await expect.poll(() => page.getByTestId("draft-restored").count()).toBe(0);
    expect(await versionSource(api, id, 2)).toBe(fixed);
    await page.reload();
    await waitForStatus(page, "ok");
    expect(await page.getByTestId("draft-restored").count()).toBe(0);

    // Typed again, reloaded, discarded: back to version 2, and a reload restores nothing.
    await replaceSource(page, deckSource(["Thrown away"]));
    await waitForStatus(page, "ok");
    await reloadAskingFirst(page);
    await page.getByTestId("draft-restored").waitFor();
    await expect.poll(() => code(page).textContent()).toContain("Thrown away");
    // Discard asks in the app's dialog: Cancel keeps the draft, "Discard draft" goes back to the version.
    await page.getByTestId("draft-restored").getByRole("button", { name: "Discard" }).click();
    const asked = page.getByRole("dialog", { name: "Discard your unsaved draft?" });
    await asked.getByRole("button", { name: "Cancel", exact: true }).click();
    await expect.poll(() => asked.count()).toBe(0);
    expect(await code(page).textContent()).toContain("Thrown away");
    await page.getByTestId("draft-restored").getByRole("button", { name: "Discard" }).click();
    await asked.getByRole("button", { name: "Discard draft", exact: true }).click();
    await expect.poll(() => code(page).textContent()).toContain("Half typed, fixed");
    await expect.poll(() => page.getByTestId("draft-restored").count()).toBe(0);
    await waitForStatus(page, "ok");
    await page.reload();
    await waitForStatus(page, "ok");
    expect(await page.getByTestId("draft-restored").count()).toBe(0);
    expect(await versionNumbers(api, id)).toEqual([2, 1]);

    // A draft typed on version 2 while version 3 is written elsewhere: restored, it says so, and saving it
    // meets the conflict dialog rather than overwriting version 3.
    await replaceSource(page, deckSource(["Typed on version 2"]));
    await waitForStatus(page, "ok");
    unwrap(
      await api.api.PUT("/decks/{id}/content", { params: { path: { id } }, body: { source: deckSource(["V3"]) } }),
    );
    await reloadAskingFirst(page);
    await expect
      .poll(() => page.getByTestId("draft-restored").textContent())
      .toContain("based on version 2; version 3 was saved since");
    await waitForStatus(page, "ok");
    await page.getByRole("button", { name: "Save version" }).click();
    const conflict = page.getByRole("dialog", { name: "This deck changed since you opened it" });
    await conflict.getByRole("button", { name: "Keep mine as a new version" }).click();
    await page.getByText("Saved as version 4").waitFor();
    expect(await versionSource(api, id, 4)).toBe(deckSource(["Typed on version 2"]));

    // Back to the library with unsaved typing asks first: staying keeps the page and the text, leaving
    // goes back. (Reached by a link, so Next.js handles Back without unloading.)
    await page.goto(`${server.origin}/decks`);
    await page
      .getByRole("link", { name: /Draft deck/ })
      .first()
      .click();
    await page.waitForURL(`${server.origin}/decks/${id}`);
    await waitForStatus(page, "ok");
    await replaceSource(page, deckSource(["Not saved, going back"]));
    const stay = answerDialog(page, false);
    await page.goBack({ timeout: 5_000 }).catch(() => {});
    expect(await stay).toBe("confirm");
    expect(page.url()).toBe(`${server.origin}/decks/${id}`);
    await expect.poll(() => code(page).textContent()).toContain("Not saved, going back");
    const leave = answerDialog(page, true);
    await page.goBack({ timeout: 5_000 }).catch(() => {});
    expect(await leave).toBe("confirm");
    // Asked once: no reload prompt after it, whether Back stays in the app or leaves the document.
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.type());
      void dialog.accept();
    });
    await page.waitForURL(`${server.origin}/decks`);
    await page
      .getByRole("link", { name: /Draft deck/ })
      .first()
      .waitFor();
    expect(dialogs).toEqual([]);
    await context.close();
  }, 240_000);
});

describe("saving while typing", () => {
  it("keeps what is typed while a save is on its way, and Ctrl+Z still undoes what was typed before it", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signUp(page, server.origin, person("Typist"));
    const api = await apiOf(page, server.origin);
    const id = await deckWith(api, "Typing deck", deckSource(["Opening"]));
    await page.goto(`${server.origin}/decks/${id}`);
    await waitForStatus(page, "ok");

    // The save's server action (the one that sends a version note, `prompt`) is held until the typing
    // below is done, so the typing certainly happens while the save is on its way.
    let release!: () => void;
    const typed = new Promise<void>((resolve) => (release = resolve));
    await page.route(`${server.origin}/decks/${id}`, async (route) => {
      const request = route.request();
      if (request.method() === "POST" && (request.postData() ?? "").includes('"prompt"')) await typed;
      await route.continue();
    });
    await openCodePanel(page);
    await code(page).click();
    await page.keyboard.press("Control+End");
    await page.keyboard.insertText("\n// before the save");
    // Ctrl+S in the code, and typing on.
    await page.keyboard.press("Control+s");
    await page.getByText("Saving…").waitFor();
    await page.keyboard.insertText("\n// while saving");
    release();
    await page.getByText("Saved as version 2").waitFor();

    expect(await versionSource(api, id, 2)).toContain("// before the save");
    expect(await versionSource(api, id, 2)).not.toContain("// while saving");
    await expect.poll(() => code(page).textContent()).toContain("// before the save// while saving");
    // Still unsaved: the save button offers the rest.
    expect(await page.getByRole("button", { name: "Save version" }).isEnabled()).toBe(true);
    // One history across the save: undo takes back the typing after it, then the typing before it.
    await openCodePanel(page);
    await code(page).click();
    await page.keyboard.press("Control+z");
    await expect.poll(() => code(page).textContent()).not.toContain("// while saving");
    await page.keyboard.press("Control+z");
    await expect.poll(() => code(page).textContent()).not.toContain("// before the save");
    await context.close();
  }, 240_000);
});

describe("no silent overwrites", () => {
  it("shows the second tab the conflict with the difference, and merges, keeps mine or takes theirs", async () => {
    const author = person("Twotabs");
    const a = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const b = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const tabA = await a.newPage();
    const tabB = await b.newPage();
    await signUp(tabA, server.origin, author);
    await signIn(tabB, author);
    const api = await apiOf(tabA, server.origin);
    const id = await deckWith(api, "Two tabs", deckSource(["Alpha", "Beta", "Gamma"]));
    for (const page of [tabA, tabB]) {
      await page.goto(`${server.origin}/decks/${id}`);
      await waitForStatus(page, "ok");
    }
    const save = async (page: Page) => {
      await waitForStatus(page, "ok");
      await page.getByRole("button", { name: "Save version" }).click();
    };
    const dialog = (page: Page) => page.getByRole("dialog", { name: "This deck changed since you opened it" });

    // A saves version 2 (slide Alpha); B, still on version 1, edits slide Gamma: the conflict, with the
    // difference between version 2 and B's text, and a merge on offer since the slides differ.
    await replaceSource(tabA, deckSource(["Alpha by A", "Beta", "Gamma"]));
    await save(tabA);
    await tabA.getByText("Saved as version 2").waitFor();
    await replaceSource(tabB, deckSource(["Alpha", "Beta", "Gamma by B"]));
    await save(tabB);
    await dialog(tabB).waitFor();
    await expect
      .poll(() => tabB.getByTestId("conflict-diff").textContent())
      .toContain("+         <Title>Gamma by B</Title>");
    expect(await tabB.getByTestId("conflict-diff").textContent()).toContain("-         <Title>Alpha by A</Title>");
    expect(await versionNumbers(api, id)).toEqual([2, 1]);
    const merge = dialog(tabB).getByRole("button", { name: "Merge" });
    await expect.poll(() => merge.isEnabled()).toBe(true);
    await merge.click();
    await tabB.getByText("Saved as version 3").waitFor();
    expect(await versionSource(api, id, 3)).toBe(deckSource(["Alpha by A", "Beta", "Gamma by B"]));
    await expect.poll(() => code(tabB).textContent()).toContain("Alpha by A");

    // A (on version 2) saves again: conflict with version 3; "Keep mine" writes A's text as version 4.
    const fromA = deckSource(["Alpha by A", "Beta by A", "Gamma"]);
    await replaceSource(tabA, fromA);
    await save(tabA);
    await dialog(tabA).waitFor();
    await dialog(tabA).getByRole("button", { name: "Keep mine as a new version" }).click();
    await tabA.getByText("Saved as version 4").waitFor();
    expect(await versionSource(api, id, 4)).toBe(fromA);

    // B (on version 3) edits Beta too: no merge (both changed Beta); "Take theirs" asks, then loads
    // version 4 into B's editor and writes nothing.
    await replaceSource(tabB, deckSource(["Alpha by A", "Beta by B", "Gamma by B"]));
    await save(tabB);
    await dialog(tabB).waitFor();
    await expect.poll(() => tabB.getByTestId("merge-refused").textContent()).toContain("“Beta by B”");
    expect(await dialog(tabB).getByRole("button", { name: "Merge" }).isDisabled()).toBe(true);
    const asked = answerDialog(tabB, true);
    await dialog(tabB).getByRole("button", { name: "Take theirs" }).click();
    expect(await asked).toBe("confirm");
    await tabB.getByText("Loaded version 4").waitFor();
    await expect.poll(() => code(tabB).textContent()).toContain("Beta by A");
    expect(await code(tabB).textContent()).not.toContain("Beta by B");
    expect(await versionNumbers(api, id)).toEqual([4, 3, 2, 1]);
    // B is now based on version 4: its next save goes through.
    await replaceSource(tabB, deckSource(["Alpha by A", "Beta by A", "Gamma after"]));
    await save(tabB);
    await tabB.getByText("Saved as version 5").waitFor();
    await a.close();
    await b.close();
  }, 240_000);
});

describe("members who may read a deck", () => {
  it("see the preview, slides, notes and history, present it and duplicate it; the owner sees them there", async () => {
    const owner = person("Owner");
    const ownerContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const ownerPage = await ownerContext.newPage();
    await signUp(ownerPage, server.origin, owner);
    const api = await apiOf(ownerPage, server.origin);
    const source = `import { Deck, Slide, Title } from "@deckhand/player";

export default function Presentation() {
  return (
    <Deck>
      <Slide label="Welcome" notes="Say hello before anything else.">
        <Title>Welcome</Title>
      </Slide>
      <Slide label="Numbers" notes="The numbers went up this quarter.">
        <Title>Numbers</Title>
      </Slide>
    </Deck>
  );
}
`;
    const id = await deckWith(api, "Quarterly review", source);
    unwrap(await api.api.PATCH("/decks/{id}", { params: { path: { id } }, body: { visibility: "org" } }));

    // The member joins the owner's organization by an invitation link.
    await ownerPage.goto(`${server.origin}/settings/members`);
    await ownerPage.getByRole("button", { name: "Create invitation link" }).click();
    const link = await ownerPage.getByTestId("invite-link").inputValue();
    const member = person("Member");
    const memberContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await memberContext.newPage();
    await page.goto(link);
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.getByLabel("Name").fill(member.name);
    await page.getByLabel("Email").fill(member.email);
    await page.getByLabel("Password").fill(member.password);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(link);
    await page.getByRole("button", { name: /^Join as/ }).click();
    await page.waitForURL(`${server.origin}/decks`);

    // Read-only: the newest version's preview, its slides by label, the slide's notes, the history.
    await page.goto(`${server.origin}/decks/${id}`);
    await page.getByText("Only the deck's owner edits it").waitFor();
    const outline = page.getByRole("navigation", { name: "Outline" });
    await expect.poll(() => outline.getByRole("button").allTextContents()).toEqual(["1Welcome", "2Numbers"]);
    await expect
      .poll(() => page.locator('iframe[title="Preview"]').getAttribute("src"))
      .toMatch(/\/preview\/.+\/frame\?chrome=0&slide=1$/);
    await expect.poll(() => page.getByTestId("speaker-notes").textContent()).toBe("Say hello before anything else.");
    await outline.getByRole("button", { name: /Numbers/ }).click();
    await expect.poll(() => page.getByTestId("speaker-notes").textContent()).toBe("The numbers went up this quarter.");
    expect(await page.getByRole("button", { name: "Save version" }).count()).toBe(0);
    expect(await code(page).getAttribute("aria-readonly")).toBe("true");

    // The owner opens the deck and sees the member there (the member's heartbeat is seconds old).
    await ownerPage.goto(`${server.origin}/decks/${id}`);
    await expect.poll(() => ownerPage.getByTestId("presence").textContent()).toContain("Member");

    await page.getByRole("button", { name: /^History/ }).click();
    await expect.poll(() => page.getByTestId("history").locator("[data-version]").count()).toBe(1);
    expect(await page.getByRole("button", { name: /Revert/ }).count()).toBe(0);

    // Present opens the newest version's present mode.
    const opened = memberContext.waitForEvent("page");
    await page.getByRole("button", { name: "Present" }).click();
    const presentation = await opened;
    await presentation.waitForLoadState();
    expect(presentation.url()).toMatch(/\/preview\/.+\/(view|presenter)(#\d+)?$/);

    // Duplicate to my decks: a deck of the member's own with this content, opened in the editor.
    await page.getByRole("button", { name: "Duplicate to my decks" }).click();
    await page.waitForURL((url) => /\/decks\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(id));
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Quarterly review (copy)");
    await page.getByRole("button", { name: "Save version" }).waitFor();
    await expect.poll(() => code(page).textContent()).toContain("Say hello before anything else.");
    await ownerContext.close();
    await memberContext.close();
  }, 240_000);
});
