import fs from "node:fs";
import path from "node:path";
import type { BrowserContext, FrameLocator, Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { type createDeckhandClient, unwrap } from "@/lib/client";
import { addSlide, deleteSlide, duplicateSlide, moveSlide, renameSlide } from "@/lib/source/transform/edit";
import { type ItemQuery, replaceItemText } from "@/lib/source/transform/items";
import { elementsOfSlide, setImageSource, setProp } from "@/lib/source/transform/props";
import { apiOf, person, signUp } from "../helpers/app-session";
import { openDeckFrame } from "../helpers/browser";
import { serverAndBrowser } from "../helpers/editor-suite";
import { headingsDeck } from "../helpers/sample-decks";
import { openCodePanel } from "../helpers/code-panel";

// The visual editor over the TSX in a real Chromium against `next start`: text edited in place on the
// preview (chart labels and values, Timeline items too), slides added, duplicated, moved and deleted from
// the rail, a prop changed and an image picked in the inspector, an Image selected by a click, a chart
// label's edit box sized for the screen, the preview kept in view on a short window, and undo across visual
// and code edits. Each check reads the saved version through the API and compares it with what the source
// library (lib/source/transform) makes of the same edits, so a visual edit is shown to change only its own bytes.

const { server, browser } = serverAndBrowser();

const SOURCE = `import { Deck, Slide, Title, Heading, Bullets, Table } from "@deckhand/player";

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
      <Slide label="Numbers">
        <Heading>The numbers</Heading>
        <Table columns={["Segment", "Size"]} rows={[["TAM", "$4.2B"], ["SAM", "$900M"]]} />
      </Slide>
    </Deck>
  );
}
`;

const DATA_SOURCE = `import { Deck, Slide, Heading, Chart, Timeline, Image } from "@deckhand/player";

export default function Roadmap() {
  return (
    <Deck>
      <Slide label="Growth">
        <Heading>Growth</Heading>
        <Chart type="bar" data={[{ label: "Q1", value: 3 }, { label: 'Q2', value: 5 }]} unit="%" />
      </Slide>
      <Slide label="Plan">
        <Heading>Plan</Heading>
        <Timeline
          items={[
            { date: "2025", title: "Pilot" },
            { date: "2026", title: "Launch", detail: "Two cities" },
          ]}
        />
      </Slide>
      <Slide label="Picture">
        <Heading>Our robot</Heading>
        <Image src="/placeholder.png" alt="" fit="contain" />
      </Slide>
    </Deck>
  );
}
`;

// Two images side by side, the second with a caption: a click picks one of them by its place on the slide.
const IMAGES_SOURCE = `import { Deck, Slide, Heading, Columns, Image } from "@deckhand/player";

export default function Pictures() {
  return (
    <Deck>
      <Slide label="Robots">
        <Heading>Two robots</Heading>
        <Columns>
          <Image src="/first.png" alt="First robot" />
          <Image src="/second.png" alt="Second robot" caption="The second one" />
        </Columns>
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
  return { context, page, api: await apiOf(page, server.origin, "visual") };
}

async function openDeck({ page, api }: Session, source: string): Promise<string> {
  const deck = unwrap(await api.api.POST("/decks", { body: { title: "Visual" } }));
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

// What CodeMirror holds: the editor's source state, read from its view (CodeMirror keeps its tile on the
// content element; EditorView.findFromDOM reads the same).
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
    await api.api.GET("/decks/{id}/versions/{version}", {
      params: { path: { id: deckId, version: newest } },
    }),
  );
  return version.source ?? "";
}

// The text CodeMirror has selected.
async function codeSelection(page: Page): Promise<string> {
  return page.evaluate(() => {
    type View = {
      state: { selection: { main: { from: number; to: number } }; sliceDoc(a: number, b: number): string };
    };
    const content = document.querySelector('[data-testid="editor-tsx"] .cm-content') as
      (Element & { cmTile?: { root?: { view?: View } } }) | null;
    const view = content?.cmTile?.root?.view;
    return view ? view.state.sliceDoc(view.state.selection.main.from, view.state.selection.main.to) : "";
  });
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

// Clicks an SVG text on the preview (a chart label), types over it in the box laid over it, commits with Enter.
async function editSvgOnPreview(page: Page, selector: string, old: string, raw: string, next: string) {
  const target = preview(page).locator(selector, { hasText: old }).first();
  await target.click();
  const box = preview(page).locator(".dh-edit-box");
  await box.waitFor();
  // What is edited is the value as written: a value label without its unit.
  expect(await box.textContent()).toBe(raw);
  await page.keyboard.press("Control+a");
  await page.keyboard.insertText(next);
  const out = process.env.VISUAL_EDITOR_SCREENSHOTS;
  if (out) await page.screenshot({ path: path.join(out, `chart-edit-${raw}.png`) });
  await page.keyboard.press("Enter");
  await box.waitFor({ state: "detached" });
}

// Where the screenshots the tests take to be looked at go (VISUAL_EDITOR_SCREENSHOTS), if anywhere.
async function shoot(page: Page, name: string) {
  const out = process.env.VISUAL_EDITOR_SCREENSHOTS;
  if (!out) return;
  fs.mkdirSync(out, { recursive: true });
  await page.screenshot({ path: path.join(out, name) });
}

async function goToSlide(page: Page, label: RegExp) {
  await page.getByRole("navigation", { name: "Outline" }).getByRole("button", { name: label }).first().click();
}

async function railLabels(page: Page): Promise<string[]> {
  return page
    .getByRole("navigation", { name: "Outline" })
    .locator('[data-testid="rail-slide"]')
    .evaluateAll((items) => items.map((item) => item.querySelector("button span:nth-child(2)")?.textContent ?? ""));
}

describe("the visual editor", () => {
  it("edits a heading in place: one undo step in the code's history, and the saved source differs only there", async () => {
    const session = await signUpWithKey("Heading");
    const { page, api } = session;
    const deckId = await openDeck(session, SOURCE);
    await page
      .getByRole("navigation", { name: "Outline" })
      .getByRole("button", { name: /Market/ })
      .first()
      .click();
    await preview(page).locator(".dh-heading-text", { hasText: "Market size" }).waitFor();

    await editOnPreview(page, ".dh-heading-text", "Market size", "Total market");
    await expect.poll(() => codeText(page)).toContain("<Heading>Total market</Heading>");
    // The code view follows: the edited text is selected there.
    await expect.poll(() => codeSelection(page)).toBe("Total market");
    // The preview shows the recompiled deck, and the code view selected the edited text.
    await preview(page).locator(".dh-heading-text", { hasText: "Total market" }).waitFor();
    // Ctrl-Z in the code undoes the visual edit; Ctrl-Shift-Z redoes it.
    await openCodePanel(page);
    await page.locator('[data-testid="editor-tsx"] .cm-content').focus();
    await page.keyboard.press("Control+z");
    await expect.poll(() => codeText(page)).toContain("<Heading>Market size</Heading>");
    await preview(page).locator(".dh-heading-text", { hasText: "Market size" }).waitFor();
    await page.keyboard.press("Control+Shift+z");
    await expect.poll(() => codeText(page)).toContain("<Heading>Total market</Heading>");

    // The preview follows the cursor: a click in slide 3's code shows slide 3, by a message to the same frame.
    await preview(page).locator(".dh-heading-text", { hasText: "Total market" }).waitFor();
    await expect.poll(() => page.getByTestId("preview").getAttribute("data-frames")).toBe("1");
    const shown = await page.locator('iframe[title="Preview"]').getAttribute("src");
    await page.locator(".cm-line", { hasText: "The numbers" }).click();
    await preview(page).locator(".dh-heading-text", { hasText: "The numbers" }).waitFor();
    expect(await page.locator('iframe[title="Preview"]').getAttribute("src")).toBe(shown);
    await expect
      .poll(() => page.getByRole("navigation", { name: "Outline" }).locator('[aria-current="true"]').textContent())
      .toContain("Numbers");

    const saved = await save(page, api, deckId);
    expect(saved).toBe(SOURCE.replace("<Heading>Market size</Heading>", "<Heading>Total market</Heading>"));
    await session.context.close();
  }, 180_000);

  it("edits a table cell in place, and Escape leaves the text as it was", async () => {
    const session = await signUpWithKey("Table");
    const { page, api } = session;
    const deckId = await openDeck(session, SOURCE);
    await page
      .getByRole("navigation", { name: "Outline" })
      .getByRole("button", { name: /Numbers/ })
      .first()
      .click();
    const cell = preview(page).locator(".dh-table-cell", { hasText: "$4.2B" });
    await cell.waitFor();

    // Escape: nothing is written.
    await cell.click();
    await expect.poll(() => cell.getAttribute("contenteditable")).toBe("plaintext-only");
    await page.keyboard.press("Control+a");
    await page.keyboard.insertText("never");
    await page.keyboard.press("Escape");
    await expect.poll(() => cell.getAttribute("contenteditable")).toBeNull();
    expect(await codeText(page)).toContain('["TAM", "$4.2B"]');

    await editOnPreview(page, ".dh-table-cell", "$4.2B", "$5.0B");
    await expect.poll(() => codeText(page)).toContain('["TAM", "$5.0B"]');
    await preview(page).locator(".dh-table-cell", { hasText: "$5.0B" }).waitFor();
    const saved = await save(page, api, deckId);
    expect(saved).toBe(SOURCE.replace('"$4.2B"', '"$5.0B"'));
    await session.context.close();
  }, 180_000);

  it("adds from the gallery, duplicates, renames, moves (drag and keyboard) and deletes slides from the rail", async () => {
    const session = await signUpWithKey("Rail");
    const { page, api } = session;
    const deckId = await openDeck(session, SOURCE);
    const rail = page.getByRole("navigation", { name: "Outline" });
    let expected = SOURCE;

    // Add a "Stats" slide after the first (the slide on screen).
    await rail.getByRole("button", { name: "Add slide" }).click();
    const gallery = page.getByRole("dialog", { name: "Add a slide" });
    expect(await gallery.locator("[data-layout]").count()).toBe(11);
    await gallery.getByRole("button", { name: /^Stats/ }).click();
    expected = addSlide(expected, "slides", { after: 0, layout: "stats" });
    await expect.poll(() => codeText(page)).toBe(expected);

    // Duplicate the cover.
    await rail.getByRole("button", { name: "Duplicate slide 1" }).click();
    expected = duplicateSlide(expected, "slides", 0);
    await expect.poll(() => codeText(page)).toBe(expected);

    // Rename the copy in place.
    await rail.getByRole("button", { name: "Rename slide 2" }).click();
    const field = rail.getByLabel("Label of slide 2");
    await field.fill("Second cover");
    await field.press("Enter");
    expected = renameSlide(expected, "slides", 1, "Second cover");
    await expect.poll(() => codeText(page)).toBe(expected);

    // Drag slide 1 onto slide 4's place.
    const items = rail.locator('[data-testid="rail-slide"]');
    await items.nth(0).dragTo(items.nth(3));
    expected = moveSlide(expected, "slides", 0, 3);
    await expect.poll(() => codeText(page)).toBe(expected);

    // Alt+ArrowUp moves the focused slide up.
    await items.nth(3).getByRole("button").first().focus();
    await page.keyboard.press("Alt+ArrowUp");
    expected = moveSlide(expected, "slides", 3, 2);
    await expect.poll(() => codeText(page)).toBe(expected);

    // Delete asks first, in the app's dialog (it has the keyboard): Cancel or Escape keep the slide,
    // "Delete slide" removes it.
    const asked = page.getByRole("dialog", { name: "Delete slide 5?" });
    const focusInDialog = () => page.evaluate(() => document.activeElement?.closest("dialog[open]") !== null);
    await rail.getByRole("button", { name: "Delete slide 5" }).click();
    await asked.waitFor();
    expect(await focusInDialog()).toBe(true);
    await asked.getByRole("button", { name: "Cancel", exact: true }).click();
    await expect.poll(() => asked.count()).toBe(0);
    await rail.getByRole("button", { name: "Delete slide 5" }).click();
    await asked.waitFor();
    await page.keyboard.press("Escape");
    await expect.poll(() => asked.count()).toBe(0);
    expect(await items.count()).toBe(5);
    expect(await codeText(page)).toBe(expected);
    await rail.getByRole("button", { name: "Delete slide 5" }).click();
    await asked.getByRole("button", { name: "Delete slide", exact: true }).click();
    expected = deleteSlide(expected, "slides", 4);
    await expect.poll(() => codeText(page)).toBe(expected);
    expect(await railLabels(page)).toEqual(["Second cover", "Stats", "Cover", "Market"]);

    expect(await save(page, api, deckId)).toBe(expected);
    await session.context.close();
  }, 240_000);

  it("draws each slide on the rail in a sandboxed frame, and asks again only for the slide that changed", async () => {
    const session = await signUpWithKey("Thumbnails");
    const { page } = session;
    await openDeck(session, headingsDeck(5));
    const rail = page.getByRole("navigation", { name: "Outline" });
    const thumbnail = (n: number) => page.locator(`[data-testid="rail-thumbnail"][data-slide="${n}"]`);
    const drawn = (n: number) =>
      page
        .frameLocator(`[data-testid="rail-thumbnail"][data-slide="${n}"] iframe[data-front]`)
        .locator(".dh-heading-text")
        .textContent();
    await expect.poll(() => page.getByTestId("rail-thumbnail").count()).toBe(5);
    await expect
      .poll(() => page.locator('[data-testid="rail-thumbnail"][data-state="ready"]').count(), { timeout: 60_000 })
      .toBe(5);
    for (let n = 1; n <= 5; n++) await expect.poll(() => drawn(n)).toBe(`Heading number ${n}`);

    // The frames: sandboxed, thumbnail mode, out of the tab order and of the accessibility tree, in an inert
    // layer that takes no click (a click on a picture picks its slide).
    const frames = page.getByTestId("rail-thumbnail").locator("iframe");
    for (const frame of await frames.all()) {
      expect(await frame.getAttribute("sandbox")).toBe("allow-scripts");
      expect(await frame.getAttribute("tabindex")).toBe("-1");
      expect(await frame.getAttribute("loading")).toBe("lazy");
      expect(await frame.getAttribute("src")).toMatch(/\/preview\/[^/]+\/frame\?mode=thumb&chrome=0&slide=\d+$/);
    }
    const layer = page.getByTestId("rail-thumbnail").first().locator("..");
    expect(
      await layer.evaluate((element) => [element.hasAttribute("inert"), element.getAttribute("aria-hidden")]),
    ).toEqual([true, "true"]);
    const box = (await thumbnail(2).boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect.poll(() => rail.locator('button[aria-current="true"]').textContent()).toContain("Part 2");

    // Which frames load from now on, and whether a picture ever goes blank.
    const sources = () =>
      page
        .getByTestId("rail-thumbnail")
        .evaluateAll((elements) =>
          elements.map(
            (element) =>
              [
                element.getAttribute("data-slide") ?? "",
                element.querySelector("iframe[data-front]")?.getAttribute("src") ?? "",
              ] as const,
          ),
        );
    await page.evaluate(() => {
      const seen = { blank: 0 };
      (window as unknown as { thumbnailWatch: typeof seen }).thumbnailWatch = seen;
      new MutationObserver((changes) => {
        for (const change of changes) {
          if ((change.target as Element).getAttribute("data-state") === "loading") seen.blank++;
        }
      }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["data-state"] });
    });
    const before = new Map(await sources());

    // Slide 3's heading edited on the preview: only slide 3's picture is asked again.
    await rail.getByRole("button", { name: /^3 Part 3\b/ }).click();
    await editOnPreview(page, ".dh-heading-text", "Heading number 3", "Heading three, edited");
    await expect.poll(() => drawn(3), { timeout: 30_000 }).toBe("Heading three, edited");
    await expect.poll(() => thumbnail(3).getAttribute("data-frames")).toBe("1");
    const afterEdit = new Map(await sources());
    for (const n of ["1", "2", "4", "5"]) expect(afterEdit.get(n)).toBe(before.get(n));
    expect(afterEdit.get("3")).not.toBe(before.get("3"));

    // Slide 5 moved up with the keyboard: no picture is asked again, each follows its slide.
    await rail.getByRole("button", { name: /^5 Part 5\b/ }).focus();
    await page.keyboard.press("Alt+ArrowUp");
    await expect.poll(() => railLabels(page)).toEqual(["Part 1", "Part 2", "Part 3", "Part 5", "Part 4"]);
    await expect.poll(() => drawn(4)).toBe("Heading number 5");
    expect(await drawn(5)).toBe("Heading number 4");
    const afterMove = new Map(await sources());
    expect([...afterMove.values()].sort()).toEqual([...afterEdit.values()].sort());
    expect(
      await page.evaluate(() => (window as unknown as { thumbnailWatch: { blank: number } }).thumbnailWatch.blank),
    ).toBe(0);
    await session.context.close();
  }, 240_000);

  it("changes an enum prop in the inspector", async () => {
    const session = await signUpWithKey("Inspector");
    const { page, api } = session;
    const deckId = await openDeck(session, SOURCE);
    await page
      .getByRole("navigation", { name: "Outline" })
      .getByRole("button", { name: /Market/ })
      .first()
      .click();
    // A click on the heading selects it (the text becomes editable too: Escape leaves it as it was).
    await preview(page).locator(".dh-heading-text", { hasText: "Market size" }).click();
    await page.keyboard.press("Escape");
    const inspector = page.getByTestId("inspector");
    await expect.poll(() => inspector.locator("[data-component]").getAttribute("data-component")).toBe("Heading");
    await inspector.getByLabel("level").selectOption("2");
    const heading = elementsOfSlide(SOURCE, "slides", 1).find((element) => element.name === "Heading")!;
    const expected = setProp(SOURCE, { start: heading.start, name: "level", value: 2 });
    await expect.poll(() => codeText(page)).toBe(expected);
    await preview(page).locator('.dh-heading[data-level="2"]').waitFor();
    expect(await save(page, api, deckId)).toBe(expected);
    await session.context.close();
  }, 180_000);

  it("edits a chart's label and value and a Timeline item in place, each written into its literal", async () => {
    const session = await signUpWithKey("Items");
    const { page, api } = session;
    const deckId = await openDeck(session, DATA_SOURCE);
    await goToSlide(page, /Growth/);
    await preview(page).locator(".dh-chart-label", { hasText: "Q2" }).waitFor();
    const chart = (path: ItemQuery["path"], text: string): ItemQuery => ({
      slide: 0,
      component: "Chart",
      index: 0,
      count: 1,
      path,
      text,
    });

    // A category label (SVG): typed in the box over it; the string literal changes, keeping its quote.
    await editSvgOnPreview(page, ".dh-chart-label", "Q2", "Q2", "Q2 (est.)");
    let expected = replaceItemText(DATA_SOURCE, "slides", { ...chart(["data", 1, "label"], "Q2"), next: "Q2 (est.)" });
    expect(expected).toContain(`{ label: 'Q2 (est.)', value: 5 }`);
    await expect.poll(() => codeText(page)).toBe(expected);
    await expect.poll(() => codeSelection(page)).toBe("Q2 (est.)");
    await preview(page).locator(".dh-chart-label", { hasText: "Q2 (est.)" }).waitFor();

    // A value label shows "5%"; the number is edited, and written as a number.
    await editSvgOnPreview(page, ".dh-chart-value", "5%", "5", "7%");
    expected = replaceItemText(expected, "slides", { ...chart(["data", 1, "value"], "5"), next: "7%" });
    expect(expected).toContain(`{ label: 'Q2 (est.)', value: 7 }`);
    await expect.poll(() => codeText(page)).toBe(expected);
    await preview(page).locator(".dh-chart-value", { hasText: "7%" }).waitFor();

    // A Timeline item's title, edited in place like any text of the slide.
    await goToSlide(page, /Plan/);
    await editOnPreview(page, ".dh-timeline-title", "Launch", "General launch");
    expected = replaceItemText(expected, "slides", {
      slide: 1,
      component: "Timeline",
      index: 0,
      count: 1,
      path: ["items", 1, "title"],
      text: "Launch",
      next: "General launch",
    });
    await expect.poll(() => codeText(page)).toBe(expected);
    await preview(page).locator(".dh-timeline-title", { hasText: "General launch" }).waitFor();
    // The inspector shows the clicked item's element.
    const inspector = page.getByTestId("inspector");
    await expect.poll(() => inspector.locator("[data-component]").getAttribute("data-component")).toBe("Timeline");

    // Saved: the source differs from the original at those three literals only.
    const saved = await save(page, api, deckId);
    expect(saved).toBe(
      DATA_SOURCE.replace("label: 'Q2', value: 5", "label: 'Q2 (est.)', value: 7").replace(
        'title: "Launch"',
        'title: "General launch"',
      ),
    );
    await session.context.close();
  }, 240_000);

  it("points an Image at one of the organization's images from the inspector, offering alt text", async () => {
    const session = await signUpWithKey("Picker");
    const { page, api } = session;
    const png = (
      await sharp({ create: { width: 640, height: 400, channels: 3, background: "#2563eb" } })
        .png()
        .toBuffer()
    ).toString("base64");
    const asset = unwrap(
      await api.api.POST("/assets", { params: { query: { alt: "A blue card" } }, body: { data: png } }),
    );
    const deckId = await openDeck(session, DATA_SOURCE);
    await goToSlide(page, /Picture/);
    await preview(page).locator(".dh-heading-text", { hasText: "Our robot" }).waitFor();
    // The Image is picked in the inspector's element list (an image has no text to click).
    const elements = elementsOfSlide(DATA_SOURCE, "slides", 2);
    const image = elements.findIndex((element) => element.name === "Image");
    const inspector = page.getByTestId("inspector");
    await inspector.getByRole("listbox", { name: "Element" }).getByRole("option").nth(image).click();
    await expect.poll(() => inspector.locator("[data-component]").getAttribute("data-component")).toBe("Image");
    await inspector.getByRole("button", { name: "Choose image…" }).click();
    const thumbnail = inspector.getByTestId("image-source-thumbnail").first();
    await thumbnail.waitFor();
    await expect.poll(() => thumbnail.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await inspector.scrollIntoViewIfNeeded();
    const out = process.env.VISUAL_EDITOR_SCREENSHOTS;
    if (out) {
      fs.mkdirSync(out, { recursive: true });
      await page.screenshot({ path: path.join(out, "inspector-image.png") });
    }

    // The element's alt is empty: picking asks for one, offering the image's own.
    let asked = "";
    page.once("dialog", (dialog) => {
      asked = dialog.defaultValue();
      void dialog.accept("A blue robot card");
    });
    await inspector.getByRole("button", { name: "Use A blue card" }).click();
    // The source names the image by the app's relative path, not the server's address (issue 37, item 6).
    const assetPath = new URL(asset.url).pathname;
    const expected = setImageSource(DATA_SOURCE, {
      start: elements[image]!.start,
      src: assetPath,
      alt: "A blue robot card",
    });
    expect(expected).toContain(`<Image src="${assetPath}" alt="A blue robot card" fit="contain" />`);
    await expect.poll(() => codeText(page)).toBe(expected);
    expect(asked).toBe("A blue card");
    // The preview draws it (the placeholder it replaced did not load).
    await expect
      .poll(() =>
        preview(page)
          .locator("img.dh-image-img")
          .evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).naturalWidth)),
      )
      .toEqual([640]);
    expect(await save(page, api, deckId)).toBe(expected);
    await session.context.close();
  }, 240_000);

  it("selects an Image by a click on the preview: the inspector shows its props and the code view selects it", async () => {
    const session = await signUpWithKey("ImageClick");
    const { page, api } = session;
    const deckId = await openDeck(session, IMAGES_SOURCE);
    const images = preview(page).locator(".dh-image");
    await expect.poll(() => images.count()).toBe(2);
    const elements = elementsOfSlide(IMAGES_SOURCE, "slides", 0).filter((element) => element.name === "Image");
    const inspector = page.getByTestId("inspector");

    // The second image, clicked on its caption: it is selected (outlined), the slide does not move on.
    await preview(page).locator(".dh-image-caption", { hasText: "The second one" }).click();
    await expect.poll(() => inspector.locator("[data-component]").getAttribute("data-component")).toBe("Image");
    await expect.poll(() => inspector.getByLabel("alt").inputValue()).toBe("Second robot");
    await inspector.getByTestId("image-source").getByText("Upload image…").waitFor();
    await expect.poll(() => codeSelection(page)).toBe(IMAGES_SOURCE.slice(elements[1]!.start, elements[1]!.end));
    expect(await images.nth(1).getAttribute("data-dh-selected")).toBe("");
    expect(await images.nth(0).getAttribute("data-dh-selected")).toBeNull();
    expect(await preview(page).locator(".dh-stage-slide:not([hidden]) .dh-slide").getAttribute("data-slide")).toBe("1");
    await shoot(page, "image-selected.png");

    // The first, clicked on its picture (a missing one here): the selection follows, nothing is typed.
    await images.nth(0).click();
    await expect.poll(() => inspector.getByLabel("alt").inputValue()).toBe("First robot");
    await expect.poll(() => codeSelection(page)).toBe(IMAGES_SOURCE.slice(elements[0]!.start, elements[0]!.end));
    expect(await images.nth(0).getAttribute("contenteditable")).toBeNull();
    expect(await images.nth(1).getAttribute("data-dh-selected")).toBeNull();

    // A prop changed in the inspector is written on that Image only.
    await inspector.getByLabel("fit").selectOption("contain");
    const expected = setProp(IMAGES_SOURCE, { start: elements[0]!.start, name: "fit", value: "contain" });
    await expect.poll(() => codeText(page)).toBe(expected);
    expect(await save(page, api, deckId)).toBe(expected);
    await session.context.close();
  }, 240_000);

  it("lays a chart label's edit box at a legible size on the scaled-down preview, without moving the slide", async () => {
    const session = await signUpWithKey("ChartBox");
    const { page } = session;
    await openDeck(session, DATA_SOURCE);
    await goToSlide(page, /Growth/);
    const label = preview(page).locator(".dh-chart-label", { hasText: "Q1" });
    await label.waitFor();
    const heading = preview(page).locator(".dh-heading-text", { hasText: "Growth" });
    const box = preview(page).locator(".dh-edit-box");

    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 1100, height: 800 },
    ]) {
      await page.setViewportSize(viewport);
      // The preview's frame, 1920 px wide, drawn at the pane's width.
      const frame = page.locator('iframe[title="Preview"]');
      await expect.poll(async () => Math.round((await frame.boundingBox())!.width)).toBeLessThan(1920 * 0.5);
      const scale = (await frame.boundingBox())!.width / 1920;
      const drawn = (await label.boundingBox())!;
      const headingBefore = await heading.boundingBox();
      await label.click();
      await box.waitFor();
      const shown = (await box.boundingBox())!;
      const fontOnScreen =
        Number.parseFloat(await box.evaluate((element) => getComputedStyle(element).fontSize)) * scale;
      // Legible: a 14 px font on screen at least, and as large as the label it covers, with room to type.
      expect(fontOnScreen).toBeGreaterThanOrEqual(13.9);
      expect(shown.height).toBeGreaterThanOrEqual(Math.max(drawn.height, 17));
      expect(shown.width).toBeGreaterThanOrEqual(Math.max(drawn.width, 80));
      // Over the label, inside the preview.
      const previewBox = (await page.getByTestId("preview").boundingBox())!;
      expect(shown.x).toBeGreaterThanOrEqual(previewBox.x - 1);
      expect(shown.x + shown.width).toBeLessThanOrEqual(previewBox.x + previewBox.width + 1);
      expect(Math.abs(shown.y + shown.height / 2 - (drawn.y + drawn.height / 2))).toBeLessThan(2);
      // Laid over the slide: nothing of the slide moved.
      expect(await heading.boundingBox()).toEqual(headingBefore);
      await shoot(page, `chart-box-${viewport.width}.png`);
      await page.keyboard.press("Escape");
      await box.waitFor({ state: "detached" });
      expect(await codeText(page)).toBe(DATA_SOURCE);
    }
    await session.context.close();
  }, 180_000);

  it("keeps the preview in view while a long inspector scrolls, on a short window", async () => {
    const session = await signUpWithKey("ShortWindow");
    const { page } = session;
    await openDeck(session, DATA_SOURCE);
    await goToSlide(page, /Growth/);
    const inspector = page.getByTestId("inspector");
    const frame = page.locator('iframe[title="Preview"]');
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 1440, height: 700 },
    ]) {
      await page.setViewportSize(viewport);
      // A Chart selected (a click on its label; Escape leaves the label as it was): its inspector is long.
      await preview(page).locator(".dh-chart-label", { hasText: "Q1" }).click();
      await page.keyboard.press("Escape");
      await expect.poll(() => inspector.locator("[data-component]").getAttribute("data-component")).toBe("Chart");
      // Scrolled to its bottom, as a person would (the wheel over it), and its last control brought into view.
      const panels = page.getByTestId("side-panel");
      const middle = (await panels.boundingBox())!;
      await page.mouse.move(middle.x + middle.width / 2, middle.y + middle.height / 2);
      for (let turn = 0; turn < 10; turn++) await page.mouse.wheel(0, 400);
      const last = inspector.locator("[data-component] > *").last();
      await last.scrollIntoViewIfNeeded();
      await expect
        .poll(() => panels.evaluate((element) => element.scrollHeight - element.clientHeight - element.scrollTop))
        .toBeLessThanOrEqual(1);
      // Where the inspector is longer than its room it did scroll (on the short window it is), and the
      // preview is whole on screen still.
      if (viewport.height === 700) expect(await panels.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
      // The page itself never scrolls: the editor takes exactly the height the header leaves.
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).toBe(0);
      const shown = (await frame.boundingBox())!;
      const onScreen = (await page.getByTestId("preview").boundingBox())!;
      for (const rect of [shown, onScreen]) {
        expect(rect.y).toBeGreaterThanOrEqual(0);
        expect(rect.x).toBeGreaterThanOrEqual(0);
        expect(rect.y + rect.height).toBeLessThanOrEqual(viewport.height);
        expect(rect.x + rect.width).toBeLessThanOrEqual(viewport.width);
      }
      const lastBox = (await last.boundingBox())!;
      expect(lastBox.y + lastBox.height).toBeLessThanOrEqual(viewport.height);
      await shoot(page, `inspector-scrolled-${viewport.height}.png`);
    }
    await session.context.close();
  }, 180_000);

  it("offers an upload for an Image when the organization has no images yet, and points the Image at it", async () => {
    const session = await signUpWithKey("Uploader");
    const { page, api } = session;
    const deckId = await openDeck(session, DATA_SOURCE);
    await goToSlide(page, /Picture/);
    await preview(page).locator(".dh-heading-text", { hasText: "Our robot" }).waitFor();
    const elements = elementsOfSlide(DATA_SOURCE, "slides", 2);
    const image = elements.findIndex((element) => element.name === "Image");
    const inspector = page.getByTestId("inspector");
    await inspector.getByRole("listbox", { name: "Element" }).getByRole("option").nth(image).click();
    const control = inspector.getByTestId("image-source");
    // No images: no picker, an upload instead.
    await control.getByText("Upload image…").waitFor();
    expect(await control.getByRole("button", { name: "Choose image…" }).count()).toBe(0);

    const red = await sharp({ create: { width: 320, height: 200, channels: 3, background: "#dc2626" } })
      .png()
      .toBuffer();
    let asked = "";
    page.once("dialog", (dialog) => {
      asked = dialog.defaultValue();
      void dialog.accept("A red card");
    });
    await control.getByLabel("Upload an image for this Image").setInputFiles({
      name: "red-card.png",
      mimeType: "image/png",
      buffer: red,
    });
    await expect.poll(() => codeText(page)).toMatch(/<Image src="\/assets\/[0-9a-f]{64}\.png" alt="A red card"/);
    expect(asked).toBe("red card");
    const url = /<Image src="([^"]+)"/.exec(await codeText(page))![1]!;
    const expected = setImageSource(DATA_SOURCE, { start: elements[image]!.start, src: url, alt: "A red card" });
    expect(await codeText(page)).toBe(expected);
    // The organization has an image now: the picker is offered.
    await control.getByRole("button", { name: "Choose image…" }).waitFor();
    expect(await save(page, api, deckId)).toBe(expected);
    await session.context.close();
  }, 240_000);

  it("turns edit mode on in the editor's preview only, and takes no edit the deck's own code posts", async () => {
    // The deck posts the editor an edit of its own title, again and again, as any deck code could.
    const hostile = `import { Deck, Slide, Title } from "@deckhand/player";

export default function Hostile() {
  setInterval(() => {
    window.parent.postMessage(
      { source: "deckhand-player", type: "edit-text", slide: 0, text: "Safe title", occurrence: 0, next: "Owned" },
      "*",
    );
  }, 50);
  return (
    <Deck>
      <Slide label="Only">
        <Title>Safe title</Title>
      </Slide>
    </Deck>
  );
}
`;
    const session = await signUpWithKey("Guard");
    const { page, api } = session;
    // Every message a frame posts to the editor, seen before the editor's own listener.
    await page.addInitScript(() => {
      const seen: unknown[] = [];
      (window as unknown as { seenMessages: unknown[] }).seenMessages = seen;
      window.addEventListener("message", (event) => seen.push(event.data), true);
    });
    const deckId = await openDeck(session, hostile);
    await expect.poll(() => preview(page).locator("html").getAttribute("data-edit")).toBe("true");
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            (window as unknown as { seenMessages: { type?: string }[] }).seenMessages.filter(
              (message) => message?.type === "edit-text",
            ).length,
        ),
      )
      .toBeGreaterThan(3);
    // Posted while no person is in the frame: the source is as it was, and there is nothing to save.
    expect(await codeText(page)).toBe(hostile);
    expect(await page.getByRole("button", { name: "Save version" }).isDisabled()).toBe(true);

    // The share viewer's frame never edits, whatever its query says.
    const published = unwrap(
      await api.api.PATCH("/decks/{id}", { params: { path: { id: deckId } }, body: { visibility: "public" } }),
    );
    const viewer = await session.context.newPage();
    const frame = await openDeckFrame(viewer, `${server.origin}/d/${published.publicSlug}/embed?chrome=0&edit=1`);
    expect(await frame.evaluate(() => document.documentElement.dataset.edit ?? null)).toBeNull();
    await frame.locator(".dh-title-text").click();
    expect(await frame.locator(".dh-title-text").getAttribute("contenteditable")).toBeNull();
    await session.context.close();
  }, 180_000);

  it("shows a text edit on a 20-slide deck without a blank frame, and times it", async () => {
    const session = await signUpWithKey("Timing");
    const { page } = session;
    await openDeck(session, headingsDeck(20));
    const timings: { app: number; compile: number; frame: number; seen: number }[] = [];
    // The compiles sent (server actions whose arguments hold the source): a visual edit sends its own at
    // once, and the render that follows it sends no second one.
    const compilesOf = (text: string) => sent.filter((body) => body.includes(text)).length;
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.headers()["next-action"]) sent.push(request.postData() ?? "");
    });
    for (const n of [10, 11, 12, 13, 14]) {
      await page
        .getByRole("navigation", { name: "Outline" })
        .getByRole("button", { name: new RegExp(`^${n} Part ${n}\\b`) })
        .click();
      await preview(page)
        .locator(".dh-heading-text", { hasText: `Heading number ${n}` })
        .waitFor();
      const editMs = () =>
        page.evaluate(() => document.querySelector("[data-edit-ms]")?.getAttribute("data-edit-ms") ?? null);
      // Each compile on screen counts one in data-shown (two edits may well take the same number of
      // milliseconds, so data-edit-ms alone cannot tell; a module drawn in place keeps the frame's src).
      const shownCount = () => page.getByTestId("preview").getAttribute("data-shown");
      const before = await shownCount();
      const target = preview(page).locator(".dh-heading-text", { hasText: `Heading number ${n}` });
      await target.click();
      await expect.poll(() => target.getAttribute("contenteditable")).toBe("plaintext-only");
      await page.keyboard.press("Control+a");
      await page.keyboard.insertText(`Edited ${n}`);
      const started = Date.now();
      await page.keyboard.press("Enter");
      // The new compile comes on screen (the old drawing stays until then, so there is always a frame).
      await expect.poll(shownCount, { interval: 20 }).not.toBe(before);
      await expect.poll(editMs, { interval: 20 }).not.toBeNull();
      const seen = Date.now() - started;
      await preview(page)
        .locator(".dh-heading-text", { hasText: `Edited ${n}` })
        .waitFor();
      expect(await page.locator('iframe[title="Preview"]').count()).toBe(1);
      expect(compilesOf(`Edited ${n}`)).toBe(1);
      const swap = Number(await page.getByTestId("preview").getAttribute("data-swap-ms"));
      timings.push({ app: Number(await editMs()), compile: Number(await editMs()) - swap, frame: swap, seen });
    }
    console.log(`visual edit → recompiled preview on screen, 20 slides (ms): ${JSON.stringify(timings)}`);
    await session.context.close();
  }, 240_000);

  it("draws a text edit in place in the same frame, and the frame refuses a module from outside its preview", async () => {
    const session = await signUpWithKey("InPlace");
    const { page, context } = session;
    const requested: string[] = [];
    context.on("request", (request) => requested.push(request.url()));
    await openDeck(session, SOURCE);
    await page
      .getByRole("navigation", { name: "Outline" })
      .getByRole("button", { name: /Market/ })
      .first()
      .click();
    await preview(page).locator(".dh-heading-text", { hasText: "Market size" }).waitFor();
    // The frame element on screen is marked: after the edit it is still the one on screen.
    const frameOnScreen = page.locator('iframe[title="Preview"]');
    await frameOnScreen.evaluate((element) => element.setAttribute("data-marked", "before-edit"));
    const src = await frameOnScreen.getAttribute("src");
    const shown = Number(await page.getByTestId("preview").getAttribute("data-shown"));
    // Every slide's section marked: the edit draws its own slide anew and leaves the others' DOM as it was.
    await preview(page)
      .locator(".dh-slide")
      .evaluateAll((slides) => slides.forEach((slide) => slide.setAttribute("data-marked", "")));

    await editOnPreview(page, ".dh-heading-text", "Market size", "Total market");
    await expect.poll(() => codeText(page)).toContain("<Heading>Total market</Heading>");
    await expect.poll(async () => Number(await page.getByTestId("preview").getAttribute("data-shown"))).toBe(shown + 1);
    expect(await page.getByTestId("preview").getAttribute("data-update")).toBe("in-place");
    await preview(page).locator(".dh-heading-text", { hasText: "Total market" }).waitFor();
    expect(await frameOnScreen.getAttribute("data-marked")).toBe("before-edit");
    expect(await frameOnScreen.getAttribute("src")).toBe(src);
    expect(await page.getByTestId("preview").locator("iframe").count()).toBe(1);
    // Still on the slide it was on, and still editable in place.
    await expect
      .poll(() => preview(page).locator(".dh-stage-slide:not([hidden]) .dh-heading-text").textContent())
      .toBe("Total market");
    expect(await preview(page).locator("html").getAttribute("data-edit")).toBe("true");
    const slides = preview(page).locator(".dh-slide");
    expect(await slides.count()).toBeGreaterThan(1);
    expect(await preview(page).locator(".dh-slide:not([data-marked])").count()).toBe(1);
    expect(await preview(page).locator(".dh-slide:not([data-marked]) .dh-heading-text").textContent()).toBe(
      "Total market",
    );

    // What the frame answers when the page asks it to draw other modules: each is refused, none is fetched.
    const token = new URL(src!).pathname.split("/")[2]!;
    const origin = new URL(src!).origin;
    const other = `${token.slice(0, -4)}AAAA`;
    const refused = [
      `${origin}/preview/${other}/module/${"a".repeat(32)}`,
      `${origin}/d/abcdefgh/module/1`,
      `http://evil.example/preview/${token}/module/${"b".repeat(32)}`,
      `${origin}/preview/${token}/module/${"c".repeat(32)}?x=1`,
      `${origin}/preview/${token}/module/${"d".repeat(32)}#x`,
      `${origin}/preview/${token}/module/../logo`,
      `${origin}/preview/${token}/module/%2e%2e%2flogo`,
      `${origin}/preview/${token}/logo`,
      `data:text/javascript,export default 1`,
      `/preview/${token}/module/${"e".repeat(32)}`,
      // The right folder, but not the draft's module: fetched (and 404), not drawn.
      `${origin}/preview/${token}/module/${"f".repeat(32)}`,
    ];
    const answers = await page.evaluate(async (urls) => {
      const frame = document.querySelector<HTMLIFrameElement>('iframe[title="Preview"]')!;
      const seen: unknown[] = [];
      const listen = (event: MessageEvent) => {
        if (event.source === frame.contentWindow && /update/.test(String(event.data?.type))) seen.push(event.data);
      };
      window.addEventListener("message", listen);
      for (const moduleUrl of urls)
        frame.contentWindow!.postMessage({ source: "deckhand-viewer", type: "update", moduleUrl }, "*");
      // An extra field, or another sender's shape: no answer at all.
      frame.contentWindow!.postMessage({ source: "deckhand-viewer", type: "update", moduleUrl: urls[0], x: 1 }, "*");
      for (let tries = 0; seen.length < urls.length && tries < 100; tries++)
        await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 300));
      window.removeEventListener("message", listen);
      return seen;
    }, refused);
    expect(answers).toHaveLength(refused.length);
    expect(new Set(answers.map((answer) => (answer as { type: string }).type))).toEqual(new Set(["update-failed"]));
    expect(answers.map((answer) => (answer as { moduleUrl: string }).moduleUrl).sort()).toEqual([...refused].sort());
    expect(
      requested.filter((url) => url.includes(other) || url.includes("evil.example") || url.includes("/d/abcdefgh")),
    ).toEqual([]);
    expect(requested.filter((url) => url.endsWith("f".repeat(32)))).toHaveLength(1);
    expect(requested.filter((url) => /\/module\/([cde])\1{31}/.test(url))).toEqual([]);
    // The deck on screen is the edited one still.
    expect(await preview(page).locator(".dh-stage-slide:not([hidden]) .dh-heading-text").textContent()).toBe(
      "Total market",
    );
    await session.context.close();
  }, 180_000);
});
