import fs from "node:fs";
import os from "node:os";
import path from "node:path";
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

let launchable: Promise<string> | undefined;

/**
 * The executable the renderer launches: on Linux, Chromium behind `setpriv --pdeathsig KILL`, so the kernel
 * ends the browser when the server dies, even by SIGKILL (its zygote and renderers end with it); a
 * graceful stop closes it first (lib/core/shutdown.ts). It also runs under `nice` (RENDERER_NICENESS,
 * default 10): deck checks and exports are background work, and a busy renderer then gives the CPU to the
 * requests a person or an agent is waiting for (a deck check beside an edit had put the edit's preview off
 * by up to 0.7 s on two cores). A server with CAP_SYS_NICE (root) launches it without that capability:
 * Chromium raises its GPU and renderer processes to -8 when it may, above the server. Where setpriv is
 * missing, Chromium itself.
 */
export function launchableChromiumPath(): Promise<string> {
  launchable ??= chromiumExecutablePath().then((executable) => {
    const setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].find((file) => fs.existsSync(file));
    if (process.platform !== "linux" || config.serverless || !setpriv) return executable;
    const niceness = setting("RENDERER_NICENESS");
    const nice = ["/usr/bin/nice", "/bin/nice"].find((file) => fs.existsSync(file));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-chromium-"));
    const wrapper = path.join(dir, "chromium");
    const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
    const niced = nice && niceness > 0 ? `${quote(nice)} -n ${niceness} ` : "";
    // Dropping a capability from the bounding set takes CAP_SETPCAP; without CAP_SYS_NICE there is none to drop.
    const noBoost = hasCapabilities(CAP_SYS_NICE, CAP_SETPCAP) ? "--bounding-set -sys_nice --inh-caps -sys_nice " : "";
    fs.writeFileSync(
      wrapper,
      `#!/bin/sh\nexec ${niced}${quote(setpriv)} --pdeathsig KILL ${noBoost}-- ${quote(executable)} "$@"\n`,
      {
        mode: 0o700,
      },
    );
    process.once("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
    return wrapper;
  });
  return launchable;
}

const CAP_SETPCAP = 8;
const CAP_SYS_NICE = 23;

/** Whether this process's effective capabilities (/proc/self/status, CapEff) hold every one of `bits`. */
function hasCapabilities(...bits: number[]): boolean {
  try {
    const effective = /^CapEff:\s*([0-9a-f]+)$/m.exec(fs.readFileSync("/proc/self/status", "utf8"))?.[1];
    return effective !== undefined && bits.every((bit) => ((BigInt(`0x${effective}`) >> BigInt(bit)) & 1n) === 1n);
  } catch {
    return false;
  }
}
