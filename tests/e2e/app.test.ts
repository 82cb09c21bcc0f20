import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDeckhandClient, unwrap } from "@/lib/client";
import { asksBeforeUnload, launchBrowser } from "../helpers/browser";
import { deckSource } from "../helpers/decks";
import { type FixtureSites, serveFixtureSites } from "../helpers/fixture-sites";
import { serveImageHost } from "../helpers/image-fixtures";
import { expectScreenshot, stableScreenshot } from "../helpers/screenshots";
import { type NextServer, startNextServer } from "../helpers/next-server";
import { openCodePanel } from "../helpers/code-panel";

// The browser app in a real Chromium against `next start` on its own embedded database: accounts,
// organizations, API keys, and the library, as a person uses them.

let server: NextServer;
let browser: Browser;
let sites: FixtureSites;

beforeAll(async () => {
  sites = await serveFixtureSites();
  // Brands are extracted from the loopback fixture sites, which only FETCH_ALLOW_HOSTS lets through.
  server = await startNextServer({ env: { FETCH_ALLOW_HOSTS: "localhost" } });
  browser = await launchBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sites?.close();
});

type Person = { name: string; email: string; password: string };
const person = (name: string): Person => ({
  name,
  email: `${name.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@example.test`,
  password: "correct horse battery staple",
});

async function signUp(page: Page, who: Person) {
  await page.goto(`${server.origin}/sign-up`);
  await page.getByLabel("Name").fill(who.name);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(`${server.origin}/decks`);
}

async function createKey(page: Page, name: string): Promise<string> {
  await page.goto(`${server.origin}/settings/keys`);
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-key").textContent())!.trim();
  expect(key).toMatch(/^dk_/);
  return key;
}

// A form's error notice (Next.js's route announcer is an empty role="alert" too).
function formError(page: Page) {
  return page.locator('form [role="alert"]');
}

describe("the browser app", () => {
  it("signs up into a personal workspace, issues an API key that works, and keeps organizations apart", async () => {
    const ada = person("Ada");
    const context = await browser.newContext();
    const page = await context.newPage();
    await signUp(page, ada);
    await expect.poll(() => page.getByText("No decks yet").count()).toBe(1);
    await expect.poll(() => page.getByText("Ada's workspace").count()).toBe(1);

    const key = await createKey(page, "e2e");
    // The key is shown once: after a reload only its prefix is listed, with its creator.
    await page.reload();
    await expect.poll(() => page.getByTestId("new-key").count()).toBe(0);
    const row = page.getByRole("row", { name: /e2e/ });
    await expect.poll(() => row.textContent()).toContain(key.slice(0, 10));
    await expect.poll(() => row.textContent()).toContain("Ada");

    const api = createDeckhandClient({ baseUrl: `${server.origin}/api/v1`, apiKey: key });
    // The library's first view gave the organization its starter templates: they are its only decks.
    expect(unwrap(await api.api.GET("/decks")).filter((listed) => listed.kind !== "template")).toEqual([]);
    const deck = unwrap(await api.api.POST("/decks", { body: { title: "Quarterly review" } }));
    unwrap(
      await api.api.PUT("/decks/{id}/content", {
        params: { path: { id: deck.id } },
        body: { source: deckSource(["Hello"]) },
      }),
    );
    // The key acts as Ada: the deck is hers, listed in her library with its first slide.
    await page.goto(`${server.origin}/decks`);
    const card = page.getByRole("link", { name: /Quarterly review/ });
    await expect.poll(() => card.count()).toBe(1);
    await expect.poll(() => card.locator("iframe").getAttribute("src")).toMatch(/\/preview\/[^/]+\/frame\?mode=thumb/);
    await expect.poll(() => card.locator("iframe").getAttribute("sandbox")).toBe("allow-scripts");
    // Usage shows the version edit the write consumed.
    await page.goto(`${server.origin}/settings/keys`);
    await expect.poll(() => page.locator('[data-feature="version_edits"]').textContent()).toMatch(/^1 of/);

    // Another person, another organization: Ada's deck is invisible to them in the app and the API.
    const bob = person("Bob");
    const other = await browser.newContext();
    const bobPage = await other.newPage();
    await signUp(bobPage, bob);
    await bobPage.goto(`${server.origin}/decks?scope=org`);
    // (Bob's own starter templates include one named "Quarterly review": the deck list is what counts.)
    await expect.poll(() => bobPage.getByRole("list", { name: "Decks" }).getByText("Quarterly review").count()).toBe(0);
    const bobKey = await createKey(bobPage, "bob");
    const bobApi = createDeckhandClient({ baseUrl: `${server.origin}/api/v1`, apiKey: bobKey });
    expect((await bobApi.api.GET("/decks/{id}", { params: { path: { id: deck.id } } })).response.status).toBe(404);
    expect(
      unwrap(await bobApi.api.GET("/decks", { params: { query: { scope: "org" } } })).filter(
        (listed) => listed.kind !== "template",
      ),
    ).toEqual([]);

    // Revoking the key in settings stops it at once.
    // It asks first, in the app's dialog: cancelled, nothing happens; confirmed, the key is revoked.
    await page.goto(`${server.origin}/settings/keys`);
    await page.getByRole("button", { name: "Revoke e2e" }).click();
    const question = page.getByRole("dialog", { name: "Revoke e2e?" });
    await expect.poll(() => question.textContent()).toContain("Revoke the key “e2e”?");
    await question.getByRole("button", { name: "Cancel" }).click();
    await question.waitFor({ state: "detached" });
    expect((await api.api.GET("/decks")).response.status).toBe(200);
    await page.getByRole("button", { name: "Revoke e2e" }).click();
    await confirmIn(page, "Revoke e2e?", "Revoke");
    await expect.poll(async () => (await api.api.GET("/decks")).response.status).toBe(401);
    await context.close();
    await other.close();
  }, 120_000);

  it("signs out, refuses a wrong password with a clear message, and signs back in", async () => {
    const grace = person("Grace");
    const context = await browser.newContext();
    const page = await context.newPage();
    await signUp(page, grace);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${server.origin}/sign-in`);
    await page.goto(`${server.origin}/decks`);
    await page.waitForURL(/\/sign-in/);

    await page.getByLabel("Email").fill(grace.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => formError(page).textContent()).toContain("do not match");
    // What was typed is kept.
    await expect.poll(() => page.getByLabel("Email").inputValue()).toBe(grace.email);

    await page.getByLabel("Password").fill(grace.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${server.origin}/decks`);

    // A deep link while signed out: sign in, and land where the link pointed, not in the library.
    await page.getByLabel("Title", { exact: true }).fill("Linked deck");
    await page.getByRole("button", { name: "New deck", exact: true }).click();
    await page.waitForURL(/\/decks\/[0-9a-f-]{36}$/);
    const deckUrl = page.url();
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${server.origin}/sign-in`);
    await page.goto(`${deckUrl}?from=mail`);
    await page.waitForURL(/\/sign-in\?next=/);
    expect(new URL(page.url()).searchParams.get("next")).toBe(`${new URL(deckUrl).pathname}?from=mail`);
    await page.getByLabel("Email").fill(grace.email);
    await page.getByLabel("Password").fill(grace.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${deckUrl}?from=mail`);
    await context.close();
  }, 60_000);

  it("refuses a second account for the same email", async () => {
    const linus = person("Linus");
    const first = await browser.newContext();
    await signUp(await first.newPage(), linus);
    const second = await browser.newContext();
    const page = await second.newPage();
    await page.goto(`${server.origin}/sign-up`);
    await page.getByLabel("Name").fill("Linus again");
    await page.getByLabel("Email").fill(linus.email);
    await page.getByLabel("Password").fill("another long password");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect.poll(() => formError(page).textContent()).toContain("already exists");
    // The refusal leaves what was typed.
    expect(await page.getByLabel("Name").inputValue()).toBe("Linus again");
    expect(await page.getByLabel("Email").inputValue()).toBe(linus.email);
    await first.close();
    await second.close();
  }, 60_000);

  // Issue 33: on a busy machine the invitee's name, typed before the page's script ran, was cleared when the
  // email was typed after it (a controlled field's empty state written over it), and sign-up was refused.
  it("keeps a name typed before the page's script ran", async () => {
    const ida = person("Ida");
    const context = await browser.newContext();
    const page = await context.newPage();
    let release!: () => void;
    const scripts = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/_next\/static\/.+\.js$/, async (route) => {
      await scripts;
      await route.continue();
    });
    await page.goto(`${server.origin}/sign-up?next=%2Fsettings%2Fmembers`, { waitUntil: "domcontentloaded" });
    await page.getByLabel("Name").fill(ida.name);
    release();
    // React has hydrated the form: its fiber is on the element.
    await expect
      .poll(() => page.locator("form").evaluate((form) => Object.keys(form).some((k) => k.startsWith("__react"))))
      .toBe(true);
    await page.getByLabel("Email").fill(ida.email);
    await page.getByLabel("Password").fill(ida.password);
    expect(await page.getByLabel("Name").inputValue()).toBe(ida.name);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(`${server.origin}/settings/members`);
    await expect.poll(() => page.getByText(ida.email).count()).toBeGreaterThan(0);
    await context.close();
  }, 60_000);

  it("starts a deck from a template with its content, previews edits live, refuses a broken module at its line, saves and reverts", async () => {
    const ada = person("Editor");
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signUp(page, ada);
    const key = await createKey(page, "templates");
    const api = createDeckhandClient({ baseUrl: `${server.origin}/api/v1`, apiKey: key });
    const template = unwrap(
      await api.api.POST("/decks", { body: { title: "Pitch template", kind: "template", description: "Our pitch" } }),
    );
    unwrap(
      await api.api.PUT("/decks/{id}/content", {
        params: { path: { id: template.id } },
        body: { source: deckSource(["Cover", "Problem"]) },
      }),
    );

    // Start from the template under a typed title: the new deck opens with the template's design and its
    // content as version 1, so it can be presented and exported at once.
    await page.goto(`${server.origin}/decks`);
    await page.getByLabel("Title for a deck from Pitch template").fill("Our seed pitch");
    await page.getByRole("button", { name: "Start from Pitch template" }).click();
    await page.waitForURL(/\/decks\/[0-9a-f-]{36}$/);
    const deckId = page.url().split("/").at(-1)!;
    const deck = unwrap(await api.api.GET("/decks/{id}", { params: { path: { id: deckId } } }));
    expect(deck).toMatchObject({ startedFromDeckId: template.id, title: "Our seed pitch", versionCount: 1 });
    await waitForStatus(page, "ok");
    await expect.poll(() => page.getByRole("navigation", { name: "Outline" }).textContent()).toContain("Problem");
    const preview = page.frameLocator('iframe[title="Preview"]');
    // The typed title is what the cover says (issue 37).
    await preview.getByText("Our seed pitch").first().waitFor();

    // Typing changes the preview.
    await replaceSource(page, deckSource(["Fresh opening", "Second"]));
    await waitForStatus(page, "ok");
    await preview.getByText("Fresh opening").first().waitFor();

    // A module that does not compile: the problem is shown at its line, and nothing can be saved.
    const broken = deckSource(["Broken"]).replace("<Title>Broken</Title>", "<Title>Broken</Titel>");
    await replaceSource(page, broken);
    await waitForStatus(page, "error");
    const brokenLine = broken.split("\n").findIndex((line) => line.includes("</Titel>")) + 1;
    await expect.poll(() => page.getByTestId("compile-error").textContent()).toContain(`Line ${brokenLine}:`);
    await page.locator(".cm-lint-marker-error").first().waitFor();
    await expect.poll(() => page.getByRole("button", { name: "Save version" }).isDisabled()).toBe(true);
    expect(
      unwrap(await api.api.GET("/decks/{id}/versions", { params: { path: { id: deckId } } })).map((v) => v.version),
    ).toEqual([1]);

    // Fixed and saved with a note: version 2, in the history with its author.
    await replaceSource(page, deckSource(["Version one"]));
    await waitForStatus(page, "ok");
    await page.getByLabel("Version note").fill("first draft");
    await page.getByRole("button", { name: "Save version" }).click();
    await page.getByText("Saved as version 2").waitFor();

    // History open while the next version is saved: the comparison follows the list as it grows (it used
    // to stay on what the panel opened with).
    await page.getByRole("button", { name: /History/ }).click();
    const history = page.getByTestId("history");
    await expect.poll(() => history.locator("[data-version]").count()).toBe(2);
    await expect.poll(() => page.getByLabel("To version", { exact: true }).inputValue()).toBe("2");
    await replaceSource(page, deckSource(["Version two"]));
    await waitForStatus(page, "ok");
    await page.keyboard.press("Control+s");
    await page.getByText("Saved as version 3").waitFor();
    const versions = unwrap(await api.api.GET("/decks/{id}/versions", { params: { path: { id: deckId } } }));
    expect(versions.map((v) => [v.version, v.prompt])).toEqual([
      [3, null],
      [2, "first draft"],
      [1, "Started from the template “Pitch template”"],
    ]);

    // History: the diff between the last two, then revert to version 2 (copied forward as version 4).
    await expect.poll(() => history.locator('[data-version="2"]').textContent()).toContain("first draft");
    await expect.poll(() => history.locator('[data-version="2"]').textContent()).toContain("Editor");
    await expect.poll(() => page.getByLabel("From version", { exact: true }).inputValue()).toBe("2");
    await expect.poll(() => page.getByLabel("To version", { exact: true }).inputValue()).toBe("3");
    await page.getByRole("button", { name: "Compare" }).click();
    // The changed slide as two pictures (version 2 on the left, 3 on the right), the code one click away.
    const compared = page.getByRole("region", { name: "Changes from version 2 to version 3" });
    const pictures = compared.getByRole("list", { name: "Changed slides" }).locator("iframe");
    await expect
      .poll(() => pictures.evaluateAll((frames) => frames.map((f) => f.getAttribute("title"))))
      .toEqual(["Slide 1 in version 2", "Slide 1 in version 3"]);
    await expect
      .poll(() => compared.frameLocator('iframe[title="Slide 1 in version 3"]').locator("body").textContent())
      .toContain("Version two");
    await compared.getByText("Show the code changes").click();
    const diff = compared.getByTestId("conflict-diff");
    await expect.poll(() => diff.getAttribute("aria-label")).toBe("Changes from version 2 to version 3");
    await expect.poll(() => diff.textContent()).toMatch(/- .*Version one[\s\S]*\+ .*Version two/);
    // The same version twice is nothing to compare: the button says so instead of doing nothing.
    await page.getByLabel("From version", { exact: true }).selectOption("3");
    await expect.poll(() => page.getByRole("button", { name: "Compare" }).isDisabled()).toBe(true);
    await expect.poll(() => history.textContent()).toContain("Pick two different versions");
    await page.getByLabel("From version", { exact: true }).selectOption("2");
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Revert to version 2" }).click();
    await page.getByText("Saved as version 4").waitFor();
    const latest = unwrap(await api.api.GET("/decks/{id}", { params: { path: { id: deckId } } }));
    expect(latest.versionCount).toBe(4);
    expect(latest.latestVersion?.outline).toEqual(["Version one"]);

    // Publish, and open the share link in a fresh context with no session.
    await page.getByRole("button", { name: "Share" }).click();
    await page.getByLabel("Who can see it").selectOption("public");
    await page.getByRole("button", { name: "Save settings" }).click();
    const publicUrl = await page.getByTestId("public-url").inputValue();
    expect(publicUrl).toMatch(new RegExp(`^${server.origin}/d/[0-9a-z]+$`));
    const visitor = await browser.newContext();
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(publicUrl);
    await visitorPage.frameLocator("iframe").first().getByText("Version one").first().waitFor();
    await visitor.close();
    await page.getByRole("button", { name: "Close" }).click();

    // Export a PDF from the editor and download it.
    await page.getByRole("button", { name: "PDF", exact: true }).click();
    const download = page.getByRole("link", { name: "Download PDF" });
    await download.waitFor({ timeout: 90_000 });
    const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
    const bytes = fs.readFileSync((await file.path())!);
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");

    // Present mode: the player on its own page and the presenter window with notes and the next slide.
    await page.reload();
    const opened: Page[] = [];
    context.on("page", (p) => opened.push(p));
    await page.getByRole("button", { name: "Present" }).click();
    await expect.poll(() => opened.length).toBe(2);
    const [viewer, presenter] = [...opened].sort((a) => (/\/view(#\d+)?$/.test(a.url()) ? -1 : 1));
    expect(viewer!.url()).toMatch(/\/preview\/[^/]+\/view(#\d+)?$/);
    await viewer!.frameLocator("#dh-frame").getByText("Version one").first().waitFor();
    expect(presenter!.url()).toMatch(/\/preview\/[^/]+\/presenter(#\d+)?$/);
    await presenter!.frameLocator("#dh-current").getByText("Version one").first().waitFor();
    await context.close();
  }, 240_000);
});

describe("the library", () => {
  it("applies its filters as they change", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signUp(page, person("Filterer"));
    const key = await createKey(page, "filters");
    const api = createDeckhandClient({ baseUrl: `${server.origin}/api/v1`, apiKey: key });
    unwrap(await api.api.POST("/decks", { body: { title: "Quarterly review" } }));
    unwrap(await api.api.POST("/decks", { body: { title: "Pitch template", kind: "template" } }));
    await page.goto(`${server.origin}/decks`);
    const cards = page.getByRole("list", { name: "Decks" }).getByRole("listitem");
    // Decks by default; templates (this one and the six starter templates) have their gallery below.
    await expect.poll(() => cards.allTextContents()).toEqual([expect.stringContaining("Quarterly review")]);

    await Promise.all([page.waitForURL(/kind=template/), page.getByLabel("Kind").selectOption("template")]);
    await expect.poll(() => cards.count()).toBe(7);
    expect(await cards.allTextContents()).toContainEqual(expect.stringContaining("Pitch template"));
    await Promise.all([page.waitForURL(/kind=all/), page.getByLabel("Kind").selectOption("all")]);
    await expect.poll(() => cards.count()).toBe(8);
    await page.getByLabel("Kind").selectOption("");
    await page.waitForURL((url) => url.searchParams.get("kind") === "");
    await page.getByLabel("Search").fill("quarterly");
    await Promise.all([page.waitForURL(/q=quarterly/), page.getByLabel("Search").press("Enter")]);
    await expect.poll(() => cards.allTextContents()).toEqual([expect.stringContaining("Quarterly review")]);
    expect(await page.getByRole("button", { name: "Apply" }).count()).toBe(0);
    await context.close();
  }, 120_000);

  it("lists 60 decks at first and the next 60 at each Load more, keeping its place and the filters", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signUp(page, person("Collector"));
    const deckhand = createDeckhandClient({
      baseUrl: `${server.origin}/api/v1`,
      apiKey: await createKey(page, "many"),
    });
    for (let i = 0; i < 65; i++) unwrap(await deckhand.api.POST("/decks", { body: { title: `Deck ${i}` } }));
    const newestFirst = unwrap(await deckhand.api.GET("/decks", { params: { query: { kind: "deck" } } })).map(
      (deck) => deck.title,
    );

    await page.goto(`${server.origin}/decks?sort=created`);
    const titles = () =>
      page
        .getByRole("list", { name: "Decks" })
        .getByRole("link")
        .evaluateAll((links) => links.map((l) => l.querySelector("p")?.textContent));
    await expect.poll(titles).toEqual(newestFirst.slice(0, 60));
    const more = page.getByRole("link", { name: "Load more decks" });
    await more.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(0);
    await Promise.all([page.waitForURL(/shown=120/), more.click()]);
    await expect.poll(titles).toEqual(newestFirst);
    expect(new URL(page.url()).searchParams.get("sort")).toBe("created");
    expect(await more.count()).toBe(0);
    // In place: the page is not scrolled back to the top.
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    // A reload keeps the decks that were loaded.
    await page.reload();
    await expect.poll(titles).toEqual(newestFirst);
    await context.close();
  }, 120_000);

  it("fits a 390 px phone: nothing scrolls sideways, the header folds its navigation under the account", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signUp(page, person("Phone"));
    for (const path of ["/decks", "/brands", "/settings/keys", "/settings/members"]) {
      await page.goto(`${server.origin}${path}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
    }
    await page.goto(`${server.origin}/decks`);
    const nav = await page.getByRole("navigation", { name: "Main" }).boundingBox();
    const signOut = await page.getByRole("button", { name: "Sign out" }).boundingBox();
    expect(nav!.y).toBeGreaterThan(signOut!.y);
    expectScreenshot(await stableScreenshot(page, { fullPage: true }), "app-library-390");
    // Cards, their actions and a template with a 300-character title of one word stay within the width too.
    const api = createDeckhandClient({ baseUrl: `${server.origin}/api/v1`, apiKey: await createKey(page, "phone") });
    unwrap(await api.api.POST("/decks", { body: { title: "W".repeat(300), kind: "template" } }));
    unwrap(await api.api.POST("/decks", { body: { title: "Short one" } }));
    await page.goto(`${server.origin}/decks`);
    // The deck is a card of the list, the template a card of the gallery.
    await page.getByRole("button", { name: "Duplicate Short one" }).waitFor();
    await page.getByLabel(`Title for a deck from ${"W".repeat(300)}`).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), "library with cards").toBeLessThanOrEqual(
      390,
    );
    await context.close();
  }, 120_000);

  it("sorts, renames, duplicates and deletes (after its confirmation) from the cards", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signUp(page, person("Librarian"));
    const api = createDeckhandClient({ baseUrl: `${server.origin}/api/v1`, apiKey: await createKey(page, "cards") });
    for (const title of ["Alpha", "Beta"]) {
      const deck = unwrap(await api.api.POST("/decks", { body: { title } }));
      unwrap(
        await api.api.PUT("/decks/{id}/content", {
          params: { path: { id: deck.id } },
          body: { source: deckSource([`${title} cover`]) },
        }),
      );
    }
    await page.goto(`${server.origin}/decks`);
    const list = page.getByRole("list", { name: "Decks" });
    const titles = () =>
      list.getByRole("link").evaluateAll((links) => links.map((l) => l.querySelector("p")?.textContent));
    await expect.poll(titles).toEqual(["Beta", "Alpha"]);
    await expect.poll(() => list.getByTestId("deck-dates").first().textContent()).toMatch(/^Updated .+ · Created /);

    // Rename: a dialog with the title field; the card shows the new title.
    await page.getByRole("button", { name: "Rename Alpha" }).click();
    const rename = page.getByRole("dialog", { name: "Rename “Alpha”" });
    await rename.getByLabel("New title").fill("Alpha renamed");
    await rename.getByRole("button", { name: "Save title" }).click();
    await expect.poll(titles).toEqual(["Beta", "Alpha renamed"]);

    // Sorting applies as it is chosen: by title, by the last update (the rename), back to newest first.
    await Promise.all([page.waitForURL(/sort=title/), page.getByLabel("Sort by").selectOption("title")]);
    await expect.poll(titles).toEqual(["Alpha renamed", "Beta"]);
    await Promise.all([page.waitForURL(/sort=updated/), page.getByLabel("Sort by").selectOption("updated")]);
    await expect.poll(titles).toEqual(["Alpha renamed", "Beta"]);
    await Promise.all([page.waitForURL(/sort=created/), page.getByLabel("Sort by").selectOption("created")]);
    await expect.poll(titles).toEqual(["Beta", "Alpha renamed"]);

    // Duplicate: a copy with the newest content as its version 1, listed with its first slide.
    await page.getByRole("button", { name: "Duplicate Beta" }).click();
    await expect.poll(titles).toEqual(["Beta (copy)", "Beta", "Alpha renamed"]);
    const decks = unwrap(await api.api.GET("/decks"));
    const copy = decks.find((d) => d.title === "Beta (copy)")!;
    const copied = unwrap(await api.api.GET("/decks/{id}", { params: { path: { id: copy.id } } }));
    expect(copied.versionCount).toBe(1);
    expect(copied.latestVersion?.outline).toEqual(["Beta cover"]);
    await expect
      .poll(() =>
        page
          .getByRole("link", { name: /Beta \(copy\)/ })
          .locator("iframe")
          .getAttribute("src"),
      )
      .toMatch(/\/preview\//);

    // Delete asks first: cancelled, the deck stays; confirmed, it is gone.
    await page.getByRole("button", { name: "Delete Beta (copy)" }).click();
    const question = page.getByRole("dialog", { name: "Delete “Beta (copy)”?" });
    await question.getByRole("button", { name: "Cancel" }).click();
    await question.waitFor({ state: "detached" });
    expect((await api.api.GET("/decks/{id}", { params: { path: { id: copy.id } } })).response.status).toBe(200);
    await page.getByRole("button", { name: "Delete Beta (copy)" }).click();
    await confirmIn(page, "Delete “Beta (copy)”?", "Delete deck");
    await expect.poll(titles).toEqual(["Beta", "Alpha renamed"]);
    expect((await api.api.GET("/decks/{id}", { params: { path: { id: copy.id } } })).response.status).toBe(404);
    await context.close();
  }, 120_000);
});

describe("templates", () => {
  it("uses a template under a typed title and exports a PDF at once; a 300-character title still works", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signUp(page, person("Templater"));
    const api = createDeckhandClient({ baseUrl: `${server.origin}/api/v1`, apiKey: await createKey(page, "tpl") });
    const longTitle = `${"Quarterly ".repeat(29)}abcdefghij`;
    expect(longTitle).toHaveLength(300);
    for (const [title, labels] of [
      ["Board template", ["Board cover", "Numbers"]],
      [longTitle, ["Long cover"]],
    ] as const) {
      const template = unwrap(await api.api.POST("/decks", { body: { title, kind: "template" } }));
      unwrap(
        await api.api.PUT("/decks/{id}/content", {
          params: { path: { id: template.id } },
          body: { source: deckSource([...labels]) },
        }),
      );
    }

    // A typed title: the deck opens with the template's content as version 1, so PDF works at once.
    await page.goto(`${server.origin}/decks`);
    await page.getByLabel("Title for a deck from Board template").fill("Board meeting, March");
    await page.getByRole("button", { name: "Start from Board template" }).click();
    await page.waitForURL(/\/decks\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Board meeting, March");
    await expect.poll(() => page.getByRole("button", { name: /History \(1\)/ }).count()).toBe(1);
    await page.getByRole("button", { name: "PDF", exact: true }).click();
    const download = page.getByRole("link", { name: "Download PDF" });
    await download.waitFor({ timeout: 90_000 });
    const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
    expect(
      fs
        .readFileSync((await file.path())!)
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");

    // No title typed, and the template's title is already 300 characters: "(copy)" is fitted in.
    await page.goto(`${server.origin}/decks`);
    await page.getByRole("button", { name: `Start from ${longTitle}` }).click();
    await page.waitForURL(/\/decks\/[0-9a-f-]{36}$/);
    const deck = unwrap(await api.api.GET("/decks/{id}", { params: { path: { id: page.url().split("/").at(-1)! } } }));
    expect(deck.title).toHaveLength(300);
    expect(deck.title.endsWith(" (copy)")).toBe(true);
    expect(deck.versionCount).toBe(1);
    expect(deck.latestVersion?.outline).toEqual(["Long cover"]);
    await context.close();
  }, 180_000);
});

describe("the theme panel", () => {
  it("changes a colour: the preview follows, the contrast is measured, and the saved tokens differ in that declaration only", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signUp(page, person("Themer"));
    const api = createDeckhandClient({ baseUrl: `${server.origin}/api/v1`, apiKey: await createKey(page, "theme") });
    await page.goto(`${server.origin}/decks`);
    await page.getByLabel("Title", { exact: true }).fill("Themed");
    await page.getByRole("button", { name: "New deck", exact: true }).click();
    await page.waitForURL(/\/decks\/[0-9a-f-]{36}$/);
    const deckId = page.url().split("/").at(-1)!;
    await waitForStatus(page, "ok");
    await page.getByRole("button", { name: "Save version" }).click();
    await waitForStatus(page, "saved");

    // The theme is beside the inspector; no brand in the organization yet: the picker is a link to add one.
    await page.getByRole("tab", { name: "Theme", exact: true }).click();
    expect(await page.getByRole("link", { name: "Add a brand" }).getAttribute("href")).toBe("/brands");
    const panel = page.getByTestId("theme-panel");
    // Every token of the vocabulary has a labelled control.
    for (const label of [
      "Background",
      "Text",
      "Text on primary",
      "Heading font",
      "Body font",
      "Type scale",
      "Corner radius (px)",
      "Spacing unit (px)",
    ]) {
      await panel.getByLabel(label, { exact: true }).waitFor();
    }
    // Each control's accessible name is its visible label.
    const tree = await panel.ariaSnapshot();
    for (const control of [
      'combobox "Heading font"',
      'combobox "Body font"',
      'combobox "Code font"',
      'combobox "Type scale"',
      'spinbutton "Body text size (px)"',
      'spinbutton "Corner radius (px)"',
      'spinbutton "Spacing unit (px)"',
    ]) {
      expect(tree).toContain(control);
    }
    const background = panel.locator('[data-token="--color-bg"]');
    await expect.poll(() => background.locator("[data-contrast]").first().getAttribute("data-contrast")).toBe("ok");

    // A dark background under the default dark text: the preview follows, the contrast warns.
    await panel.getByLabel("Background", { exact: true }).fill("#1e293b");
    await expect.poll(() => background.getByTestId("token-value").textContent()).toBe("#1e293b");
    await expect
      .poll(() => background.locator('[data-contrast="low"]').first().textContent())
      .toMatch(/against text — under 4\.5:1/);
    await expect
      .poll(() => panel.locator('[data-token="--color-text"] [data-contrast="low"]').count())
      .toBeGreaterThan(0);
    const previewRoot = page.frameLocator('iframe[title="Preview"]').locator("html");
    await expect
      .poll(() => previewRoot.evaluate((root) => getComputedStyle(root).getPropertyValue("--color-bg").trim()), {
        timeout: 60_000,
      })
      .toBe("#1e293b");
    // The panel scrolls beside the canvas; a window tall enough shows it whole for its picture.
    await page.setViewportSize({ width: 1440, height: 1600 });
    await panel.evaluate((node) => node.scrollTo(0, 0));
    expectScreenshot(await panel.screenshot({ animations: "disabled" }), "app-theme-panel");
    await page.setViewportSize({ width: 1440, height: 900 });
    // The raw CSS is still there, in the code panel, and says the same.
    await openCodePanel(page);
    await page.getByRole("tab", { name: "Theme tokens (CSS)" }).click();
    await expect.poll(() => page.getByTestId("editor-css").textContent()).toContain("--color-bg: #1e293b;");

    await waitForStatus(page, "ok");
    await page.getByRole("button", { name: "Save version" }).click();
    await page.getByText("Saved as version 2").waitFor();
    const version = async (n: number) =>
      unwrap(await api.api.GET("/decks/{id}/versions/{version}", { params: { path: { id: deckId, version: n } } }))
        .tokensCss!;
    const [before, after] = [(await version(1)).split("\n"), (await version(2)).split("\n")];
    expect(after).toHaveLength(before.length);
    const changed = before.flatMap((line, i) => (line === after[i] ? [] : [[line, after[i]]]));
    expect(changed).toEqual([["  --color-bg: #fafaf9;", "  --color-bg: #1e293b;"]]);
    await context.close();
  }, 120_000);
});

describe("the code editor and the keyboard", () => {
  it("indents with Tab and outdents with Shift+Tab, and lets Escape then Tab leave", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signUp(page, person("Typist"));
    await page.getByLabel("Title", { exact: true }).fill("Keyboard");
    await page.getByRole("button", { name: "New deck", exact: true }).click();
    await page.waitForURL(/\/decks\/[0-9a-f-]{36}$/);
    await waitForStatus(page, "ok");
    await openCodePanel(page);
    const editor = page.locator('[data-testid="editor-tsx"] .cm-content');
    const description = await editor.evaluate(
      (node) => document.getElementById(node.getAttribute("aria-describedby") ?? "")?.textContent,
    );
    expect(description).toMatch(/Tab indents.*Escape, then Tab/);
    const firstLine = page.locator('[data-testid="editor-tsx"] .cm-line').first();
    const original = (await firstLine.textContent())!;
    await editor.click();
    await page.keyboard.press("Control+Home");
    await page.keyboard.press("Tab");
    await expect.poll(() => firstLine.textContent()).toBe(`  ${original}`);
    expect(await page.evaluate(() => document.activeElement?.classList.contains("cm-content"))).toBe(true);
    await page.keyboard.press("Shift+Tab");
    await expect.poll(() => firstLine.textContent()).toBe(original);
    // Escape, then Tab: focus moves on, and the text is unchanged.
    await page.keyboard.press("Escape");
    await page.keyboard.press("Tab");
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains("cm-content"))).toBe(false);
    expect(await firstLine.textContent()).toBe(original);

    // Deleting the deck from its settings asks first, in a dialog over the dialog, and leaves for the library.
    await page.getByRole("button", { name: "Share" }).click();
    await page.getByRole("button", { name: "Delete deck" }).click();
    await confirmIn(page, "Delete “Keyboard”?", "Delete deck");
    await page.waitForURL(`${server.origin}/decks`);
    await expect.poll(() => page.getByText("No decks yet").count()).toBe(1);
    await context.close();
  }, 60_000);
});

describe("signing in", () => {
  it("never follows a next that leaves the app", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const who = person("Careful");
    await signUp(page, who);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${server.origin}/sign-in`);
    for (const next of ["//evil.example/decks", "/\\evil.example", "https://evil.example/"]) {
      await page.goto(`${server.origin}/sign-in?next=${encodeURIComponent(next)}`);
      await page.getByLabel("Email").fill(who.email);
      await page.getByLabel("Password").fill(who.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`${server.origin}/decks`);
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(`${server.origin}/sign-in`);
    }
    await context.close();
  }, 60_000);
});

describe("importing PowerPoint", () => {
  it("turns a picked or dropped .pptx into a deck opened in the editor, and names what it refuses", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signUp(page, person("Presenter"));
    await page.getByRole("button", { name: "Import PowerPoint" }).click();
    const dialog = page.getByRole("dialog", { name: "Import PowerPoint" });

    // The cut-short sample is refused in the dialog.
    await dialog
      .getByLabel("PowerPoint file", { exact: true })
      .setInputFiles("tests/fixtures/pptx/poi-Divino_Revelado.pptx");
    await dialog.getByRole("button", { name: "Import" }).click();
    await expect.poll(() => dialog.getByRole("alert").textContent()).toMatch(/not a ZIP archive, or it is cut short/);

    // Dropped on the dialog: the file it takes is named.
    const bytes = fs.readFileSync("tests/fixtures/pptx/poi-SampleShow.pptx").toString("base64");
    const transfer = await page.evaluateHandle((base64) => {
      const data = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
      const dropped = new DataTransfer();
      dropped.items.add(new File([data], "SampleShow.pptx"));
      return dropped;
    }, bytes);
    await dialog
      .getByRole("group", { name: "Drop a PowerPoint file" })
      .dispatchEvent("drop", { dataTransfer: transfer });
    await expect.poll(() => dialog.getByText("SampleShow.pptx").count()).toBe(1);
    await dialog.getByLabel("PowerPoint import title").fill("Sample show");
    await dialog.getByRole("button", { name: "Import" }).click();
    await page.waitForURL(/\/decks\/[0-9a-f-]{36}$/);
    await waitForStatus(page, "ok");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Sample show");
    await expect.poll(() => page.getByRole("button", { name: /History \(1\)/ }).count()).toBe(1);
    expect(await page.getByRole("navigation", { name: "Outline" }).locator("li").count()).toBeGreaterThanOrEqual(2);
    await context.close();
  }, 180_000);
});

describe("importing Markdown", () => {
  it("turns a pasted Marp deck into a deck opened in the editor, and keeps the text when it refuses", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signUp(page, person("Importer"));
    await page.getByRole("button", { name: "Import Markdown" }).click();
    const dialog = page.getByRole("dialog", { name: "Import Markdown" });

    // Refused at its line: the text stays for the person to fix.
    const broken = "---\ntitle: [unclosed\n---\n\n# Deck\n";
    await dialog.getByLabel("Markdown", { exact: true }).fill(broken);
    await dialog.getByRole("button", { name: "Import" }).click();
    await expect.poll(() => dialog.getByRole("alert").textContent()).toMatch(/Line \d+/);
    expect(await dialog.getByLabel("Markdown", { exact: true }).inputValue()).toBe(broken);

    // Its image is imported when the version is written: served on loopback (FETCH_ALLOW_HOSTS=localhost).
    const images = await serveImageHost({
      "/build-times.png": { body: fs.readFileSync("tests/fixtures/samples/images/build-times.png"), type: "image/png" },
    });
    const marp = fs
      .readFileSync("tests/fixtures/samples/marp-deck.md", "utf8")
      .replaceAll("http://localhost:8799", images.origin);
    await dialog.getByLabel("Markdown", { exact: true }).fill(marp);
    await dialog.getByLabel("Import title").fill("Imported talk");
    await dialog.getByRole("button", { name: "Import" }).click();
    await page.waitForURL(/\/decks\/[0-9a-f-]{36}$/);
    await waitForStatus(page, "ok");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Imported talk");
    // Saved as version 1 with an outline of the Marp deck's slides.
    await expect.poll(() => page.getByRole("button", { name: /History \(1\)/ }).count()).toBe(1);
    expect(await page.getByRole("navigation", { name: "Outline" }).locator("li").count()).toBeGreaterThanOrEqual(5);
    expect(images.requests).toEqual(["/build-times.png"]);
    await images.close();
    await context.close();
  }, 180_000);
});

describe("no lost work in the editor", () => {
  it("refuses a save over a version written in another tab, keeps the typing, and asks before leaving", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const first = await context.newPage();
    await signUp(first, person("Tabber"));
    const key = await createKey(first, "tabs");
    const api = createDeckhandClient({ baseUrl: `${server.origin}/api/v1`, apiKey: key });
    const deck = unwrap(await api.api.POST("/decks", { body: { title: "Shared draft" } }));
    unwrap(
      await api.api.PUT("/decks/{id}/content", {
        params: { path: { id: deck.id } },
        body: { source: deckSource(["Opening"]) },
      }),
    );
    const second = await context.newPage();
    for (const page of [first, second]) {
      await page.goto(`${server.origin}/decks/${deck.id}`);
      await waitForStatus(page, "ok");
    }

    // Tab A saves version 2.
    await replaceSource(first, deckSource(["From tab A"]));
    await waitForStatus(first, "ok");
    await first.getByRole("button", { name: "Save version" }).click();
    await first.getByText("Saved as version 2").waitFor();

    // Tab B, opened on version 1, is refused; its text stays, and it can still save as the newest version.
    const fromB = deckSource(["From tab B"]);
    await replaceSource(second, fromB);
    await waitForStatus(second, "ok");
    await second.getByRole("button", { name: "Save version" }).click();
    await second.getByTestId("save-conflict").waitFor();
    const versions = () => api.api.GET("/decks/{id}/versions", { params: { path: { id: deck.id } } });
    expect(unwrap(await versions()).map((v) => v.version)).toEqual([2, 1]);
    expect(await second.locator('[data-testid="editor-tsx"] .cm-content').textContent()).toContain("From tab B");
    await second.getByRole("button", { name: "Keep mine as a new version" }).click();
    await second.getByText("Saved as version 3").waitFor();
    const v2 = unwrap(
      await api.api.GET("/decks/{id}/versions/{version}", { params: { path: { id: deck.id, version: 2 } } }),
    );
    const v3 = unwrap(
      await api.api.GET("/decks/{id}/versions/{version}", { params: { path: { id: deck.id, version: 3 } } }),
    );
    expect(v2.source).toContain("From tab A");
    expect(v3.source).toBe(fromB);

    // Unsaved typing: a reload asks first, the Library links too (dismissed: the page and the text stay).
    await replaceSource(second, deckSource(["Not saved yet"]));
    expect(await asksBeforeUnload(second)).toBe(true);
    const asked: string[] = [];
    second.once("dialog", (dialog) => {
      asked.push(dialog.type());
      void dialog.dismiss();
    });
    // Both Library links: the header's (followed by Next.js without unloading) and the breadcrumb.
    await second.getByRole("link", { name: "Library" }).first().click();
    await expect.poll(() => asked).toEqual(["confirm"]);
    second.once("dialog", (dialog) => {
      asked.push(dialog.type());
      void dialog.dismiss();
    });
    await second.getByRole("link", { name: "Library" }).last().click();
    await expect.poll(() => asked).toEqual(["confirm", "confirm"]);
    expect(second.url()).toMatch(/\/decks\/[0-9a-f-]{36}$/);
    await context.close();
  }, 180_000);
});

describe("the deck check in the editor", () => {
  it("marks broken slides on the rail and explains them under the preview as the author types", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signUp(page, person("Checker"));
    await page.getByLabel("Title", { exact: true }).fill("Checked deck");
    await page.getByRole("button", { name: "New deck", exact: true }).click();
    await page.waitForURL(/\/decks\/[0-9a-f-]{36}$/);
    await waitForStatus(page, "ok");

    const points = Array.from({ length: 40 }, (_, i) => `"Point ${i + 1} says far more than a slide can hold"`);
    const crowded = `import { Deck, Slide, Title, Heading, Bullets } from "@deckhand/player";

export default function Checked() {
  return (
    <Deck>
      <Slide label="Cover" layout="center">
        <Title>Checked</Title>
      </Slide>
      <Slide label="Everything">
        <Heading>Everything at once</Heading>
        <Bullets items={[${points.join(", ")}]} />
      </Slide>
    </Deck>
  );
}
`;
    await replaceSource(page, crowded);
    await waitForStatus(page, "ok");
    const rail = page.getByRole("navigation", { name: "Outline" });
    const mark = rail.getByRole("button", { name: /Everything/ }).locator("[data-finding]");
    await expect.poll(() => mark.getAttribute("data-finding"), { timeout: 60_000 }).toBe("error");
    expect(await rail.getByRole("button", { name: /Cover/ }).locator("[data-finding]").count()).toBe(0);

    // Under the preview: this slide is fine, slide 2 is not; picking it shows why.
    const findings = page.getByTestId("findings");
    await expect.poll(() => findings.textContent()).toContain("Nothing to fix on this slide");
    await findings.getByRole("button", { name: "2" }).click();
    await expect.poll(() => findings.locator('[data-kind="overflow"]').textContent()).toMatch(/runs \d+ px past/);
    await page.screenshot({ path: "/tmp/editor-check.png" });

    await page.getByRole("button", { name: "Save version" }).click();
    await page.getByText("Saved as version 1").waitFor();

    // Fixed as typed: the mark goes away.
    await replaceSource(page, crowded.replace(points.join(", "), points.slice(0, 4).join(", ")));
    await waitForStatus(page, "ok");
    await expect.poll(() => mark.count(), { timeout: 60_000 }).toBe(0);
    await expect.poll(() => findings.textContent()).toContain("Nothing to fix on this slide");
    await page.keyboard.press("Control+s");
    await page.getByText("Saved as version 2").waitFor();

    // A revert brings the crowded slide back, and its finding with it (the status line keeps saying
    // "Saved as version 3" while the preview and the check catch up).
    await page.getByRole("button", { name: /History/ }).click();
    await expect.poll(() => page.getByTestId("history").locator("[data-version]").count()).toBe(2);
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Revert to version 1" }).click();
    await page.getByText("Saved as version 3").waitFor();
    await expect.poll(() => mark.getAttribute("data-finding"), { timeout: 60_000 }).toBe("error");
    await context.close();
  }, 180_000);
});

describe("the AI panel", () => {
  it("applies an edit with the offline editor and shows the new version", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signUp(page, person("Writer"));
    await page.getByLabel("Title", { exact: true }).fill("AI deck");
    await page.getByRole("button", { name: "New deck", exact: true }).click();
    await page.waitForURL(/\/decks\/[0-9a-f-]{36}$/);
    await waitForStatus(page, "ok");
    await page.getByRole("button", { name: "Save version" }).click();
    await waitForStatus(page, "saved");
    await page.reload();
    await waitForStatus(page, "ok");

    await page.getByRole("button", { name: "AI", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Write with AI" });
    await dialog.getByLabel("Instruction").fill('"First point" → "Ship version one"');
    await dialog.getByRole("button", { name: "Apply edit" }).click();
    await page.getByText("Saved as version 2").waitFor();
    await expect.poll(() => page.getByTestId("editor-tsx").textContent()).toContain("Ship version one");

    // What needs a model says so, and saves nothing.
    await page.getByRole("button", { name: "AI", exact: true }).click();
    await dialog.getByLabel("Instruction").fill("Make it more persuasive");
    await dialog.getByRole("button", { name: "Apply edit" }).click();
    await dialog.getByRole("alert").waitFor();
    await expect.poll(() => dialog.getByRole("alert").textContent()).toMatch(/OPENAI_API_KEY/);
    await context.close();
  }, 60_000);
});

describe("organizations", () => {
  it("invites by link, lets the invitee sign up and join, shares org decks, and switches organizations", async () => {
    const owner = person("Owner");
    const ownerContext = await browser.newContext();
    const ownerPage = await ownerContext.newPage();
    await signUp(ownerPage, owner);
    const key = await createKey(ownerPage, "org");
    const api = createDeckhandClient({ baseUrl: `${server.origin}/api/v1`, apiKey: key });
    const shared = unwrap(await api.api.POST("/decks", { body: { title: "Team roadmap" } }));
    unwrap(await api.api.PATCH("/decks/{id}", { params: { path: { id: shared.id } }, body: { visibility: "org" } }));
    const secret = unwrap(await api.api.POST("/decks", { body: { title: "Owner's private notes" } }));

    await ownerPage.goto(`${server.origin}/settings/members`);
    await ownerPage.getByRole("button", { name: "Create invitation link" }).click();
    const link = await ownerPage.getByTestId("invite-link").inputValue();
    expect(link).toMatch(new RegExp(`^${server.origin}/invite/[\\w-]+$`));

    // The invitee has no account: the link leads through sign-up and back to the invitation.
    const invitee = person("Invitee");
    const inviteeContext = await browser.newContext();
    const page = await inviteeContext.newPage();
    await page.goto(link);
    await expect.poll(() => page.getByRole("heading", { name: /Join Owner's workspace/ }).count()).toBe(1);
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.getByLabel("Name").fill(invitee.name);
    await page.getByLabel("Email").fill(invitee.email);
    await page.getByLabel("Password").fill(invitee.password);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(link);
    await page.getByRole("button", { name: /^Join as/ }).click();
    await page.waitForURL(`${server.origin}/decks`);

    // Now working in the owner's organization: the shared deck is listed, the private one is not.
    await page.goto(`${server.origin}/decks?scope=org`);
    await expect.poll(() => page.getByRole("link", { name: /Team roadmap/ }).count()).toBe(1);
    await expect.poll(() => page.getByText("Owner's private notes").count()).toBe(0);
    // A colleague at a private deck is told it is private and whose it is (issue 37), and sees none of it.
    await page.goto(`${server.origin}/decks/${secret.id}`);
    await expect.poll(() => page.getByRole("heading", { name: "This deck is private" }).count()).toBe(1);
    expect(await page.getByText("Owner's private notes").count()).toBe(0);

    // The link worked once.
    const again = await (await browser.newContext()).newPage();
    await again.goto(link);
    await expect.poll(() => again.getByText("This invitation cannot be used").count()).toBe(1);

    // Both organizations are offered; switching back shows the invitee's own workspace.
    await page.goto(`${server.origin}/decks`);
    // Choosing it is enough: no extra button to press.
    await Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST"),
      page.getByLabel("Organization").selectOption({ label: "Invitee's workspace" }),
    ]);
    await page.goto(`${server.origin}/decks?scope=org`);
    await expect.poll(() => page.getByText("Team roadmap").count()).toBe(0);

    // The only owner cannot step down: the refusal is a message, not an error page.
    await ownerPage.goto(`${server.origin}/settings/members`);
    await ownerPage
      .getByRole("row", { name: new RegExp(owner.email) })
      .getByRole("button", { name: "Make member" })
      .click();
    await confirmIn(ownerPage, "Make member?", "Make member");
    await expect.poll(() => formError(ownerPage).textContent()).toContain("at least one owner");

    // The owner sees the new member and can make them an owner.
    await ownerPage.goto(`${server.origin}/settings/members`);
    const row = ownerPage.getByRole("row", { name: new RegExp(invitee.email) });
    await expect.poll(() => row.textContent()).toContain("member");
    await row.getByRole("button", { name: "Make owner" }).click();
    await confirmIn(ownerPage, "Make owner?", "Make owner");
    await expect
      .poll(() => ownerPage.getByRole("row", { name: new RegExp(invitee.email) }).textContent())
      .toContain("owner");
    await ownerContext.close();
    await inviteeContext.close();
  }, 120_000);
});

describe("brands in the app", () => {
  it("adds a brand from a website, shows its book, and explains why a used brand cannot be deleted", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signUp(page, person("Brand"));
    await page.goto(`${server.origin}/brands`);
    await expect.poll(() => page.getByText("No brands yet").count()).toBe(1);
    await page.getByLabel("Website").fill(sites.url("dark-saas"));
    await page.getByRole("button", { name: "Add brand" }).click();
    await page.waitForURL(/\/brands\/[0-9a-f-]{36}$/);
    const brandId = page.url().split("/").at(-1)!;
    await expect.poll(() => page.getByRole("heading", { name: "Palette" }).count()).toBe(1);
    await expect.poll(() => page.getByText("primary", { exact: true }).count()).toBe(1);
    await expect.poll(() => page.getByRole("heading", { name: "Typography" }).count()).toBe(1);

    const sitePrimary = (await page.locator("li", { hasText: "primary" }).locator(".font-mono").textContent())!.trim();
    const key = await createKey(page, "brand");
    const api = createDeckhandClient({ baseUrl: `${server.origin}/api/v1`, apiKey: key });
    const book = unwrap(await api.api.GET("/brands/{id}", { params: { path: { id: brandId } } }));
    // The book keeps the site's violet; on the site's near-black page the theme draws it a shade lighter,
    // so text in it reads at 4.5:1 (issue 35).
    const primary = /--color-primary:\s*(#[0-9a-f]{6})/i.exec((book.data as { tokensCss: string }).tokensCss)![1]!;
    expect(primary).not.toBe(sitePrimary.toLowerCase());

    // The editor's brand picker applies the brand's tokens; saving keeps them in the version.
    await page.goto(`${server.origin}/decks`);
    await page.getByLabel("Title", { exact: true }).fill("Branded");
    await page.getByRole("button", { name: "New deck", exact: true }).click();
    await page.waitForURL(/\/decks\/[0-9a-f-]{36}$/);
    const deckId = page.url().split("/").at(-1)!;
    await waitForStatus(page, "ok");
    await page.getByRole("tab", { name: "Theme", exact: true }).click();
    await page.getByLabel("Brand").selectOption({ index: 1 });
    await page.getByText("Brand tokens applied").waitFor();
    await openCodePanel(page);
    await page.getByRole("tab", { name: "Theme tokens (CSS)" }).click();
    await expect.poll(() => page.getByTestId("editor-css").textContent()).toContain(primary);
    await waitForStatus(page, "ok");
    // The preview caught up with the brand's tokens, and the note still says they are not saved.
    expect(await page.getByText("Brand tokens applied: save to keep them").count()).toBe(1);
    // The theme panel starts from the brand: its primary colour is the brand's.
    await page.getByRole("tab", { name: "Theme", exact: true }).click();
    await expect
      .poll(() => page.locator('[data-token="--color-primary"] [data-testid="token-value"]').textContent())
      .toBe(primary.toLowerCase());
    await page.getByRole("button", { name: "Save version" }).click();
    await waitForStatus(page, "saved");
    await expect.poll(() => page.getByText("Brand tokens applied").count()).toBe(0);
    const deck = unwrap(await api.api.GET("/decks/{id}", { params: { path: { id: deckId } } }));
    expect(deck.brandId).toBe(brandId);
    expect(deck.latestVersion?.tokensCss).toContain(primary);

    // A deck uses the brand: deleting is refused with the reason.
    await page.goto(`${server.origin}/brands/${brandId}`);
    await page.getByRole("button", { name: "Delete brand" }).click();
    await confirmIn(page, "Delete brand?", "Delete brand");
    await expect.poll(() => formError(page).textContent()).toMatch(/cannot be deleted yet: 1 deck uses this brand/);

    // Once no deck uses it, it goes.
    unwrap(await api.api.DELETE("/decks/{id}", { params: { path: { id: deck.id } } }));
    await page.getByRole("button", { name: "Delete brand" }).click();
    await confirmIn(page, "Delete brand?", "Delete brand");
    await page.waitForURL(`${server.origin}/brands`);
    expect(unwrap(await api.api.GET("/brands"))).toEqual([]);
    await context.close();
  }, 120_000);
});

describe("the app's own pages", () => {
  it("send security headers, and keep a deck in the library from taking its thumbnail frame to another host", async () => {
    const hits: string[] = [];
    const canary = http.createServer((req, res) => {
      hits.push(req.url ?? "");
      res.end("stolen");
    });
    await new Promise<void>((resolve) => canary.listen(0, "127.0.0.1", resolve));
    const target = `http://127.0.0.1:${(canary.address() as AddressInfo).port}/stolen`;

    const context = await browser.newContext();
    const page = await context.newPage();
    await signUp(page, person("Wary"));
    const api = createDeckhandClient({ baseUrl: `${server.origin}/api/v1`, apiKey: await createKey(page, "nav") });
    const deck = unwrap(await api.api.POST("/decks", { body: { title: "Wanders off" } }));
    unwrap(
      await api.api.PUT("/decks/{id}/content", {
        params: { path: { id: deck.id } },
        body: { source: deckSource(["Away"], `location.href = ${JSON.stringify(target)};`) },
      }),
    );
    const refused = new Promise<string>((resolve) =>
      page.on("console", (message) => {
        if (/frame-src/.test(message.text())) resolve(message.text());
      }),
    );
    const response = await page.goto(`${server.origin}/decks`);
    const headers = response!.headers();
    expect(headers["content-security-policy"]).toMatch(/frame-src 'self'(;|$)/);
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    // The thumbnail's navigation is refused by the page's policy, and nothing reaches the other host.
    expect(await refused).toContain(new URL(target).origin);
    expect(hits).toEqual([]);
    const thumbnail = page.getByRole("link", { name: /Wanders off/ }).locator("iframe");
    await expect.poll(() => thumbnail.getAttribute("src")).toMatch(/\/preview\//);
    await context.close();
    await new Promise((resolve) => canary.close(resolve));
  }, 120_000);
});

describe("what the app looks like", () => {
  it("library, editor and brand page match their committed screenshots", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signUp(page, { name: "Morgan", email: "morgan@example.test", password: "correct horse battery staple" });
    const key = await createKey(page, "shots");
    const api = createDeckhandClient({ baseUrl: `${server.origin}/api/v1`, apiKey: key });
    const ids: string[] = [];
    for (const [title, labels] of [
      ["Launch plan", ["Launch plan", "Goals"]],
      ["Board update", ["Board update", "Numbers"]],
    ] as const) {
      const deck = unwrap(await api.api.POST("/decks", { body: { title } }));
      unwrap(
        await api.api.PUT("/decks/{id}/content", {
          params: { path: { id: deck.id } },
          body: { source: deckSource([...labels]) },
        }),
      );
      ids.push(deck.id);
    }

    await page.goto(`${server.origin}/decks`);
    for (const frame of page.frames().filter((f) => f !== page.mainFrame())) {
      await frame.waitForFunction(() => document.documentElement?.dataset.ready === "true");
    }
    expectScreenshot(await stableScreenshot(page, { mask: [page.getByTestId("deck-dates")] }), "app-library");

    await page.goto(`${server.origin}/decks/${ids[0]}`);
    await waitForStatus(page, "ok");
    await page.frameLocator('iframe[title="Preview"]').getByText("Launch plan").first().waitFor();
    await page.getByTestId("findings").waitFor({ timeout: 60_000 });
    // The rail's pictures drawn (each a sandboxed frame of its own).
    await expect
      .poll(() => page.locator('[data-testid="rail-thumbnail"][data-state="ready"]').count(), { timeout: 60_000 })
      .toBe(2);
    expectScreenshot(await stableScreenshot(page, { mask: [page.locator(".cm-cursorLayer")] }), "app-editor");

    await page.goto(`${server.origin}/brands`);
    await page.getByLabel("Website").fill(sites.url("serif-editorial"));
    await page.getByRole("button", { name: "Add brand" }).click();
    await page.waitForURL(/\/brands\/[0-9a-f-]{36}$/);
    await page.evaluate(() => document.fonts.ready);
    expectScreenshot(
      await stableScreenshot(page, { mask: [page.getByRole("link", { name: /^http:\/\/localhost/ })] }),
      "app-brand",
    );
    await context.close();
  }, 180_000);
});

// Answers the app's confirmation dialog (components/app/confirm-dialog.tsx) with its confirming button.
async function confirmIn(page: Page, title: string, button: string) {
  const dialog = page.getByRole("dialog", { name: title });
  await dialog.getByRole("button", { name: button, exact: true }).click();
  await dialog.waitFor({ state: "detached" });
}

async function waitForStatus(page: Page, kind: "ok" | "error" | "saved") {
  // Seen: the toolbar keeps the status whole from 1024 px on (and on a phone).
  await page.locator(`[data-testid="editor-status"][data-kind="${kind}"]`).waitFor({ timeout: 60_000 });
}

// Replaces the whole source in CodeMirror the way a person would (select all, then type over it), and
// waits for the compile of what was typed, so the status read next is about this source.
async function replaceSource(page: Page, source: string) {
  const status = page.getByTestId("editor-status");
  const before = Number(await status.getAttribute("data-answered"));
  await openCodePanel(page);
  const editor = page.locator('[data-testid="editor-tsx"] .cm-content');
  await editor.click();
  await page.keyboard.press("Control+a");
  await page.keyboard.insertText(source);
  await page.waitForFunction(
    (n) => Number(document.querySelector('[data-testid="editor-status"]')?.getAttribute("data-answered")) > n,
    before,
    { timeout: 60_000 },
  );
}
