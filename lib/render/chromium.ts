import { config, setting } from "@/lib/core/config";

// Which Chromium to drive and how: CHROMIUM_PATH (e.g. Debian's /usr/bin/chromium) when set, else the
// binary @sparticuz/chromium ships and unpacks into the temp folder on first use.

export const chromiumArgs: readonly string[] = [
  "--headless=new",
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

/** Tests and benchmarks drive their own Chromium (as root in CI), never the export renderer's. */
export const testChromiumArgs: readonly string[] = [...chromiumArgs, "--no-sandbox"];

export type SandboxMode = "on" | "off" | "try";

// Chromium's sandbox (namespaces and seccomp around every renderer) is what keeps a renderer that deck code
// compromised away from the server. The renderer uses it wherever the platform allows:
// - "off" where it cannot start: as root (Chromium refuses it), and in serverless functions (AWS Lambda,
//   Vercel), which give processes no user namespaces; or when CHROMIUM_SANDBOX=0 says so.
// - "on" when CHROMIUM_SANDBOX=1 says the platform has it (a failure to launch is then an error).
// - "try" otherwise: launch sandboxed, and fall back to no sandbox, with a warning in the log, when this
//   machine cannot start it (a container without user namespaces).
export function sandboxMode(uid = process.getuid?.()): SandboxMode {
  const wanted = setting("CHROMIUM_SANDBOX");
  if (wanted === "0") return "off";
  if (uid === 0 || config.serverless) return "off";
  if (wanted === "1") return "on";
  return "try";
}

export async function chromiumExecutablePath(): Promise<string> {
  const configured = setting("CHROMIUM_PATH");
  if (configured) return configured;
  const { default: chromium } = await import("@sparticuz/chromium");
  return chromium.executablePath();
}
