import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import JSZip from "jszip";
import type { BrowserContext, FrameLocator, Page } from "playwright-core";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { type createDeckhandClient, unwrap } from "@/lib/client";
import { apiOf, person, signUp } from "../helpers/app-session";
import { asksBeforeUnload } from "../helpers/browser";
import { serverAndBrowser } from "../helpers/editor-suite";

// The canvas-first editor (issue 37, items 1, 5, 6, 7, 12) in a real Chromium against `next start`, as a
// person who does not write code: the slide large in the middle with the rail and the inspector beside it
// and the code in a panel they open (remembered); Insert, Move and Remove (button and Delete key) on the
// slide; an inspector in plain words; an image dropped onto the canvas, uploaded and placed, in both
// exports; no question when leaving a deck nobody changed; a phone's reader.

const { server, browser } = serverAndBrowser();
const shots = fs.mkdtempSync(path.join(os.tmpdir(), "editor-insert-"));

const SOURCE = `import { Deck, Slide, Title, Heading, Text } from "@deckhand/player";

export default function Pitch() {
  return (
    <Deck>
      <Slide label="Cover" layout="center">
        <Title kicker="Seed round" subtitle="Robots for warehouses">Acme robots</Title>
      </Slide>
      <Slide label="Market">
        <Heading>Market size</Heading>
        <Text>Warehouses first.</Text>
      </Slide>
    </Deck>
  );
}
`;

type Session = { context: BrowserContext; page: Page; api: ReturnType<typeof createDeckhandClient> };

async function session(name: string, viewport = { width: 1440, height: 900 }): Promise<Session> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  await signUp(page, server.origin, person(name));
  return { context, page, api: await apiOf(page, server.origin, "insert") };
}

async function openDeck({ page, api }: Session, source = SOURCE): Promise<string> {
  const deck = unwrap(await api.api.POST("/decks", { body: { title: "Canvas" } }));
  unwrap(await api.api.PUT("/decks/{id}/content", { params: { path: { id: deck.id } }, body: { source } }));
  await page.goto(`${server.origin}/decks/${deck.id}`);
  await waitForStatus(page, "ok");
  return deck.id;
}

async function waitForStatus(page: Page, kind: "ok" | "saved") {
  await page.locator(`[data-testid="editor-status"][data-kind="${kind}"]`).waitFor({ timeout: 60_000 });
}

const preview = (page: Page): FrameLocator => page.frameLocator('iframe[title="Preview"]');
const rail = (page: Page) => page.getByRole("navigation", { name: "Outline" });
const inspector = (page: Page) => page.getByTestId("inspector");

async function codeText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const content = document.querySelector('[data-testid="editor-tsx"] .cm-content') as
      (Element & { cmTile?: { root?: { view?: { state: { doc: { toString(): string } } } } } }) | null;
    return content?.cmTile?.root?.view?.state.doc.toString() ?? "";
  });
}

async function goToSlide(page: Page, label: RegExp) {
  await rail(page).getByRole("button", { name: label }).first().click();
}

async function insert(page: Page, what: string) {
  await page.getByRole("button", { name: "Insert" }).click();
  await page.getByRole("menuitem", { name: new RegExp(`^${what} `) }).click();
}

describe("the canvas", () => {
  it("shows the slide large between the rail and the inspector, the code in a panel that is remembered, the bar on one line", async () => {
    const current = await session("Canvas");
    const { context, page } = current;
    await openDeck(current);
    const frame = (await page.locator('iframe[title="Preview"]').boundingBox())!;
    const railBox = (await rail(page).boundingBox())!;
    const side = (await page.getByRole("complementary", { name: "Inspector and theme" }).boundingBox())!;
    // Most of the width at 1440 px: the rail on the left, the inspector on the right.
    expect(frame.width).toBeGreaterThan(1440 * 0.5);
    expect(railBox.x + railBox.width).toBeLessThanOrEqual(frame.x);
    expect(side.x).toBeGreaterThanOrEqual(frame.x + frame.width);
    // The code is closed; opened, it stays open after a reload (the person's choice), and closes again.
    const code = page.getByRole("button", { name: "Code", exact: true });
    expect(await code.getAttribute("aria-expanded")).toBe("false");
    expect(await page.locator('[data-testid="editor-tsx"]').isVisible()).toBe(false);
    await page.screenshot({ path: path.join(shots, "editor-1440.png") });
    await code.click();
    await page.locator('[data-testid="editor-tsx"] .cm-content').waitFor();
    await page.reload();
    await waitForStatus(page, "ok");
    expect(await code.getAttribute("aria-expanded")).toBe("true");
    await page.locator('[data-testid="editor-tsx"] .cm-content').waitFor();
    // Theme is beside the inspector: the rail stays.
    await page.getByRole("tab", { name: "Theme", exact: true }).click();
    await page.getByTestId("theme-panel").waitFor();
    expect(await rail(page).isVisible()).toBe(true);
    await code.click();
    await expect.poll(() => page.locator('[data-testid="editor-tsx"]').isVisible()).toBe(false);
    // At 1280 px the bar is one line: every control of it on the same row.
    await page.setViewportSize({ width: 1280, height: 800 });
    const tops = await page
      .getByTestId("editor-status")
      .locator("xpath=..")
      .evaluate((bar) =>
        [...bar.querySelectorAll("button, a, input, select")]
          .filter((node) => (node as HTMLElement).offsetParent !== null)
          .map((node) => Math.round(node.getBoundingClientRect().top + node.getBoundingClientRect().height / 2)),
      );
    expect(Math.max(...tops) - Math.min(...tops)).toBeLessThanOrEqual(4);
    await context.close();
  }, 240_000);

  it("leaves a deck nobody changed without a question, and asks once something changed", async () => {
    const { context, page } = await session("Leaver");
    await page.goto(`${server.origin}/decks`);
    await page.getByLabel("Title", { exact: true }).fill("Untouched");
    await page.getByRole("button", { name: "New deck", exact: true }).click();
    await page.waitForURL(/\/decks\/[0-9a-f-]{36}$/);
    await waitForStatus(page, "ok");
    expect(await asksBeforeUnload(page)).toBe(false);
    // The starter is still savable as version 1.
    expect(await page.getByRole("button", { name: "Save version" }).isEnabled()).toBe(true);
    await page.getByLabel("Speaker notes · slide 1").fill("A change");
    await page.keyboard.press("Tab");
    await expect.poll(() => asksBeforeUnload(page)).toBe(true);
    await context.close();
  }, 180_000);

  it("is a reader at 390 px: the slide, Previous and Next, the notes and Present, nothing wider than the phone", async () => {
    const current = await session("Phone");
    const { context, page } = current;
    await openDeck(current);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await waitForStatus(page, "ok");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const frame = (await page.locator('iframe[title="Preview"]').boundingBox())!;
    expect(frame.width).toBeGreaterThan(340);
    expect(frame.x + frame.width).toBeLessThanOrEqual(390);
    expect(await page.getByRole("button", { name: "Present" }).isVisible()).toBe(true);
    await preview(page).locator(".dh-title-text", { hasText: "Acme robots" }).waitFor();
    await page.getByRole("button", { name: "Next" }).click();
    await preview(page).locator(".dh-heading-text:visible", { hasText: "Market size" }).waitFor();
    await page.getByText("Slide 2 of 2").waitFor();
    expect(await page.getByLabel("Speaker notes · slide 2").isVisible()).toBe(true);
    await page.screenshot({ path: path.join(shots, "editor-390.png"), fullPage: true });
    await context.close();
  }, 240_000);
});

describe("Insert, Move and Remove", () => {
  it("adds each kind to the slide on screen where its layout puts it, moves it and removes it by button and by Delete", async () => {
    const current = await session("Inserter");
    const { context, page } = current;
    await openDeck(current);
    await goToSlide(page, /Market/);
    await preview(page).locator(".dh-heading-text", { hasText: "Market size" }).waitFor();

    // A chart, from the Insert menu: on slide 2, after its last element, selected in the inspector.
    await insert(page, "Chart");
    await expect.poll(() => codeText(page)).toMatch(/<Text>Warehouses first\.<\/Text>\s+<Chart type="bar"/);
    expect((await codeText(page)).split("\n")[0]).toContain("Chart");
    await expect.poll(() => inspector(page).locator("[data-component]").getAttribute("data-component")).toBe("Chart");
    await preview(page).locator(".dh-chart-label", { hasText: "Second" }).first().waitFor();
    // The keyboard reaches the menu too: Enter opens it on its first item, arrows move.
    await page.getByRole("button", { name: "Insert" }).focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await expect.poll(() => codeText(page)).toMatch(/<Chart[\s\S]*\]\} \/>\s+<Bullets items=/);

    // Every other kind lands on the slide and compiles.
    for (const kind of ["Text", "Image", "Table", "Stat", "Quote", "Code"]) {
      const before = (await codeText(page)).length;
      await insert(page, kind);
      await expect.poll(async () => (await codeText(page)).length).toBeGreaterThan(before);
      await waitForStatus(page, "ok");
    }
    await preview(page).locator("table").first().waitFor();

    // The selected Code moved earlier: it swaps with the Quote before it.
    await expect.poll(() => inspector(page).locator("[data-component]").getAttribute("data-component")).toBe("Code");
    const text = await codeText(page);
    expect(text.indexOf("<Quote")).toBeLessThan(text.indexOf("<Code"));
    await inspector(page)
      .getByRole("button", { name: /^Move Code .*earlier$/ })
      .click();
    await expect
      .poll(async () => (await codeText(page)).indexOf("<Code"))
      .toBeLessThan((await codeText(page)).indexOf("<Quote"));
    await expect.poll(() => inspector(page).locator("[data-component]").getAttribute("data-component")).toBe("Code");

    // Remove by button, then by the Delete key (the focus on the page, not in a field).
    await inspector(page)
      .getByRole("button", { name: /^Remove Code/ })
      .click();
    await expect.poll(() => codeText(page)).not.toContain("<Code");
    const picker = inspector(page).getByRole("listbox", { name: "Element" });
    await picker.getByRole("option", { name: /^Quote/ }).click();
    await expect.poll(() => inspector(page).locator("[data-component]").getAttribute("data-component")).toBe("Quote");
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("Delete");
    await expect.poll(() => codeText(page)).not.toContain("<Quote");
    // Nothing is selected after a removal: of two Texts, Delete takes the selected one and then nothing else.
    await picker.getByRole("option", { name: /^Text/ }).last().click();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("Delete");
    await expect.poll(async () => (await codeText(page)).match(/<Text>/g)?.length).toBe(1);
    await expect.poll(() => picker.locator('[aria-selected="true"]').count()).toBe(0);
    await page.keyboard.press("Delete");
    expect(await codeText(page)).toContain("<Text>Warehouses first.</Text>");
    // In a text field, Delete is the field's own.
    await picker.getByRole("option").nth(0).click();
    const own = inspector(page).getByLabel("Heading text");
    await own.click();
    await page.keyboard.press("End");
    await page.keyboard.press("Delete");
    expect(await codeText(page)).toContain("<Heading>Market size</Heading>");
    await context.close();
  }, 300_000);
});

describe("the inspector in plain words", () => {
  it("names props as they look, edits the element's own text, a chart's series as a grid, and focuses a new row", async () => {
    const current = await session("Words");
    const { context, page } = current;
    await openDeck(
      current,
      SOURCE.replace(
        "<Text>Warehouses first.</Text>",
        '<Chart type="bar" labels={["Q1", "Q2"]} series={[{ name: "EMEA", values: [1, 2] }, { name: "US", values: [3, 4] }]} />\n        <Bullets items={["One"]} />',
      ).replace("Title, Heading, Text", "Title, Heading, Chart, Bullets"),
    );
    // The cover's Title: its kicker is a small heading above, its words a field of their own.
    await preview(page).locator(".dh-title-text").click();
    await page.keyboard.press("Escape");
    await expect.poll(() => inspector(page).locator("[data-component]").getAttribute("data-component")).toBe("Title");
    expect(await inspector(page).getByLabel("Small heading above").inputValue()).toBe("Seed round");
    await inspector(page).getByLabel("Title text").fill("Acme warehouse robots");
    await page.keyboard.press("Enter");
    await expect.poll(() => codeText(page)).toContain(">Acme warehouse robots</Title>");
    await preview(page).locator(".dh-title-text", { hasText: "Acme warehouse robots" }).waitFor();

    // The chart's series: a grid of names and values, not code.
    await goToSlide(page, /Market/);
    const picker = inspector(page).getByRole("listbox", { name: "Element" });
    await picker.getByRole("option", { name: /^Chart/ }).click();
    expect(await inspector(page).getByText("Written as code").count()).toBe(0);
    const cell = inspector(page).getByLabel("Series row 2, Q2");
    expect(await cell.inputValue()).toBe("4");
    await cell.fill("9");
    await page.keyboard.press("Enter");
    await expect.poll(() => codeText(page)).toContain('{ name: "US", values: [3, 9] }');

    // A new point of a list takes the keyboard at once.
    await picker.getByRole("option", { name: /^Bullet list/ }).click();
    await inspector(page).getByRole("button", { name: "Add to Points" }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Points 2");
    await page.keyboard.type("Two");
    await page.keyboard.press("Enter");
    await expect.poll(() => codeText(page)).toContain('<Bullets items={["One", "Two"]} />');
    await inspector(page).screenshot({ path: path.join(shots, "inspector-bullets.png") });
    await context.close();
  }, 240_000);
});

/** A 640x400 PNG of one colour, as a file a person would drop. */
function png(colour: [number, number, number]): string {
  const image = new PNG({ width: 640, height: 400 });
  for (let offset = 0; offset < image.data.length; offset += 4) {
    image.data.set([...colour, 255], offset);
  }
  return PNG.sync.write(image).toString("base64");
}

async function exportFrom(page: Page, format: "PDF" | "PPTX"): Promise<Buffer> {
  await page.getByRole("button", { name: format, exact: true }).click();
  const link = page.getByRole("link", { name: `Download ${format}` });
  await link.waitFor({ timeout: 120_000 });
  const [file] = await Promise.all([page.waitForEvent("download"), link.click()]);
  return fs.readFileSync((await file.path())!);
}

describe("images dropped onto the canvas", () => {
  it("uploads with progress, asks the alt text, places the image on the slide by its app path, and both exports show it", async () => {
    const current = await session("Dropper");
    const { context, page, api } = current;
    const deckId = await openDeck(current);
    await goToSlide(page, /Market/);
    const transfer = await page.evaluateHandle(
      (data) => {
        const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([bytes], "red-robot.png", { type: "image/png" }));
        return dt;
      },
      png([220, 30, 30]),
    );
    let asked = "";
    page.once("dialog", (dialog) => {
      asked = dialog.message();
      void dialog.accept("A red robot");
    });
    const canvas = page.getByTestId("canvas");
    await canvas.dispatchEvent("dragenter", { dataTransfer: transfer });
    await page.getByTestId("canvas-drop-zone").waitFor();
    await page.getByTestId("canvas-drop-zone").dispatchEvent("dragover", { dataTransfer: transfer });
    await page.getByTestId("canvas-drop-zone").dispatchEvent("drop", { dataTransfer: transfer });
    await expect
      .poll(() => codeText(page), { timeout: 30_000 })
      .toMatch(/<Image src="\/assets\/[0-9a-f]{64}\.png" alt="A red robot" fit="contain" \/>/);
    expect(asked).toMatch(/alt text/);
    // The Images strip lists it.
    await page.getByRole("button", { name: "Code", exact: true }).click();
    await page.getByRole("button", { name: "Images" }).click();
    await page.getByTestId("image-picker-thumbnail").first().waitFor();
    // Drawn on slide 2, at a size (never 0 px).
    const image = preview(page).locator("img[alt='A red robot']");
    await image.waitFor();
    const box = (await image.boundingBox())!;
    expect(box.width).toBeGreaterThan(20);
    expect(box.height).toBeGreaterThan(20);

    // Dropped on the rail's cover (a centred slide): placed on slide 1, where it is given room too.
    const blue = await page.evaluateHandle(
      (data) => {
        const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([bytes], "blue-robot.png", { type: "image/png" }));
        return dt;
      },
      png([30, 60, 220]),
    );
    page.once("dialog", (dialog) => void dialog.accept("A blue robot"));
    const cover = rail(page).locator('[data-testid="rail-slide"][data-index="0"]');
    await cover.dispatchEvent("dragover", { dataTransfer: blue });
    await cover.dispatchEvent("drop", { dataTransfer: blue });
    await expect
      .poll(() => codeText(page), { timeout: 30_000 })
      .toMatch(/<\/Title>\s+<Image src="\/assets\/[0-9a-f]{64}\.png" alt="A blue robot" fit="contain" \/>\s+<\/Slide>/);
    await goToSlide(page, /Cover/);
    const onCover = preview(page).locator("img[alt='A blue robot']");
    await onCover.waitFor();
    await expect.poll(async () => (await onCover.boundingBox())?.height ?? 0).toBeGreaterThan(50);

    await waitForStatus(page, "ok");
    await page.getByRole("button", { name: "Save version" }).click();
    await waitForStatus(page, "saved");
    const versions = unwrap(await api.api.GET("/decks/{id}/versions", { params: { path: { id: deckId } } }));
    expect(versions).toHaveLength(2);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "drop-export-"));
    const pdf = path.join(dir, "deck.pdf");
    fs.writeFileSync(pdf, await exportFrom(page, "PDF"));
    const listed = execFileSync("pdfimages", ["-list", pdf], { encoding: "utf8" });
    expect(listed).toMatch(/\s2\s+\d+\s+image\s+640\s+400\s/);
    const pptx = await JSZip.loadAsync(await exportFrom(page, "PPTX"));
    const slide2 = await pptx.file("ppt/slides/slide2.xml")!.async("string");
    expect(slide2).toContain('descr="A red robot"');
    const media = Object.keys(pptx.files).filter((name) => name.startsWith("ppt/media/"));
    expect(media.length).toBeGreaterThan(0);
    await context.close();
  }, 360_000);
});
