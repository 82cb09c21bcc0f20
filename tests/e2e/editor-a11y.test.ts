import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { type createDeckhandClient, unwrap } from "@/lib/client";
import { apiOf, person, signUp } from "../helpers/app-session";
import { serverAndBrowser } from "../helpers/editor-suite";

// The editor's accessibility pass (issue 19), in a real Chromium: every control in the accessibility tree
// has a name, and a control with a visible label has that label in its name (WCAG 2.5.3, "label in name"),
// read from Chromium's own accessibility tree; the rail and the inspector as Playwright's accessibility
// snapshot shows them; and both used with the keyboard alone, down to a slide built and its heading
// edited without a click (issue 37, item 8).

const { server, browser } = serverAndBrowser();

const SOURCE = `import { Deck, Slide, Title, Heading, Bullets, Stat } from "@deckhand/player";

export default function Review() {
  return (
    <Deck>
      <Slide label="Cover">
        <Title subtitle="Q3">Quarterly review</Title>
      </Slide>
      <Slide label="Numbers">
        <Heading>The numbers</Heading>
        <Stat value="$4.2M" label="ARR" tone="positive" />
      </Slide>
      <Slide label="Next">
        <Heading>Next steps</Heading>
        <Bullets items={["Hire", "Ship"]} />
      </Slide>
    </Deck>
  );
}
`;

async function openEditor(page: Page): Promise<{ deckId: string; api: ReturnType<typeof createDeckhandClient> }> {
  await signUp(page, server.origin, person("Ada"));
  const api = await apiOf(page, server.origin, "a11y");
  const deck = unwrap(await api.api.POST("/decks", { body: { title: "Accessible" } }));
  unwrap(await api.api.PUT("/decks/{id}/content", { params: { path: { id: deck.id } }, body: { source: SOURCE } }));
  await page.goto(`${server.origin}/decks/${deck.id}`);
  await page.locator('[data-testid="editor-status"][data-kind="ok"]').waitFor({ timeout: 60_000 });
  return { deckId: deck.id, api };
}

const CONTROL_ROLES = new Set([
  "button",
  "checkbox",
  "combobox",
  "link",
  "listbox",
  "menuitem",
  "radio",
  "searchbox",
  "slider",
  "spinbutton",
  "switch",
  "tab",
  "textbox",
]);

type Control = { role: string; name: string; label: string; html: string };

// Every control of the page (not of the sandboxed preview, a tree of its own) with its accessible name as
// Chromium computes it and the text a sighted person sees as its label.
async function controls(page: Page): Promise<Control[]> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as {
    nodes: { ignored: boolean; role?: { value: string }; name?: { value: string }; backendDOMNodeId?: number }[];
  };
  const found: Control[] = [];
  for (const node of nodes) {
    const role = node.role?.value ?? "";
    if (node.ignored || !CONTROL_ROLES.has(role) || !node.backendDOMNodeId) continue;
    const { object } = await cdp.send("DOM.resolveNode", { backendNodeId: node.backendDOMNodeId });
    const { result } = await cdp.send("Runtime.callFunctionOn", {
      objectId: object.objectId!,
      returnByValue: true,
      functionDeclaration: `function () {
        const labels = this.labels ? [...this.labels].map((label) => label.innerText) : [];
        const own = this.matches("button, a, [role=tab], [role=switch]") ? this.innerText : "";
        return { label: [...labels, own].join(" ").replace(/\\s+/g, " ").trim(), html: this.outerHTML.slice(0, 160) };
      }`,
    });
    const { label, html } = result.value as { label: string; html: string };
    found.push({ role, name: (node.name?.value ?? "").replace(/\s+/g, " ").trim(), label, html });
  }
  await cdp.detach();
  return found;
}

const normal = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

describe("the editor's accessibility", () => {
  it("names every control, with its visible label in its name", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await openEditor(page);
    // Something selected, so the inspector shows its controls; then the same pass on the Theme tab.
    await page.frameLocator('iframe[title="Preview"]').locator(".dh-title-text").click();
    await page.getByRole("listbox", { name: "Element" }).getByRole("option", { selected: true }).waitFor();
    const seen: Control[] = [];
    for (const tab of ["Inspector", "Theme"]) {
      await page.getByRole("tab", { name: tab, exact: true }).click();
      seen.push(...(await controls(page)));
    }
    expect(seen.length).toBeGreaterThan(40);
    expect(seen.filter((control) => control.name === "").map((control) => control.html)).toEqual([]);
    const mismatched = seen.filter((control) => control.label && !normal(control.name).includes(normal(control.label)));
    expect(mismatched.map(({ role, name, label }) => `${role} "${name}" shows "${label}"`)).toEqual([]);
    await context.close();
  }, 180_000);

  it("shows the rail and the inspector in the accessibility snapshot, and works them with the keyboard", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const { deckId, api } = await openEditor(page);
    const rail = page.getByRole("navigation", { name: "Outline" });
    const snapshot = await rail.ariaSnapshot();
    for (const entry of ["Add slide", "Cover", "Numbers", "Next"]) expect(snapshot).toContain(entry);

    // The rail: focus a slide, move down with the arrows, move the slide with Alt+ArrowUp.
    await rail.getByRole("button", { name: /^1 Cover/ }).focus();
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? "")).toContain("Numbers");
    await page.keyboard.press("Alt+ArrowUp");
    await expect
      .poll(async () => (await rail.ariaSnapshot()).indexOf("Numbers") < (await rail.ariaSnapshot()).indexOf("Cover"))
      .toBe(true);

    // The inspector: pick the Stat with the keyboard, change its tone, save; the source says so.
    const element = page.getByRole("listbox", { name: "Element" });
    await element.focus();
    await page.keyboard.press("End");
    await expect.poll(() => element.getByRole("option", { selected: true }).textContent()).toContain("Big number");
    const inspector = page
      .getByRole("region", { name: /inspector/i })
      .or(page.locator("section", { hasText: "Inspector" }))
      .first();
    expect(await inspector.ariaSnapshot()).toContain("tone");
    const tone = page.getByRole("combobox", { name: "tone" });
    await tone.focus();
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => tone.inputValue()).not.toBe("positive");
    const chosen = await tone.inputValue();
    await page.locator('[data-testid="editor-status"][data-kind="ok"]').waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: "Save version" }).focus();
    await page.keyboard.press("Enter");
    await page.locator('[data-testid="editor-status"][data-kind="saved"]').waitFor({ timeout: 60_000 });
    const saved = unwrap(await api.api.GET("/decks/{id}", { params: { path: { id: deckId } } }));
    const source = saved.latestVersion?.source ?? "";
    expect(source).toContain(`tone="${chosen}"`);
    expect(source.indexOf('label="Numbers"')).toBeLessThan(source.indexOf('label="Cover"'));
    await context.close();
  }, 180_000);

  it("builds a slide and edits its heading with the keyboard alone, the status whole at 1280 px", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await openEditor(page);
    // The bar keeps the status readable at 1280 px: seen whole, and nothing wider than the window.
    const status = page.getByTestId("editor-status");
    await status.waitFor({ state: "visible" });
    const box = (await status.boundingBox())!;
    expect(box.width).toBeGreaterThan(40);
    expect(box.x + box.width).toBeLessThanOrEqual(1280);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);

    // From the top of the page, the skip link to the slides puts the keyboard on the slide on screen.
    await tabTo(page, page.getByRole("link", { name: "Skip to the slides" }));
    await page.keyboard.press("Enter");
    const rail = page.getByRole("navigation", { name: "Outline" });
    await expect.poll(() => focused(rail.getByRole("button", { name: /^1 Cover/ }))).toBe(true);
    // One tab stop per slide: End and Home go through them, Tab leaves the rail, Shift+F10 opens the menu.
    await page.keyboard.press("End");
    await expect.poll(() => focused(rail.getByRole("button", { name: /^3 Next/ }))).toBe(true);
    await page.keyboard.press("Home");
    await page.keyboard.press("Tab");
    expect(await rail.evaluate((nav) => nav.contains(document.activeElement))).toBe(false);
    await page.keyboard.press("Shift+Tab");
    await expect.poll(() => focused(rail.getByRole("button", { name: /^1 Cover/ }))).toBe(true);
    await page.keyboard.press("Shift+F10");
    const menu = page.getByRole("menu", { name: "Actions of slide 1" });
    await expect.poll(() => focused(menu.getByRole("menuitem", { name: /^Rename/ }))).toBe(true);
    await page.keyboard.press("Escape");
    await expect.poll(() => focused(rail.getByRole("button", { name: /^1 Cover/ }))).toBe(true);

    // Add a slide: the gallery opens on its first layout, the arrows go through it.
    await page.keyboard.press("Shift+Tab");
    await expect.poll(() => focused(rail.getByRole("button", { name: "Add slide" }))).toBe(true);
    await page.keyboard.press("Enter");
    const gallery = page.getByRole("dialog", { name: "Add a slide" });
    await expect.poll(() => focused(gallery.getByRole("button", { name: /^Cover/ }))).toBe(true);
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => focused(gallery.getByRole("button", { name: /^Bullets/ }))).toBe(true);
    await page.keyboard.press("Enter");
    await preview(page).locator(".dh-heading-text", { hasText: "The takeaway of this slide" }).waitFor();
    await expect.poll(() => rail.locator('[data-testid="rail-slide"]').count()).toBe(4);

    // The new slide's heading: from the rail to the inspector's element list, then its own text.
    await tabTo(page, rail.getByRole("button", { name: /^2 / }));
    const elements = page.getByRole("listbox", { name: "Element" });
    await tabTo(page, elements);
    await page.keyboard.press("Home");
    await expect.poll(() => elements.getByRole("option", { selected: true }).textContent()).toMatch(/^Heading/);
    const text = page.getByRole("textbox", { name: "Heading text" });
    await tabTo(page, text);
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("Why it matters");
    await page.keyboard.press("Enter");
    await preview(page).locator(".dh-heading-text", { hasText: "Why it matters" }).waitFor();
    await expect.poll(() => rail.getByRole("button", { name: /^2 / }).getAttribute("aria-current")).toBe("true");
    await context.close();
  }, 180_000);
});

const preview = (page: Page) => page.frameLocator('iframe[title="Preview"]');

async function focused(target: Locator): Promise<boolean> {
  return (await target.count()) === 1 && (await target.evaluate((element) => element === document.activeElement));
}

// Presses Tab (or Shift+Tab) until `target` has the focus; fails after `limit` presses.
async function tabTo(page: Page, target: Locator, limit = 40, key = "Tab"): Promise<void> {
  for (let press = 0; press < limit; press++) {
    if (await focused(target)) return;
    await page.keyboard.press(key);
  }
  if (!(await focused(target))) throw new Error(`${String(target)} not reached with ${limit} presses of ${key}`);
}
