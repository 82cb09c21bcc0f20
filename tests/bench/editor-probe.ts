// Where a click-to-edit's time goes (a diagnostic, not part of `npm run bench`): the editor benchmark's
// edits on a 20-slide deck against `next start`, with every step stamped on one clock (epoch ms, from each
// document's performance.timeOrigin): the edit-text message at the editor, the compile action sent and
// answered (the status line), a new frame element inserted, the frame document's navigation and its
// module's resource timing, the player's data-ready, the frame's updated/ready message at the editor, and
// the frame shown (data-shown / the front frame's src). Main-thread time from CDP Performance.getMetrics
// (TaskDuration etc.) of the page's renderer, and of the frame's when it is out of process.
// With PROBE_AB=1 every other edit is made to take the new-frame path, for a comparison under the same load:
// the frame then answers the editor's `update` with `update-failed` at once (a listener of the probe's,
// before the player's), so the editor loads the new preview link in a second frame and swaps it in, as
// every edit did before the in-place path (one more message between the two, well under a millisecond).
// Run: [PROBE_AB=1] node_modules/.bin/tsx --conditions=react-server tests/bench/editor-probe.ts
import type { CDPSession, Page } from "playwright-core";
import { unwrap } from "@/lib/client";
import { apiOf, person, signUp } from "../helpers/app-session";
import { launchBrowser } from "../helpers/browser";
import { cpuMs, taskMs } from "./editor";
import { benchEnv } from "./server";
import { startNextServer } from "../helpers/next-server";
import { headingsDeck } from "../helpers/sample-decks";

const EDITS = Number(process.env.PROBE_EDITS ?? 12);

type Mark = { kind: string; at: number; detail?: string };

// In the editor page: stamps on the epoch clock.
function pageProbe() {
  if (window.top !== window) {
    window.addEventListener(
      "message",
      (event) => {
        const data = event.data as { type?: string; moduleUrl?: string } | null;
        if (!(window as unknown as { __forceReload?: boolean }).__forceReload || data?.type !== "update") return;
        event.stopImmediatePropagation();
        window.parent.postMessage({ source: "deckhand-player", type: "update-failed", moduleUrl: data.moduleUrl }, "*");
      },
      true,
    );
    return;
  }
  const marks: Mark[] = [];
  (window as unknown as { __probe: Mark[] }).__probe = marks;
  const now = () => performance.timeOrigin + performance.now();
  window.addEventListener(
    "message",
    (event) => {
      const type = (event.data as { type?: string } | null)?.type;
      if (type === "edit-text" || type === "ready" || type === "updated" || type === "update-failed")
        marks.push({ kind: `msg:${type}`, at: now() });
    },
    true,
  );
  const watch = () => {
    const status = document.querySelector('[data-testid="editor-status"]');
    const preview = document.querySelector('[data-testid="preview"]');
    if (!status || !preview) return void setTimeout(watch, 50);
    new MutationObserver(() => marks.push({ kind: `status:${status.getAttribute("data-kind")}`, at: now() })).observe(
      status,
      { attributes: true, attributeFilter: ["data-kind"] },
    );
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === "childList" && record.addedNodes.length) marks.push({ kind: "frame:inserted", at: now() });
        if (record.type === "attributes" && record.attributeName === "data-shown")
          marks.push({ kind: "shown", at: now() });
        if (
          record.type === "attributes" &&
          record.attributeName === "data-front" &&
          (record.target as Element).getAttribute("data-front") === "true"
        )
          marks.push({ kind: "shown:front", at: now() });
      }
    }).observe(preview, {
      childList: true,
      attributes: true,
      subtree: true,
      attributeFilter: ["data-shown", "data-front"],
    });
  };
  watch();
}

async function metrics(session: CDPSession | null): Promise<Record<string, number>> {
  if (!session) return {};
  const { metrics } = (await session.send("Performance.getMetrics")) as { metrics: { name: string; value: number }[] };
  return Object.fromEntries(metrics.map((metric) => [metric.name, metric.value]));
}

const median = (values: number[]) => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : Number.NaN;
};

async function main() {
  const server = await startNextServer({ env: benchEnv });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page: Page = await context.newPage();
    await signUp(page, server.origin, person("Probe"));
    const api = await apiOf(page, server.origin, "probe");
    const created = unwrap(await api.api.POST("/decks", { body: { title: "Probe" } }));
    unwrap(
      await api.api.PUT("/decks/{id}/content", {
        params: { path: { id: created.id } },
        body: { source: headingsDeck(20) },
      }),
    );
    // A string: tsx would wrap a function in helpers the page does not have.
    await page.addInitScript(`var __name = (f) => f; (${pageProbe.toString()})()`);
    await page.goto(`${server.origin}/decks/${created.id}`);
    await page.locator('[data-testid="editor-status"][data-kind="ok"]').waitFor({ timeout: 60_000 });
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    const preview = () => page.frameLocator('iframe[title="Preview"]');
    const rows: Record<string, number>[] = [];
    for (let n = 1; n <= EDITS; n++) {
      await page
        .getByRole("navigation", { name: "Outline" })
        .getByRole("button", { name: new RegExp(`^${n} Part ${n}\\b`) })
        .click();
      const target = preview().locator(".dh-heading-text", { hasText: new RegExp(`^Heading number ${n}$`) });
      await target.click();
      await page.waitForFunction(() => true, undefined, { timeout: 1000 });
      while ((await target.getAttribute("contenteditable")) !== "plaintext-only") await page.waitForTimeout(10);
      await page.keyboard.press("Control+a");
      await page.keyboard.insertText(`Edited ${n}`);
      await page.waitForTimeout(300);
      const shownBefore = await page.getByTestId("preview").getAttribute("data-shown");
      const srcBefore = await page.locator('iframe[title="Preview"]').getAttribute("src");
      await page.evaluate(() => ((window as unknown as { __probe: unknown[] }).__probe.length = 0));
      // The frame's renderer, when the sandboxed frame runs out of process.
      const frameElement = await page.locator('iframe[title="Preview"]').elementHandle();
      const frame = await frameElement!.contentFrame();
      let frameCdp: CDPSession | null = null;
      try {
        frameCdp = await context.newCDPSession(frame!);
        await frameCdp.send("Performance.enable");
      } catch {
        frameCdp = null;
      }
      const forced = !!process.env.PROBE_AB && n % 2 === 0;
      await frame!.evaluate(
        (value) => ((window as unknown as { __forceReload?: boolean }).__forceReload = value),
        forced,
      );
      const before = await metrics(cdp);
      const frameBefore = await metrics(frameCdp);
      const serverBefore = cpuMs(server.pid);
      const taskBefore = await taskMs(cdp);
      await page.keyboard.press("Enter");
      await page.waitForFunction(
        (previous) =>
          document.querySelector('[data-testid="preview"]')?.getAttribute("data-shown") !== previous &&
          document.querySelector("[data-edit-ms]") !== null,
        shownBefore,
        { polling: "raf", timeout: 30_000 },
      );
      const serverCpu = cpuMs(server.pid) - serverBefore;
      const browserTask = (await taskMs(cdp)) - taskBefore;
      void srcBefore;
      await page.waitForTimeout(200);
      const after = await metrics(cdp);
      const marks = await page.evaluate(() => (window as unknown as { __probe: Mark[] }).__probe);
      const editMs = Number(
        await page.evaluate(() => document.querySelector("[data-edit-ms]")?.getAttribute("data-edit-ms")),
      );
      const swapMs = Number(await page.getByTestId("preview").getAttribute("data-swap-ms"));
      // The frame now on screen: its own timeline.
      const shownFrame = await (await page.locator('iframe[title="Preview"]').elementHandle())!.contentFrame();
      const inside = await shownFrame!.evaluate(() => {
        const origin = performance.timeOrigin;
        const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
        const modules = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter((entry) =>
          entry.name.includes("/module/"),
        );
        const module = modules.at(-1);
        return {
          origin,
          navStart: nav ? origin + nav.startTime : null,
          responseEnd: nav ? origin + nav.responseEnd : null,
          domInteractive: nav ? origin + nav.domInteractive : null,
          moduleStart: module ? origin + module.startTime : null,
          moduleEnd: module ? origin + module.responseEnd : null,
        };
      });
      let frameAfter: Record<string, number> = {};
      try {
        frameAfter = await metrics(frameCdp);
      } catch {
        frameAfter = {};
      }
      const at = (kind: string) => marks.find((mark) => mark.kind === kind)?.at ?? Number.NaN;
      const last = (kind: string) => marks.filter((mark) => mark.kind === kind).at(-1)?.at ?? Number.NaN;
      const t0 = at("msg:edit-text");
      const shownAt = Math.min(last("shown"), last("shown:front"));
      const shownAtAny = Number.isFinite(last("shown")) ? last("shown") : last("shown:front");
      const row: Record<string, number> = {
        forced: forced ? 1 : 0,
        editMs,
        serverCpu,
        browserTask,
        swapMs,
        toSent: at("status:compiling") - t0,
        compileRoundTrip: at("status:ok") - at("status:compiling"),
        toFrameInserted: at("frame:inserted") - t0,
        docResponseEnd: (inside.responseEnd ?? Number.NaN) - t0,
        docInteractive: (inside.domInteractive ?? Number.NaN) - t0,
        moduleStart: (inside.moduleStart ?? Number.NaN) - t0,
        moduleEnd: (inside.moduleEnd ?? Number.NaN) - t0,
        ready: last("msg:ready") - t0,
        updated: last("msg:updated") - t0,
        shown: shownAtAny - t0,
        pageTaskMs: ((after.TaskDuration ?? 0) - (before.TaskDuration ?? 0)) * 1000,
        pageScriptMs: ((after.ScriptDuration ?? 0) - (before.ScriptDuration ?? 0)) * 1000,
        pageLayoutMs: ((after.LayoutDuration ?? 0) - (before.LayoutDuration ?? 0)) * 1000,
        frameTaskMs: frameCdp ? ((frameAfter.TaskDuration ?? 0) - (frameBefore.TaskDuration ?? 0)) * 1000 : Number.NaN,
      };
      void shownAt;
      rows.push(row);
      await frameCdp?.detach().catch(() => {});
    }
    console.log(`oopif frame: ${rows.some((row) => Number.isFinite(row.frameTaskMs))}`);
    const keys = Object.keys(rows[0]!);
    const print = (label: string, group: Record<string, number>[]) => {
      if (group.length === 0) return;
      console.log(`\n${label} (${group.length} edits; the first edit, which warms up, left out)`);
      for (const key of keys)
        console.log(
          `${key.padEnd(18)} median ${median(group.map((row) => row[key]!))
            .toFixed(1)
            .padStart(7)}   all ${group.map((row) => Math.round(row[key]!)).join(" ")}`,
        );
    };
    print(
      "in place",
      rows.slice(1).filter((row) => !row.forced),
    );
    print(
      "new frame (forced)",
      rows.slice(1).filter((row) => row.forced),
    );
    console.log("\nevery edit");
    for (const key of keys)
      console.log(
        `${key.padEnd(18)} median ${median(rows.map((row) => row[key]!))
          .toFixed(1)
          .padStart(7)}   all ${rows.map((row) => Math.round(row[key]!)).join(" ")}`,
      );
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
