import path from "node:path";

// Every setting the service reads from the environment, with the embedded defaults of DESIGN.md.
// Read lazily so tests and the CLI can set the environment before first use.

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  }
  return value;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

export const config = {
  get port(): number {
    return intFromEnv("PORT", 3000);
  },
  get dataDir(): string {
    return path.resolve(/*turbopackIgnore: true*/ process.env.DATA_DIR || ".data");
  },
  get databaseUrl(): string | undefined {
    return process.env.DATABASE_URL || undefined;
  },
  get appUrl(): string {
    return trimSlash(process.env.APP_URL || `http://localhost:${this.port}`);
  },
  get viewerBaseUrl(): string {
    return trimSlash(process.env.VIEWER_BASE_URL || this.appUrl);
  },
  // A separate origin that serves deck frames (the same app behind another host name), so deck code never
  // shares an origin with the app even if a browser ignored the sandbox. Unset: frames come from the app.
  get deckContentOrigin(): string | undefined {
    const value = process.env.DECK_CONTENT_ORIGIN;
    return value ? new URL(value).origin : undefined;
  },
  get versionEditAllowance(): number {
    return intFromEnv("VERSION_EDIT_ALLOWANCE", 1000);
  },
};
