import type { Page, Route } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { createDeckhandClient, unwrap } from "@/lib/client";
import { serverAndBrowser } from "../helpers/editor-suite";
import { openCodePanel } from "../helpers/code-panel";

// Issue 17 in the editor (`next start`, a real Chromium): an image pasted into the source, one dropped on it
// and one picked from the organization's images (with thumbnails) are uploaded and inserted as <Image>
// elements with the alt text the author gives, where they were pasted or dropped, without losing what was
// typed meanwhile; the preview draws them from the asset path, and the saved version refers to them.

const { server, browser } = serverAndBrowser();

const source = `import { Deck, Slide, Title, Image, Columns } from "@deckhand/player";

export default function Pictures() {
  return (
    <Deck>
      <Slide label="Pictures">
        <Title>Pictures</Title>
        <Columns>
          {/* images */}
        </Columns>
      </Slide>
    </Deck>
  );
}
`;

async function pngBase64(colour: string): Promise<string> {
  return (
    await sharp({ create: { width: 320, height: 200, channels: 3, background: colour } })
      .png()
      .toBuffer()
  ).toString("base64");
}

/** Sends a paste or drop of one PNG file to CodeMirror, as the browser does for a real one. */
async function sendImage(page: Page, kind: "paste" | "drop", name: string, data: string) {
  await openCodePanel(page);
  await page.locator('[data-testid="editor-tsx"] .cm-content').evaluate(
    (content, { kind, name, data }) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], name, { type: "image/png" }));
      if (kind === "paste") {
        content.dispatchEvent(
          new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }),
        );
      } else {
        const line = [...content.querySelectorAll(".cm-line")].find((el) => el.textContent?.includes("images"))!;
        const box = line.getBoundingClientRect();
        content.dispatchEvent(
          new DragEvent("drop", {
            dataTransfer: transfer,
            clientX: box.right - 2,
            clientY: box.top + box.height / 2,
            bubbles: true,
            cancelable: true,
          }),
        );
      }
    },
    { kind, name, data },
  );
}

const editorText = (page: Page) =>
  page
    .locator('[data-testid="editor-tsx"] .cm-content')
    .evaluate((el) => [...el.querySelectorAll(".cm-line")].map((line) => line.textContent).join("\n"));

describe("images in the editor", () => {
  it("uploads a pasted, a dropped and a picked image, inserts each with its alt text, and keeps the typing", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const who = `pics-${crypto.randomUUID().slice(0, 8)}@example.test`;
    await page.goto(`${server.origin}/sign-up`);
    await page.getByLabel("Name").fill("Pics");
    await page.getByLabel("Email").fill(who);
    await page.getByLabel("Password").fill("correct horse battery staple");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(`${server.origin}/decks`);
    await page.goto(`${server.origin}/settings/keys`);
    await page.getByLabel("Name").fill("pics");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.getByTestId("new-key").textContent())!.trim();
    const api = createDeckhandClient({ baseUrl: `${server.origin}/api/v1`, apiKey: key });
    const deck = unwrap(await api.api.POST("/decks", { body: { title: "Pictures" } }));
    unwrap(await api.api.PUT("/decks/{id}/content", { params: { path: { id: deck.id } }, body: { source } }));

    // Each image asks for its alt text; the answers, in order.
    const alts = ["A pasted blue card", "A dropped red card", "The blue card again"];
    page.on("dialog", (dialog) => void dialog.accept(alts.shift() ?? "extra"));

    await page.goto(`${server.origin}/decks/${deck.id}`);
    await page.locator('[data-testid="editor-status"][data-kind="ok"]').waitFor({ timeout: 60_000 });

    // Paste with the cursor at the end of the "images" line, then type at the top while it uploads.
    await openCodePanel(page);
    await page.locator('[data-testid="editor-tsx"] .cm-line', { hasText: "images" }).click();
    await page.keyboard.press("End");
    await sendImage(page, "paste", "blue.png", await pngBase64("#2563eb"));
    await page.keyboard.press("Control+Home");
    await page.keyboard.insertText("// typed while uploading\n");
    await expect.poll(() => editorText(page), { timeout: 30_000 }).toMatch(/alt="A pasted blue card"/);
    const afterPaste = await editorText(page);
    expect(afterPaste.startsWith("// typed while uploading\n")).toBe(true);
    expect(afterPaste).toMatch(
      /\{\/\* images \*\/\}<Image src="\/assets\/[0-9a-f]{64}\.png" alt="A pasted blue card" fit="contain" \/>/,
    );

    await sendImage(page, "drop", "red.png", await pngBase64("#dc2626"));
    await expect.poll(() => editorText(page), { timeout: 30_000 }).toMatch(/alt="A dropped red card"/);

    // The picker lists both uploads with thumbnails; picking one inserts it at the cursor.
    await page.getByRole("button", { name: "Images" }).click();
    const thumbnails = page.getByTestId("image-picker-thumbnail");
    await expect.poll(() => thumbnails.count()).toBe(2);
    await expect
      .poll(() => thumbnails.evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).naturalWidth)))
      .toEqual([320, 320]);
    if (process.env.IMAGES_TEST_OUT)
      await page.screenshot({ path: `${process.env.IMAGES_TEST_OUT}/editor-picker.png` });
    await page.locator('[data-testid="editor-tsx"] .cm-line', { hasText: "images" }).click();
    await page.keyboard.press("End");
    await thumbnails.last().click();
    await expect.poll(() => editorText(page)).toMatch(/alt="The blue card again"/);
    expect((await editorText(page)).match(/<Image /g)).toHaveLength(3);

    // The preview draws the three from the asset path.
    await page.locator('[data-testid="editor-status"][data-kind="ok"]').waitFor({ timeout: 60_000 });
    const preview = page.frameLocator("iframe").first();
    await expect
      .poll(
        () =>
          preview
            .locator('.dh-slide[data-slide="1"] img.dh-image-img')
            .evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).naturalWidth)),
        { timeout: 30_000 },
      )
      .toEqual([320, 320, 320]);

    await page.getByRole("button", { name: "Save version" }).click();
    await page.getByText("Saved as version 2").waitFor();
    const saved = unwrap(await api.api.GET("/decks/{id}", { params: { path: { id: deck.id } } }));
    expect(saved.latestVersion?.compiledJs?.match(/"\/assets\/[0-9a-f]{64}\.png"/g)).toHaveLength(3);

    // Two images pasted on the slide, the first upload failing outright (the connection drops): it says so
    // instead of uploading forever, and the second is still uploaded and placed.
    let dropped = false;
    const dropFirstUpload = async (route: Route) => {
      const request = route.request();
      const upload = request.method() === "POST" && (request.postData() ?? "").includes('"data"');
      if (upload && !dropped) {
        dropped = true;
        return route.abort("connectionreset");
      }
      await route.fallback();
    };
    await page.route("**/decks/*", dropFirstUpload);
    const pasted: [string, string][] = [
      ["lost.png", await pngBase64("#16a34a")],
      ["kept.png", await pngBase64("#9333ea")],
    ];
    await page.locator("body").evaluate((body, files) => {
      const transfer = new DataTransfer();
      for (const [name, data] of files)
        transfer.items.add(
          new File([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], name, { type: "image/png" }),
        );
      body.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }));
    }, pasted);
    const failed = page.getByTestId("upload-failed");
    await failed.waitFor({ timeout: 30_000 });
    expect(await failed.textContent()).toMatch(/^lost\.png: Not uploaded: /);
    await expect
      .poll(() => editorText(page).then((text) => text.match(/<Image /g)?.length), { timeout: 30_000 })
      .toBe(4);
    expect(await page.getByText(/^Uploading /).count()).toBe(0);
    if (process.env.IMAGES_TEST_OUT)
      await page.getByTestId("canvas").screenshot({ path: `${process.env.IMAGES_TEST_OUT}/upload-failed.png` });
    await failed.getByRole("button", { name: "Dismiss" }).click();
    await failed.waitFor({ state: "detached" });
    await page.unroute("**/decks/*", dropFirstUpload);
    await context.close();
  }, 180_000);
});
