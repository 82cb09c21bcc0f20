import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";

// Every setting the service reads from the environment, read and validated here and nowhere else, with the
// embedded defaults of DESIGN.md. A value is parsed when first used and again whenever the variable changes
// (tests and the CLI set the environment before use); `configProblems()` checks them all at start-up so a
// bad value stops the server with a message naming the variable instead of surfacing in some request later.
// The table of docs/configuration.md lists exactly the variables below (tests/unit/config.test.ts).

/** A whole number, or undefined when unset (the default is then worked out from other facts). */
const optionalWholeNumber = ({ min = 0, max = Number.MAX_SAFE_INTEGER } = {}) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, { message: `must be a whole number (${min} to ${max})` })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { message: `must be at least ${min}` })
        .max(max, { message: `must be at most ${max}` }),
    )
    .optional();

const wholeNumber = (fallback: number, range: { min?: number; max?: number } = {}) =>
  optionalWholeNumber(range).transform((value) => value ?? fallback);

/** "1" turns it on, "0" off; unset is the default. */
const onOff = (fallback: boolean) =>
  z
    .enum(["0", "1"], { message: 'must be "0" or "1"' })
    .optional()
    .transform((value) => (value === undefined ? fallback : value === "1"));

const text = z.string().optional();

const httpUrl = z
  .url({ protocol: /^https?$/, message: "must be an absolute http(s) URL" })
  .transform((url) => url.replace(/\/+$/, ""))
  .optional();

const httpOrigin = z
  .url({ protocol: /^https?$/, message: "must be an absolute http(s) URL" })
  .transform((url) => new URL(url).origin)
  .optional();

export const settings = {
  PORT: wholeNumber(3000, { min: 1, max: 65_535 }),
  APP_URL: httpUrl,
  VIEWER_BASE_URL: httpUrl,
  DECK_CONTENT_ORIGIN: httpOrigin,
  DATA_DIR: text,
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, message: "must be a postgres:// or postgresql:// URL" })
    .optional(),
  DATABASE_DRIVER: z.enum(["pg", "neon"], { message: 'must be "pg" or "neon"' }).optional(),
  DATABASE_NEON_WS_PROXY: text,
  DATABASE_POOL_SIZE: wholeNumber(10, { min: 1, max: 1000 }),
  // A server database's timeouts (lib/db/client.ts): making a connection or waiting for a free one, and a
  // statement (0: none; the migrations run without one).
  DATABASE_CONNECT_TIMEOUT_MS: wholeNumber(5000, { min: 100, max: 600_000 }),
  DATABASE_QUERY_TIMEOUT_MS: wholeNumber(30_000, { min: 0, max: 3_600_000 }),
  VERSION_EDIT_ALLOWANCE: wholeNumber(1000),
  AI_GENERATION_ALLOWANCE: wholeNumber(200),
  BRAND_EXTRACTION_ALLOWANCE: wholeNumber(50),
  RATE_LIMIT_PER_MINUTE: wholeNumber(600, { min: 1 }),
  RATE_LIMIT_SLOW_PER_MINUTE: wholeNumber(20, { min: 1 }),
  RATE_LIMIT_WINDOW_SECONDS: wholeNumber(60, { min: 1, max: 86_400 }),
  // How long request counts wait in an instance's memory before they are written (lib/limits/rate-limit.ts).
  RATE_LIMIT_FLUSH_MS: wholeNumber(200, { min: 10, max: 10_000 }),
  BRAND_EXTRACTION_FAILURES_PER_HOUR: wholeNumber(10, { min: 1 }),
  LOG_REQUESTS: onOff(true),
  // The lowest level written (lib/core/log.ts), and how: one JSON object a line, or readable lines for a
  // terminal (the default outside production).
  LOG_LEVEL: z
    .enum(["debug", "info", "warn", "error", "silent"], {
      message: 'must be "debug", "info", "warn", "error" or "silent"',
    })
    .default("info"),
  LOG_FORMAT: z.enum(["json", "pretty"], { message: 'must be "json" or "pretty"' }).optional(),
  // How long a stopping server lets requests and exports in flight finish (lib/core/shutdown.ts).
  SHUTDOWN_GRACE_MS: wholeNumber(10_000, { min: 0, max: 600_000 }),
  // How long an instance trusts what it read of an API key (lib/auth/api-keys.ts); 0 reads it every time.
  API_KEY_CACHE_SECONDS: wholeNumber(10, { min: 0, max: 300 }),
  AUTH_SECRET: z.string().min(32, { message: "must be at least 32 characters (32+ random bytes)" }).optional(),
  APP_SECRET: z.string().min(32, { message: "must be at least 32 characters (32+ random bytes)" }).optional(),
  AUTH_GITHUB_ID: text,
  AUTH_GITHUB_SECRET: text,
  AUTH_GOOGLE_ID: text,
  AUTH_GOOGLE_SECRET: text,
  BLOB_READ_WRITE_TOKEN: text,
  // Read by @vercel/blob itself (its API endpoint); checked here so a bad value stops the start.
  VERCEL_BLOB_API_URL: httpUrl,
  INNGEST_EVENT_KEY: text,
  INNGEST_SIGNING_KEY: text,
  INNGEST_DEV: text,
  OPENAI_API_KEY: text,
  OPENAI_BASE_URL: httpUrl,
  AI_MODEL: z.string().default("gpt-4.1-mini"),
  AI_TIMEOUT_MS: wholeNumber(170_000, { min: 1 }),
  FETCH_ALLOW_HOSTS: text,
  COMPILE_IN_WORKER: onOff(true),
  BRAND_EXTRACT_IN_WORKER: onOff(true),
  CHROMIUM_PATH: text,
  CHROMIUM_SANDBOX: z.enum(["0", "1"], { message: 'must be "0" or "1"' }).optional(),
  // nice(1)'s increment for the renderer's Chromium (lib/render/chromium.ts): 0 runs it beside the server.
  RENDERER_NICENESS: wholeNumber(10, { min: 0, max: 19 }),
  // Unset: sized to the machine (config.exportConcurrency).
  EXPORT_CONCURRENCY: optionalWholeNumber({ min: 1, max: 64 }),
  EXPORT_LEASE_MS: wholeNumber(30_000, { min: 100 }),
  EXPORT_TIMEOUT_MS: wholeNumber(120_000, { min: 100 }),
  EXPORT_READY_TIMEOUT_MS: wholeNumber(20_000, { min: 100 }),
  EXPORT_SLIDE_TIMEOUT_MS: wholeNumber(5000, { min: 100 }),
  ASSET_MAX_BYTES: wholeNumber(15 * 1024 * 1024, { min: 1024 }),
  ASSET_MAX_PIXELS: wholeNumber(40_000_000, { min: 1 }),
  ASSET_STORAGE_BYTES: wholeNumber(1024 * 1024 * 1024, { min: 0 }),
  ANALYTICS_RETENTION_DAYS: wholeNumber(90, { min: 1, max: 3650 }),
  ANALYTICS_VIEWER_EVENTS_PER_MINUTE: wholeNumber(60, { min: 1 }),
  ANALYTICS_DECK_EVENTS_PER_MINUTE: wholeNumber(6000, { min: 1 }),
  // Proxies in front of the server whose X-Forwarded-For is believed (lib/net/client-address.ts); 0: none.
  TRUSTED_PROXIES: wholeNumber(0, { min: 0, max: 10 }),
  // A password link's unlock attempts per client address, and wrong passwords from everyone, per 15 minutes.
  UNLOCK_ATTEMPTS_PER_ADDRESS: wholeNumber(10, { min: 1 }),
  UNLOCK_FAILURES_PER_LINK: wholeNumber(100, { min: 1 }),
} satisfies Record<string, z.ZodType<unknown, string | undefined>>;

// Set by the platform, not by the operator: read here too, never documented as settings.
export const platformVariables = {
  NODE_ENV: text,
  VERCEL: text,
  AWS_LAMBDA_FUNCTION_NAME: text,
} satisfies Record<string, z.ZodType<unknown, string | undefined>>;

type Variables = typeof settings & typeof platformVariables;

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
    this.name = "ConfigError";
  }
}

const schemas: Variables = { ...settings, ...platformVariables };
const cache = new Map<string, { raw: string | undefined; value: unknown }>();

/** The parsed value of one variable; a bad value throws a ConfigError naming the variable. */
export function setting<K extends keyof Variables>(name: K): z.output<Variables[K]> {
  const raw = process.env[name] === "" ? undefined : process.env[name];
  const cached = cache.get(name);
  if (cached && cached.raw === raw) return cached.value as z.output<Variables[K]>;
  const result = (schemas[name] as z.ZodType<unknown, string | undefined>).safeParse(raw);
  if (!result.success) {
    const shown = raw !== undefined && /SECRET|KEY|TOKEN/.test(name) ? "(hidden)" : JSON.stringify(raw);
    throw new ConfigError(name, `${name} ${result.error.issues[0]?.message ?? "is not valid"}, got ${shown}`);
  }
  cache.set(name, { raw, value: result.data });
  return result.data as z.output<Variables[K]>;
}

/** Every bad setting, each a sentence naming its variable; empty when the configuration is good. */
export function configProblems(): string[] {
  const problems: string[] = [];
  for (const name of Object.keys(schemas) as Array<keyof Variables>) {
    try {
      setting(name);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(error.message);
    }
  }
  return problems;
}

/** What one export's renderer may take at the most (a 20-slide PPTX at 2x draws in about 150-250 MB). */
export const EXPORT_MEMORY_BUDGET = 384 * 1024 * 1024;
/** Exports at once per instance when sized to the machine, whatever its size. */
export const EXPORT_CONCURRENCY_CAP = 16;

/** What sizes the default export concurrency: what this process may use, not what the host has. */
export type MachineShape = {
  /** os.availableParallelism(). */
  cpus: number;
  /** The cgroup's CPU quota in CPUs (cpu.max's quota ÷ period; may be fractional), null when unlimited or unknown. */
  cpuQuota: number | null;
  /** process.constrainedMemory(): a container's memory limit; ignored unless positive and below totalMemory. */
  constrainedMemory: number;
  totalMemory: number;
  /** os.freemem(). */
  freeMemory: number;
};

/**
 * Exports an instance renders at once when EXPORT_CONCURRENCY is unset: two per CPU the process may use (a
 * render waits on Chromium's processes, the database and the file store part of the time, so one per CPU
 * leaves CPUs idle), no more than the memory it may use (free memory, and a container's limit) allows at
 * EXPORT_MEMORY_BUDGET each, between 1 and 16.
 */
export function machineExportConcurrency({
  cpus,
  cpuQuota,
  constrainedMemory,
  totalMemory,
  freeMemory,
}: MachineShape): number {
  const usableCpus = cpuQuota !== null && cpuQuota > 0 ? Math.min(cpus, cpuQuota) : cpus;
  const limited = constrainedMemory > 0 && constrainedMemory < totalMemory;
  const memory = limited ? Math.min(constrainedMemory, freeMemory) : freeMemory;
  const byCpu = Math.floor(2 * usableCpus);
  const byMemory = Math.floor(memory / EXPORT_MEMORY_BUDGET);
  return Math.max(1, Math.min(byCpu, byMemory, EXPORT_CONCURRENCY_CAP));
}

/** cgroup v2's cpu.max ("max 100000" or "<quota> <period>") in CPUs; null when unlimited or unreadable. */
export function parseCpuMax(text: string): number | null {
  const [quota, period] = text.trim().split(/\s+/);
  const q = Number(quota);
  const p = Number(period ?? 100_000);
  return Number.isFinite(q) && q > 0 && Number.isFinite(p) && p > 0 ? q / p : null;
}

function readCpuQuota(): number | null {
  try {
    return parseCpuMax(fs.readFileSync("/sys/fs/cgroup/cpu.max", "utf8"));
  } catch {
    return null;
  }
}

/** The machine as this process sees it, read once (at start-up, by the first use): never throws. */
export function machineShape(): MachineShape {
  const constrained = typeof process.constrainedMemory === "function" ? process.constrainedMemory() : undefined;
  return {
    cpus: os.availableParallelism(),
    cpuQuota: readCpuQuota(),
    constrainedMemory: typeof constrained === "number" && Number.isFinite(constrained) ? constrained : 0,
    totalMemory: os.totalmem(),
    freeMemory: os.freemem(),
  };
}

let machineDefault: number | undefined;

/** The default export concurrency of this process: sized to the machine once, on first use. */
export function defaultExportConcurrency(): number {
  machineDefault ??= machineExportConcurrency(machineShape());
  return machineDefault;
}

// The settings as the code uses them, with the defaults that depend on other settings.
export const config = {
  get port() {
    return setting("PORT");
  },
  get dataDir(): string {
    return path.resolve(/*turbopackIgnore: true*/ setting("DATA_DIR") ?? ".data");
  },
  get databaseUrl() {
    return setting("DATABASE_URL");
  },
  get appUrl(): string {
    return setting("APP_URL") ?? `http://localhost:${this.port}`;
  },
  get viewerBaseUrl(): string {
    return setting("VIEWER_BASE_URL") ?? this.appUrl;
  },
  // A separate origin that serves deck frames (the same app behind another host name), so deck code never
  // shares an origin with the app even if a browser ignored the sandbox. Unset: frames come from the app.
  get deckContentOrigin() {
    return setting("DECK_CONTENT_ORIGIN");
  },
  /** The server's signing secret when one is configured (else lib/core/secret.ts makes one in DATA_DIR). */
  get secret() {
    return setting("AUTH_SECRET") ?? setting("APP_SECRET");
  },
  get development(): boolean {
    return setting("NODE_ENV") === "development";
  },
  /** Vercel's own functions: its proxy tells the client's address (lib/net/client-address.ts). */
  get onVercel(): boolean {
    return Boolean(setting("VERCEL"));
  },
  /** A serverless function (Vercel, AWS Lambda): no user namespaces, no long-lived workers. */
  get serverless(): boolean {
    return Boolean(setting("VERCEL") || setting("AWS_LAMBDA_FUNCTION_NAME"));
  },
  /** EXPORT_CONCURRENCY when set, else sized to the machine once (defaultExportConcurrency). */
  get exportConcurrency(): number {
    return setting("EXPORT_CONCURRENCY") ?? defaultExportConcurrency();
  },
  get inngestConfigured(): boolean {
    return Boolean(setting("INNGEST_EVENT_KEY") || setting("INNGEST_DEV"));
  },
  get oauth() {
    return {
      github: Boolean(setting("AUTH_GITHUB_ID") && setting("AUTH_GITHUB_SECRET")),
      google: Boolean(setting("AUTH_GOOGLE_ID") && setting("AUTH_GOOGLE_SECRET")),
    };
  },
};
