import { type Browser, chromium } from "playwright-core";
import { chromiumArgs, chromiumExecutablePath } from "@/lib/render/chromium";

// A real Chromium for end-to-end tests (the binary of @sparticuz/chromium, or CHROMIUM_PATH).
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: await chromiumExecutablePath(), args: [...chromiumArgs] });
}
