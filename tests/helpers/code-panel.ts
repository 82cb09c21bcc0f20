import type { Page } from "playwright-core";

// The editor's code is in a panel a person opens (the toolbar's Code button, remembered per browser):
// suites that type in the code open it first, as a person would.

export async function openCodePanel(page: Page): Promise<void> {
  const button = page.getByRole("button", { name: "Code", exact: true });
  if ((await button.getAttribute("aria-expanded")) !== "true") await button.click();
  await page.locator('[data-testid="editor-tsx"] .cm-content').waitFor();
}
