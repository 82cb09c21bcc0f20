import fs from "node:fs";
import path from "node:path";
import pixelmatch from "pixelmatch";
import type { Page, PageScreenshotOptions } from "playwright-core";
import { PNG } from "pngjs";
import { expect } from "vitest";

// Compares a screenshot with the committed one in tests/e2e/__screenshots__. A missing one is a failure
// everywhere; UPDATE_SCREENSHOTS=1 (and only it) writes the baselines, to be looked at and committed.
// Anti-aliasing differs slightly between Chromium builds; a real regression (a moved box, a lost font, a
// changed colour) changes far more than 1%.
const dir = path.resolve("tests/e2e/__screenshots__");
const MAX_DIFF_RATIO = 0.01;

export function expectScreenshot(png: Buffer, name: string) {
  const actual = PNG.sync.read(png);
  const file = path.join(dir, `${name}.png`);
  if (process.env.UPDATE_SCREENSHOTS === "1") fs.writeFileSync(file, PNG.sync.write(actual));
  else if (!fs.existsSync(file)) {
    throw new Error(`${file} is missing: run this test with UPDATE_SCREENSHOTS=1, look at the picture, commit it`);
  }
  const expected = PNG.sync.read(fs.readFileSync(file));
  expect([actual.width, actual.height]).toEqual([expected.width, expected.height]);
  const diff = new PNG({ width: actual.width, height: actual.height });
  const changed = pixelmatch(expected.data, actual.data, diff.data, actual.width, actual.height, { threshold: 0.1 });
  if (changed / (actual.width * actual.height) > MAX_DIFF_RATIO) {
    fs.writeFileSync(path.join(dir, `${name}.diff.png`), PNG.sync.write(diff));
    fs.writeFileSync(path.join(dir, `${name}.actual.png`), PNG.sync.write(actual));
  }
  expect(changed / (actual.width * actual.height), `${name}.png differs`).toBeLessThanOrEqual(MAX_DIFF_RATIO);
}

// A screenshot of a page that has stopped changing: taken until two in a row are identical (fonts loaded,
// frames painted, layout settled), as Playwright's toHaveScreenshot does, instead of sleeping first.
export async function stableScreenshot(page: Page, options: PageScreenshotOptions = {}): Promise<Buffer> {
  let previous: Buffer | null = null;
  let latest: Buffer | null = null;
  await expect
    .poll(
      async () => {
        previous = latest;
        latest = await page.screenshot({ animations: "disabled", ...options });
        return previous !== null && latest.equals(previous);
      },
      { message: "the page kept changing" },
    )
    .toBe(true);
  return latest!;
}
