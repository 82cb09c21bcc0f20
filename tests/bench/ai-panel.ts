import { unwrap } from "@/lib/client";
import { apiOf, person, signUp } from "../helpers/app-session";
import { launchBrowser } from "../helpers/browser";
import { headingsDeck } from "../helpers/sample-decks";
import { type BenchRow, type BenchServer, percentile } from "./server";

// The editor's AI panel without a model (issue 37, item 11: it once took ~31 s where the API took 0.5 s):
// a quoted edit applied from the panel, from the click on "Apply edit" to "Saved as version N" on screen,
// against the same offline edit through the API (POST /decks/{id}/edit), in the same run on the same
// 20-slide deck. Both go through one path (authorDeck: an ai_runs row, the in-process runner, the row
// polled), so the panel should cost the API's time plus the page's own update.

const RUNS = 5;
// Each edit replaces one slide's "First point of N", N from 11 to 20: no such text is the start of another.

export async function benchAiPanel(server: BenchServer): Promise<BenchRow[]> {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signUp(page, server.origin, person("Panel"));
    const api = await apiOf(page, server.origin, "ai-bench");
    const deck = unwrap(await api.api.POST("/decks", { body: { title: "AI panel bench" } }));
    const path = { id: deck.id };
    unwrap(await api.api.PUT("/decks/{id}/content", { params: { path }, body: { source: headingsDeck(20) } }));

    const throughApi: number[] = [];
    for (let n = 1; n <= RUNS; n++) {
      const started = performance.now();
      unwrap(
        await api.api.POST("/decks/{id}/edit", {
          params: { path },
          body: { instruction: `"First point of ${10 + n}" → "API point ${n}"` },
        }),
      );
      throughApi.push(performance.now() - started);
    }

    await page.goto(`${server.origin}/decks/${deck.id}`);
    await page.locator('[data-testid="editor-status"][data-kind="ok"]').waitFor({ state: "attached", timeout: 60_000 });
    const inPanel: number[] = [];
    const dialog = page.getByRole("dialog", { name: "Write with AI" });
    for (let n = 1; n <= RUNS; n++) {
      await page.getByRole("button", { name: "AI", exact: true }).click();
      await dialog.getByLabel("Instruction").fill(`"First point of ${10 + RUNS + n}" → "Panel point ${n}"`);
      const saved = page.getByText(`Saved as version ${RUNS + 1 + n}`);
      const started = performance.now();
      await dialog.getByRole("button", { name: "Apply edit" }).click();
      await saved.waitFor({ timeout: 120_000 });
      inPanel.push(performance.now() - started);
    }
    return [
      row("POST /decks/{id}/edit, offline (request → answer)", throughApi),
      row('AI panel, offline: "Apply edit" → "Saved as version N" on screen', inPanel),
    ];
  } finally {
    await browser.close();
  }
}

function row(label: string, samples: number[]): BenchRow {
  return { label, n: samples.length, median: percentile(samples, 50), p95: percentile(samples, 95) };
}
