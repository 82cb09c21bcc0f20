import type { Browser, BrowserContext, FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type createDeckhandClient, unwrap } from "@/lib/client";
import { addSlide, deleteSlide, duplicateSlide, moveSlide, renameSlide } from "@/lib/deck/source/edit";
import { elementsOfSlide, setProp } from "@/lib/deck/source/props";
import { apiOf, person, signUp } from "../helpers/app-session";
import { launchBrowser, openDeckFrame } from "../helpers/browser";
import { type NextServer, startNextServer } from "../helpers/next-server";

// The visual editor over the TSX in a real Chromium against `next start`: text edited in place on the
// preview, slides added, duplicated, moved and deleted from the rail, a prop changed in the inspector, and
// undo across visual and code edits. Each check reads the saved version through the API and compares it
// with what the source library (lib/deck/source) makes of the same edits, so a visual edit is shown to
// change only its own bytes.

let server: NextServer;
let browser: Browser;

beforeAll(async () => {
  server = await startNextServer();
  browser = await launchBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

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

function manySlides(count: number): string {
  const slides = Array.from(
    { length: count },
    (_, index) =>
      `      <Slide label="Part ${index + 1}">\n        <Heading>Heading number ${index + 1}</Heading>\n        <Bullets items={["First point of ${index + 1}", "Second point"]} />\n      </Slide>`,
  ).join("\n");
  return `import { Deck, Slide, Heading, Bullets } from "@deckhand/player";\n\nexport default function Long() {\n  return (\n    <Deck>\n${slides}\n    </Deck>\n  );\n}\n`;
}

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

    // Delete asks first: dismissed, nothing changes; accepted, the slide goes.
    page.once("dialog", (dialog) => void dialog.dismiss());
    await rail.getByRole("button", { name: "Delete slide 5" }).click();
    await expect.poll(() => items.count()).toBe(5);
    page.once("dialog", (dialog) => void dialog.accept());
    await rail.getByRole("button", { name: "Delete slide 5" }).click();
    expected = deleteSlide(expected, "slides", 4);
    await expect.poll(() => codeText(page)).toBe(expected);
    expect(await railLabels(page)).toEqual(["Second cover", "Stats", "Cover", "Market"]);

    expect(await save(page, api, deckId)).toBe(expected);
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
    await openDeck(session, manySlides(20));
    const timings: { app: number; compile: number; frame: number; seen: number }[] = [];
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

    await editOnPreview(page, ".dh-heading-text", "Market size", "Total market");
    await expect.poll(() => codeText(page)).toContain("<Heading>Total market</Heading>");
    await expect.poll(async () => Number(await page.getByTestId("preview").getAttribute("data-shown"))).toBe(shown + 1);
    expect(await page.getByTestId("preview").getAttribute("data-update")).toBe("in-place");
    await preview(page).locator(".dh-heading-text", { hasText: "Total market" }).waitFor();
    expect(await frameOnScreen.getAttribute("data-marked")).toBe("before-edit");
    expect(await frameOnScreen.getAttribute("src")).toBe(src);
    expect(await page.locator("iframe").count()).toBe(1);
    // Still on the slide it was on, and still editable in place.
    await expect
      .poll(() => preview(page).locator(".dh-stage-slide:not([hidden]) .dh-heading-text").textContent())
      .toBe("Total market");
    expect(await preview(page).locator("html").getAttribute("data-edit")).toBe("true");

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
