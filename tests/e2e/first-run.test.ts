import fs from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { unwrap } from "@/lib/client";
import { apiOf, person, type Person, signUp } from "../helpers/app-session";
import { serverAndBrowser } from "../helpers/editor-suite";

// The first run of a new organization (issue 37, item 10) in a real Chromium against `next start`: the
// library offers six designed starter templates, each card with a picture of its cover, each passing the
// deck check with no error; "Use template" with a typed title puts it on the cover; "New deck with AI"
// writes a deck (here with the offline generator, which the dialog says); a colleague opening a private
// deck is told whose it is, and someone of another organization learns nothing.

const { server, browser } = serverAndBrowser();
const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp/deckhand-shots";

fs.mkdirSync(SHOTS, { recursive: true });

const TEMPLATES = ["Pitch", "Quarterly review", "Project update", "Product launch", "All-hands", "Lesson"];

async function newPerson(name: string): Promise<{ who: Person; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const who = person(name);
  await signUp(page, server.origin, who);
  return { who, page };
}

describe("a new organization's library", () => {
  it("offers six designed templates with pictures that pass the deck check; Use template titles the cover", async () => {
    const { page } = await newPerson("Ada");
    await expect.poll(() => page.getByText("No decks yet").count()).toBe(1);
    const gallery = page.getByRole("list", { name: "Templates" });
    await expect.poll(() => gallery.getByRole("listitem").count()).toBe(6);
    for (const title of TEMPLATES) {
      // The card's picture: the template's cover drawn by the player.
      const picture = gallery.frameLocator(`iframe[title="First slide of ${title}"]`);
      await picture.locator(".dh-slide, [data-slide]").first().waitFor({ timeout: 60_000 });
    }
    await page.getByRole("heading", { name: "Start from a template" }).scrollIntoViewIfNeeded();
    await gallery.screenshot({ path: `${SHOTS}/template-cards.png` });

    // Every template passes the deck check with no error.
    const api = await apiOf(page, server.origin, "first-run");
    const templates = unwrap(await api.api.GET("/decks", { params: { query: { kind: "template" } } }));
    expect(templates.map((t) => t.title).sort()).toEqual([...TEMPLATES].sort());
    const errors: Record<string, unknown[]> = {};
    for (const template of templates) {
      const check = unwrap(await api.api.GET("/decks/{id}/check", { params: { path: { id: template.id } } }));
      errors[template.title] = check.findings.filter((f) => f.severity === "error");
    }
    expect(errors).toEqual(Object.fromEntries(TEMPLATES.map((title) => [title, []])));

    // Use template with a typed title: the new deck's cover says it.
    await page.goto(`${server.origin}/decks`);
    await page.getByLabel("Title for a deck from Lesson").fill("Forces and motion");
    await page.getByRole("button", { name: "Start from Lesson" }).click();
    await page.waitForURL(/\/decks\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Forces and motion");
    await page
      .frameLocator('iframe[title="Preview"]')
      .getByText("Forces and motion", { exact: true })
      .first()
      .waitFor({ timeout: 60_000 });
  }, 600_000);

  it("writes a new deck with AI from the library, saying the offline generator writes it", async () => {
    const { page } = await newPerson("Grace");
    await page.getByRole("button", { name: "New deck with AI" }).click();
    const dialog = page.getByRole("dialog", { name: "New deck with AI" });
    expect(await dialog.textContent()).toContain("offline generator");
    await dialog.getByLabel("Title").fill("Team offsite");
    await dialog
      .getByLabel("Brief")
      .fill(
        "# Team offsite\n\n## Goals\n- Plan the year\n- Meet the new team\n\n## Agenda\n- Morning: strategy\n- Afternoon: workshops",
      );
    await dialog.getByRole("button", { name: "Write the deck" }).click();
    await page.waitForURL(/\/decks\/[0-9a-f-]{36}$/, { timeout: 120_000 });
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Team offsite");
    await expect.poll(() => page.getByRole("button", { name: /^History/ }).textContent()).toBe("History (1)");
  }, 300_000);

  it("tells a colleague whose private deck it is, and someone of another organization nothing", async () => {
    const { who: ada, page } = await newPerson("Ada");
    const api = await apiOf(page, server.origin, "private");
    const deck = unwrap(await api.api.POST("/decks", { body: { title: "Salary review" } }));

    // Bob joins Ada's organization by an invitation link.
    await page.goto(`${server.origin}/settings/members`);
    await page.getByRole("button", { name: "Create invitation link" }).click();
    const link = await page.getByTestId("invite-link").inputValue();
    const bob = await browser.newContext();
    const bobPage = await bob.newPage();
    await bobPage.goto(link);
    await bobPage.getByRole("link", { name: "Create an account" }).click();
    const b = person("Bob");
    await bobPage.getByLabel("Name").fill(b.name);
    await bobPage.getByLabel("Email").fill(b.email);
    await bobPage.getByLabel("Password").fill(b.password);
    await bobPage.getByRole("button", { name: "Create account" }).click();
    await bobPage.waitForURL(link);
    await bobPage.getByRole("button", { name: /^Join as/ }).click();
    await bobPage.waitForURL(`${server.origin}/decks`);

    await bobPage.goto(`${server.origin}/decks/${deck.id}`);
    await bobPage.getByRole("heading", { name: "This deck is private" }).waitFor();
    const said = (await bobPage.getByTestId("private-deck").textContent()) ?? "";
    expect(said).toContain("Ada");
    expect(said).toContain(ada.email);
    expect(said).not.toContain("Salary review");

    // Someone of another organization: a plain "not found", no name, no title.
    const { page: cleo } = await newPerson("Cleo");
    const response = await cleo.goto(`${server.origin}/decks/${deck.id}`);
    expect(response?.status()).toBe(404);
    const shown = (await cleo.locator("body").textContent()) ?? "";
    expect(shown).not.toContain("Ada");
    expect(shown).not.toContain("private");
    expect(shown).not.toContain("Salary review");
  }, 300_000);
});
