// Which Chromium to drive and how: CHROMIUM_PATH (e.g. Debian's /usr/bin/chromium) when set, else the
// binary @sparticuz/chromium ships and unpacks into the temp folder on first use.

export const chromiumArgs: readonly string[] = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-default-apps",
  "--disable-sync",
  "--no-first-run",
  "--no-default-browser-check",
  "--hide-scrollbars",
  "--mute-audio",
  "--font-render-hinting=none",
];

export async function chromiumExecutablePath(): Promise<string> {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  const { default: chromium } = await import("@sparticuz/chromium");
  return chromium.executablePath();
}
