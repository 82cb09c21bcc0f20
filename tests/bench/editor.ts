import fs from "node:fs";
import type { CDPSession, Page } from "playwright-core";
import { unwrap } from "@/lib/client";
import { apiOf, person, signUp } from "../helpers/app-session";
import { chromiumBelow, processTree } from "../helpers/processes";
import { launchBrowser } from "../helpers/browser";
import { headingsDeck } from "../helpers/sample-decks";
import { type BenchRow, type BenchServer, percentile } from "./server";
import { openCodePanel } from "../helpers/code-panel";

// The editor as a person uses it, in a real Chromium against `next start`, on a 20-slide deck (or
// BENCH_EDITOR_SLIDES):
// - click-to-edit: a heading clicked on the preview, retyped, Enter → the recompiled deck on screen (the
//   editor's own measure, data-edit-ms: from the commit to the preview reporting the new compile drawn, by
//   its player's ready: the frame on screen drawing the module in place, or a new frame swapped in; the old
//   drawing stays until then), 10 edits after one that warms the server up, and its two shares: the compile
//   (until its answer) and the frame (data-swap-ms, from the answer to the screen); and, as wall time on a
//   shared machine says little, the CPU each edit took: the server's (every thread of `next start`, compile worker included) and the
//   browser's main thread (CDP's TaskDuration: the editor page and its preview frame, one renderer here);
// - draft autosave: a keystroke in the code → the server action that compiles it and stores the draft,
//   answered (its round trip as the browser timed it), and → the preview of it on screen (with the 400 ms
//   pause after the last keystroke), 10 keystrokes.

const EDITS = 10;
/** The deck's length: 20, or BENCH_EDITOR_SLIDES (issue 39: typing → preview on a 200-slide deck). */
const SLIDES = Number(process.env.BENCH_EDITOR_SLIDES ?? 20);
/**
 * BENCH_EDITOR_SETTLE=1: each edit waits until no server action has been in flight for a second. Next.js
 * runs a page's server actions one at a time, so an edit made while the deck check of the previous one is
 * still running waits for it; settled, the rows say what an edit costs by itself.
 */
const SETTLE = process.env.BENCH_EDITOR_SETTLE === "1";

const status = (page: Page, kind: string) =>
  page.locator(`[data-testid="editor-status"][data-kind="${kind}"]`).waitFor({ timeout: 60_000 });
const editMs = (page: Page) =>
  page.evaluate(() => document.querySelector("[data-edit-ms]")?.getAttribute("data-edit-ms") ?? null);

// Waits until the page has had no server action (a POST with a Next-Action header) in flight for a second.
function actionsSettled(page: Page): () => Promise<void> {
  let inFlight = 0;
  let changed = Date.now();
  page.on("request", (request) => {
    if (request.method() !== "POST" || !request.headers()["next-action"]) return;
    inFlight++;
    changed = Date.now();
  });
  const done = (request: { method: () => string; headers: () => Record<string, string> }) => {
    if (request.method() !== "POST" || !request.headers()["next-action"]) return;
    inFlight--;
    changed = Date.now();
  };
  page.on("requestfinished", done);
  page.on("requestfailed", done);
  return async () => {
    while (inFlight > 0 || Date.now() - changed < 1000) await page.waitForTimeout(50);
  };
}

export async function benchEditor(server: BenchServer): Promise<BenchRow[]> {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signUp(page, server.origin, person("Bench"));
    const api = await apiOf(page, server.origin, "bench");
    const created = unwrap(await api.api.POST("/decks", { body: { title: "Editor bench" } }));
    unwrap(
      await api.api.PUT("/decks/{id}/content", {
        params: { path: { id: created.id } },
        body: { source: headingsDeck(SLIDES) },
      }),
    );
    await page.goto(`${server.origin}/decks/${created.id}`);
    await status(page, "ok");
    const preview = () => page.frameLocator('iframe[title="Preview"]');

    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    const settle = SETTLE ? actionsSettled(page) : async () => {};
    const serverCpu: number[] = [];
    const browserCpu: number[] = [];
    const clickToEdit: number[] = [];
    const frameShare: number[] = [];
    let inPlace = 0;
    // Edit 1 warms up a fresh server (its compile worker, the module's first load in the frame) and is not
    // counted: the rows are the 10 edits after it.
    for (let n = 1; n <= EDITS + 1; n++) {
      await settle();
      await page
        .getByRole("navigation", { name: "Outline" })
        .getByRole("button", { name: new RegExp(`^${n} Part ${n}\\b`) })
        .click();
      const target = preview().locator(".dh-heading-text", { hasText: new RegExp(`^Heading number ${n}$`) });
      await target.click();
      await until(async () => (await target.getAttribute("contenteditable")) === "plaintext-only", page);
      // Each compile that comes on screen counts one in data-shown (set with data-edit-ms, in place or by a
      // new frame; a new frame's src alone no longer says so, as a module drawn in place keeps the frame).
      const shownCount = () => page.getByTestId("preview").getAttribute("data-shown");
      const before = await shownCount();
      await page.keyboard.press("Control+a");
      await page.keyboard.insertText(`Edited ${n}`);
      const cpuBefore = [cpuMs(server.pid), await taskMs(cdp)];
      await page.keyboard.press("Enter");
      await preview()
        .locator(".dh-heading-text", { hasText: new RegExp(`^Edited ${n}$`) })
        .waitFor();
      // Waited for in the page, once per animation frame: polling from here every 10 ms would keep the page's
      // main thread busy itself, which the CPU measure below would count.
      await page.waitForFunction(
        (previous) =>
          document.querySelector('[data-testid="preview"]')?.getAttribute("data-shown") !== previous &&
          document.querySelector("[data-edit-ms]") !== null,
        before,
        { polling: "raf", timeout: 30_000 },
      );
      if (n === 1) continue;
      serverCpu.push(cpuMs(server.pid) - cpuBefore[0]!);
      browserCpu.push((await taskMs(cdp)) - cpuBefore[1]!);
      clickToEdit.push(Number(await editMs(page)));
      frameShare.push(Number(await page.getByTestId("preview").getAttribute("data-swap-ms")));
      inPlace += (await page.getByTestId("preview").getAttribute("data-update")) === "in-place" ? 1 : 0;
    }

    // Keystrokes in the code: the status line says "compiling" when the draft's server action (compile and
    // store) is sent and "ok" when its answer is in; both moments recorded in the page as they happen.
    await page.evaluate(() => {
      const marks: { kind: string; at: number }[] = [];
      (window as unknown as { __marks: typeof marks }).__marks = marks;
      const status = document.querySelector('[data-testid="editor-status"]')!;
      new MutationObserver(() =>
        marks.push({ kind: status.getAttribute("data-kind") ?? "", at: performance.now() }),
      ).observe(status, { attributes: true, attributeFilter: ["data-kind"] });
    });
    const roundTrips: number[] = [];
    const toPreview: number[] = [];
    await openCodePanel(page);
    const code = page.locator('[data-testid="editor-tsx"] .cm-content');
    for (let n = 1; n <= EDITS; n++) {
      await settle();
      await code.click();
      await page.keyboard.press("Control+End");
      const typed = await page.evaluate(() => {
        (window as unknown as { __marks: unknown[] }).__marks.length = 0;
        return performance.now();
      });
      await page.keyboard.insertText(`\n// note ${n}`);
      await until(
        () =>
          page.evaluate(() =>
            (window as unknown as { __marks: { kind: string }[] }).__marks.some((mark) => mark.kind === "ok"),
          ),
        page,
      );
      const marks = await page.evaluate(
        () => (window as unknown as { __marks: { kind: string; at: number }[] }).__marks,
      );
      const sent = marks.find((mark) => mark.kind === "compiling")!.at;
      const answered = marks.find((mark) => mark.kind === "ok")!.at;
      roundTrips.push(answered - sent);
      toPreview.push(answered - typed);
    }
    return [
      row(
        `click-to-edit: Enter on an edited heading → recompiled ${SLIDES}-slide deck on screen (target under 150 ms)`,
        clickToEdit,
      ),
      row(
        `click-to-edit: of which the frame's share (the compile's answer → on screen; ${inPlace} of ${EDITS} drawn in place)`,
        frameShare,
      ),
      row(
        "click-to-edit: of which the compile's share (Enter → its answer)",
        clickToEdit.map((total, index) => total - frameShare[index]!),
      ),
      row("click-to-edit: server CPU per edit (next start and esbuild, all threads; Enter → on screen)", serverCpu),
      row(
        "click-to-edit: browser main-thread busy per edit (editor page and preview frame; Enter → on screen)",
        browserCpu,
      ),
      row("draft autosave: the compile-and-store server action's round trip (sent → answered)", roundTrips),
      row(
        "draft autosave: keystroke → draft stored and its preview link answered (includes the 400 ms pause after typing)",
        toPreview,
      ),
    ];
  } finally {
    await browser.close();
  }
}

// CPU time the server has used, in ms: every thread of its processes (esbuild's too), except the Chromium
// of its deck checks, which runs after an edit is shown (/proc/<pid>/task/<tid>/schedstat: nanoseconds).
export function cpuMs(root: number): number {
  const browser = new Set(chromiumBelow(root));
  let total = 0;
  for (const pid of processTree(root).filter((pid) => !browser.has(pid))) {
    try {
      for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
        total += Number(fs.readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]) / 1e6;
      }
    } catch {
      // a process or thread that ended meanwhile
    }
  }
  return total;
}

// The renderer main thread's busy time so far, in ms (the page and its in-process frames).
export async function taskMs(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send("Performance.getMetrics")) as { metrics: { name: string; value: number }[] };
  return (metrics.find((metric) => metric.name === "TaskDuration")?.value ?? 0) * 1000;
}

// Polls a condition every 10 ms, for at most 30 s.
async function until(condition: () => Promise<boolean>, page: Page): Promise<void> {
  for (let tries = 0; !(await condition()); tries++) {
    if (tries > 3000) throw new Error("the editor never got there");
    await page.waitForTimeout(10);
  }
}

function row(label: string, samples: number[]): BenchRow {
  return { label, n: samples.length, median: percentile(samples, 50), p95: percentile(samples, 95) };
}
