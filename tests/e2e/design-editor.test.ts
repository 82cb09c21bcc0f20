import type { BrowserContext, FrameLocator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { type createDeckhandClient, unwrap } from "@/lib/client";
import { setSlideNotes } from "@/lib/source/transform/edit";
import { removeElement } from "@/lib/source/transform/elements";
import { elementsOfSlide } from "@/lib/source/transform/props";
import { apiOf, person, signUp } from "../helpers/app-session";
import { serverAndBrowser } from "../helpers/editor-suite";
import { openCodePanel } from "../helpers/code-panel";

// The design-first editor (issue 37) in a real Chromium against `next start`, as a person who does not
// write code would use it: Present plays what is on screen (unsaved changes included) from the slide on
// screen; speaker notes typed under the preview are one change of the source, undone as one; Undo and Redo
// work from anywhere in the editor, in the code's history; the inspector removes the selected element.

const { server, browser } = serverAndBrowser();

const SOURCE = `import { Deck, Slide, Title, Heading, Bullets } from "@deckhand/player";

export default function Pitch() {
  return (
    <Deck>
      <Slide label="Cover" layout="center">
        <Title subtitle="Seed round">Acme robots</Title>
      </Slide>
      <Slide label="Market">
        <Heading>Market size</Heading>
        <Bullets items={["Warehouses first", "Then hospitals"]} />
      </Slide>
    </Deck>
  );
}
`;

type Session = { context: BrowserContext; page: Page; api: ReturnType<typeof createDeckhandClient> };

async function signUpWithKey(name: string): Promise<Session> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await signUp(page, server.origin, person(name));
  return { context, page, api: await apiOf(page, server.origin, "design") };
}

async function openDeck({ page, api }: Session, source: string): Promise<string> {
  const deck = unwrap(await api.api.POST("/decks", { body: { title: "Design" } }));
  unwrap(await api.api.PUT("/decks/{id}/content", { params: { path: { id: deck.id } }, body: { source } }));
  await page.goto(`${server.origin}/decks/${deck.id}`);
  await waitForStatus(page, "ok");
  return deck.id;
}

async function waitForStatus(page: Page, kind: "ok" | "saved") {
  await page.locator(`[data-testid="editor-status"][data-kind="${kind}"]`).waitFor({ timeout: 60_000 });
}

// The frame on screen (a new compile loads behind it, titled "Preview (loading)").
function preview(page: Page): FrameLocator {
  return page.frameLocator('iframe[title="Preview"]');
}

function rail(page: Page) {
  return page.getByRole("navigation", { name: "Outline" });
}

// Clicks a text on the preview, types over it and commits with Enter.
async function editOnPreview(page: Page, selector: string, old: string, next: string) {
  const target = preview(page).locator(selector, { hasText: old }).first();
  await target.click();
  await expect.poll(() => target.getAttribute("contenteditable")).toBe("plaintext-only");
  await page.keyboard.press("Control+a");
  await page.keyboard.insertText(next);
  await page.keyboard.press("Enter");
}

// What CodeMirror holds: the editor's source state, read from its view.
async function codeText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const content = document.querySelector('[data-testid="editor-tsx"] .cm-content') as
      (Element & { cmTile?: { root?: { view?: { state: { doc: { toString(): string } } } } } }) | null;
    return content?.cmTile?.root?.view?.state.doc.toString() ?? "";
  });
}

async function save(page: Page, api: Session["api"], deckId: string): Promise<string> {
  await waitForStatus(page, "ok");
  await page.getByRole("button", { name: "Save version" }).click();
  await waitForStatus(page, "saved");
  const versions = unwrap(await api.api.GET("/decks/{id}/versions", { params: { path: { id: deckId } } }));
  const newest = Math.max(...versions.map((entry) => entry.version));
  const version = unwrap(
    await api.api.GET("/decks/{id}/versions/{version}", { params: { path: { id: deckId, version: newest } } }),
  );
  return version.source ?? "";
}

async function versionCount(api: Session["api"], deckId: string): Promise<number> {
  return unwrap(await api.api.GET("/decks/{id}/versions", { params: { path: { id: deckId } } })).length;
}

describe("Present", () => {
  it("plays what is on screen, unsaved changes included, from the slide on screen, and the presenter window likewise", async () => {
    const session = await signUpWithKey("Presenter");
    const { context, page, api } = session;
    const deckId = await openDeck(session, SOURCE);

    // A heading changed in place and a slide added from the gallery, neither saved.
    await rail(page)
      .getByRole("button", { name: /Market/ })
      .first()
      .click();
    await editOnPreview(page, ".dh-heading-text", "Market size", "Total market");
    await preview(page).locator(".dh-heading-text", { hasText: "Total market" }).waitFor();
    await rail(page).getByRole("button", { name: "Add slide" }).click();
    await page
      .getByRole("dialog", { name: "Add a slide" })
      .getByRole("button", { name: /^Stats/ })
      .click();
    await preview(page).locator(".dh-heading-text", { hasText: "The numbers that matter" }).waitFor();
    await expect.poll(() => rail(page).locator('[data-testid="rail-slide"]').count()).toBe(3);

    // Back on slide 2, Present: both windows open there, on the draft.
    await rail(page)
      .getByRole("button", { name: /Market/ })
      .first()
      .click();
    const opened: Page[] = [];
    context.on("page", (p) => opened.push(p));
    await page.getByRole("button", { name: "Present" }).click();
    await expect.poll(() => opened.length).toBe(2);
    const [viewer, presenter] = [...opened].sort((a) => (/\/view(#\d+)?$/.test(a.url()) ? -1 : 1));
    expect(viewer!.url()).toMatch(/\/preview\/[^/]+\/view#2$/);
    expect(presenter!.url()).toMatch(/\/preview\/[^/]+\/presenter#2$/);
    const shown = viewer!.frameLocator("#dh-frame");
    await shown.locator(".dh-heading-text:visible", { hasText: "Total market" }).waitFor({ timeout: 30_000 });
    await presenter!
      .frameLocator("#dh-current")
      .locator(".dh-heading-text:visible", { hasText: "Total market" })
      .waitFor({ timeout: 30_000 });
    // The next slide is the new one, in the presenter's preview of it and on the page after an arrow key.
    await presenter!
      .frameLocator("#dh-next")
      .locator(".dh-heading-text:visible", { hasText: "The numbers that matter" })
      .waitFor({ timeout: 30_000 });
    await viewer!.bringToFront();
    await viewer!.keyboard.press("ArrowRight");
    await shown.locator(".dh-heading-text:visible", { hasText: "The numbers that matter" }).waitFor();

    // Nothing was saved: the deck still has its one version, and the editor still has the change to save.
    expect(await versionCount(api, deckId)).toBe(1);
    expect(await page.getByRole("button", { name: "Save version" }).isEnabled()).toBe(true);
    await context.close();
  }, 240_000);
});

describe("speaker notes", () => {
  it("are typed under the preview for the slide on screen: one change of the source, undone and redone as one", async () => {
    const session = await signUpWithKey("Notes");
    const { page, api } = session;
    const deckId = await openDeck(session, SOURCE);
    await rail(page)
      .getByRole("button", { name: /Market/ })
      .first()
      .click();
    const field = page.getByLabel("Speaker notes · slide 2");
    expect(await field.inputValue()).toBe("");

    // Typed, then left: one change, written when the field is left.
    await field.click();
    await page.keyboard.type("Start with warehouses");
    expect(await codeText(page)).toBe(SOURCE);
    await page.keyboard.press("Tab");
    const written = setSlideNotes(SOURCE, "slides", 1, "Start with warehouses");
    expect(written).toContain('<Slide label="Market" notes="Start with warehouses">');
    await expect.poll(() => codeText(page)).toBe(written);

    // Another slide has its own notes (none); back on slide 2 the notes are there.
    await rail(page).getByRole("button", { name: /Cover/ }).first().click();
    expect(await page.getByLabel("Speaker notes · slide 1").inputValue()).toBe("");
    await rail(page)
      .getByRole("button", { name: /Market/ })
      .first()
      .click();
    expect(await page.getByLabel("Speaker notes · slide 2").inputValue()).toBe("Start with warehouses");

    // One undo step in the code's history takes the whole note away; redo puts it back.
    await openCodePanel(page);
    await page.locator('[data-testid="editor-tsx"] .cm-content').focus();
    await page.keyboard.press("Control+z");
    await expect.poll(() => codeText(page)).toBe(SOURCE);
    await expect.poll(() => page.getByLabel("Speaker notes · slide 2").inputValue()).toBe("");
    await page.keyboard.press("Control+Shift+z");
    await expect.poll(() => codeText(page)).toBe(written);

    expect(await save(page, api, deckId)).toBe(written);
    await session.context.close();
  }, 180_000);

  it("are not made up for a new deck: the starter's slides have none", async () => {
    const session = await signUpWithKey("Starter");
    const { page, api } = session;
    const deck = unwrap(await api.api.POST("/decks", { body: { title: "Fresh" } }));
    await page.goto(`${server.origin}/decks/${deck.id}`);
    await waitForStatus(page, "ok");
    await rail(page)
      .getByRole("button", { name: /Agenda/ })
      .first()
      .click();
    await expect.poll(() => page.getByLabel("Speaker notes · slide 2").inputValue()).toBe("");
    expect(await codeText(page)).not.toContain("notes=");
    await session.context.close();
  }, 120_000);
});

describe("undo and redo", () => {
  it("are buttons and Ctrl+Z / Shift+Ctrl+Z anywhere in the editor (the preview, the rail, the page), one history with the code", async () => {
    const session = await signUpWithKey("Undo");
    const { page } = session;
    await openDeck(session, SOURCE);
    const undo = page.getByRole("button", { name: "Undo", exact: true });
    const redo = page.getByRole("button", { name: "Redo", exact: true });
    expect(await undo.isDisabled()).toBe(true);
    expect(await redo.isDisabled()).toBe(true);

    // A heading edited on the preview: the buttons undo and redo it, and the preview follows.
    await rail(page)
      .getByRole("button", { name: /Market/ })
      .first()
      .click();
    await editOnPreview(page, ".dh-heading-text", "Market size", "Total market");
    const edited = SOURCE.replace("<Heading>Market size</Heading>", "<Heading>Total market</Heading>");
    await expect.poll(() => codeText(page)).toBe(edited);
    await undo.click();
    await expect.poll(() => codeText(page)).toBe(SOURCE);
    await preview(page).locator(".dh-heading-text", { hasText: "Market size" }).waitFor();
    await redo.click();
    await expect.poll(() => codeText(page)).toBe(edited);
    await preview(page).locator(".dh-heading-text", { hasText: "Total market" }).waitFor();

    // The keys with the preview focused (no text being edited there): the frame hands them to the editor.
    await page.locator('iframe[title="Preview"]').focus();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("title"))).toBe("Preview");
    await page.keyboard.press("Control+z");
    await expect.poll(() => codeText(page)).toBe(SOURCE);
    await page.keyboard.press("Control+Shift+z");
    await expect.poll(() => codeText(page)).toBe(edited);

    // A slide deleted from the rail: the dialog says how to get it back, and Ctrl+Z on the rail does.
    await rail(page).getByRole("button", { name: "Delete slide 1" }).click();
    const asked = page.getByRole("dialog", { name: "Delete slide 1?" });
    await asked.waitFor();
    expect(await asked.textContent()).toContain("Undo (Ctrl+Z) brings it back.");
    expect(await asked.textContent()).not.toContain("in the code");
    await asked.getByRole("button", { name: "Delete slide", exact: true }).click();
    await expect.poll(() => codeText(page)).not.toContain("Acme robots");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest("nav")?.getAttribute("aria-label")))
      .toBe("Outline");
    await page.keyboard.press("Control+z");
    await expect.poll(() => codeText(page)).toBe(edited);
    await expect.poll(() => rail(page).locator('[data-testid="rail-slide"]').count()).toBe(2);
    await page.keyboard.press("Control+Shift+z");
    await expect.poll(() => codeText(page)).not.toContain("Acme robots");
    // Ctrl+Y redoes too, from the page itself (nothing focused); a text field keeps its own undo.
    await page.keyboard.press("Control+z");
    await expect.poll(() => codeText(page)).toBe(edited);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("Control+y");
    await expect.poll(() => codeText(page)).not.toContain("Acme robots");
    const note = page.getByLabel("Version note");
    await note.fill("typed");
    await note.press("Control+z");
    expect(await codeText(page)).not.toContain("Acme robots");
    await session.context.close();
  }, 180_000);
});

describe("remove", () => {
  it("takes the selected element off the slide, by the inspector's button or the Delete key, one undoable step", async () => {
    const session = await signUpWithKey("Remove");
    const { page, api } = session;
    const deckId = await openDeck(session, SOURCE);
    await rail(page)
      .getByRole("button", { name: /Market/ })
      .first()
      .click();
    const inspector = page.getByTestId("inspector");
    const picker = inspector.getByRole("listbox", { name: "Element" });

    // The bullets, picked in the inspector: Remove takes them off; Undo brings them back.
    await picker.getByRole("option").nth(1).click();
    const [heading, bullets] = elementsOfSlide(SOURCE, "slides", 1);
    const withoutBullets = removeElement(SOURCE, "slides", { slide: 1, start: bullets!.start });
    await inspector.getByRole("button", { name: /^Remove Bullets/ }).click();
    await expect.poll(() => codeText(page)).toBe(withoutBullets);
    await expect.poll(() => preview(page).locator(".dh-bullet-body").count()).toBe(0);
    expect(await picker.getByRole("option", { selected: true }).count()).toBe(0);
    await page.getByRole("button", { name: "Undo", exact: true }).click();
    await expect.poll(() => codeText(page)).toBe(SOURCE);
    await preview(page).locator(".dh-bullet-body", { hasText: "Warehouses first" }).waitFor();

    // The heading, picked in the element list: Delete there takes it off.
    await picker.getByRole("option").nth(0).click();
    await picker.focus();
    await page.keyboard.press("Delete");
    const withoutHeading = removeElement(SOURCE, "slides", { slide: 1, start: heading!.start });
    await expect.poll(() => codeText(page)).toBe(withoutHeading);
    await expect.poll(() => preview(page).locator(".dh-heading-text").count()).toBe(0);
    expect(await save(page, api, deckId)).toBe(withoutHeading);
    await session.context.close();
  }, 180_000);
});
