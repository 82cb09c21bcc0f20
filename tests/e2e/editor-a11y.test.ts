import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { type createDeckhandClient, unwrap } from "@/lib/client";
import { apiOf, person, signUp } from "../helpers/app-session";
import { serverAndBrowser } from "../helpers/editor-suite";

// The editor's accessibility pass (issue 19), in a real Chromium: every control in the accessibility tree
// has a name, and a control with a visible label has that label in its name (WCAG 2.5.3, "label in name"),
// read from Chromium's own accessibility tree; the rail and the inspector as Playwright's accessibility
// snapshot shows them; and both used with the keyboard alone.

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
  await page.locator('[data-testid="editor-status"][data-kind="ok"]').waitFor({ state: "attached", timeout: 60_000 });
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
    await expect.poll(() => page.getByRole("combobox", { name: "Element" }).inputValue()).not.toBe("");
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
    const element = page.getByRole("combobox", { name: "Element" });
    await element.focus();
    const options = await element.locator("option").allTextContents();
    const stat = options.find((option) => option.includes("Big number"));
    expect(stat).toBeDefined();
    await element.selectOption({ label: stat! });
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
    await page.locator('[data-testid="editor-status"][data-kind="ok"]').waitFor({ state: "attached", timeout: 60_000 });
    await page.getByRole("button", { name: "Save version" }).focus();
    await page.keyboard.press("Enter");
    await page
      .locator('[data-testid="editor-status"][data-kind="saved"]')
      .waitFor({ state: "attached", timeout: 60_000 });
    const saved = unwrap(await api.api.GET("/decks/{id}", { params: { path: { id: deckId } } }));
    const source = saved.latestVersion?.source ?? "";
    expect(source).toContain(`tone="${chosen}"`);
    expect(source.indexOf('label="Numbers"')).toBeLessThan(source.indexOf('label="Cover"'));
    await context.close();
  }, 180_000);
});
