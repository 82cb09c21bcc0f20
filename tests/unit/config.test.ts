import fs from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ConfigError,
  config,
  configProblems,
  EXPORT_CONCURRENCY_CAP,
  EXPORT_MEMORY_BUDGET,
  defaultExportConcurrency,
  machineExportConcurrency,
  machineShape,
  parseCpuMax,
  setting,
  settings,
} from "@/lib/core/config";
import { importEdges } from "../helpers/import-graph";

// Every setting is read and checked by lib/core/config.ts, named in the table of docs/configuration.md, and a bad value
// is refused with a message naming the variable.
describe("configuration", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("is documented: the configuration page's table lists exactly the settings the code reads", () => {
    const readme = fs.readFileSync("docs/configuration.md", "utf8");
    const section = readme.slice(
      readme.indexOf("## Configuration"),
      readme.indexOf("\n## ", readme.indexOf("## Configuration") + 1),
    );
    const documented = new Set(
      section
        .split("\n")
        .filter((line) => line.startsWith("| `"))
        .flatMap((line) => [...line.split("|")[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]!)),
    );
    expect([...documented].sort()).toEqual(Object.keys(settings).sort());
  });

  it("is read from the environment nowhere else in the product", () => {
    const readers = new Set<string>();
    for (const file of new Set(importEdges().map((edge) => edge.from))) {
      if (!/^(lib|app|components|inngest)\//.test(file)) continue;
      if (file === "lib/core/config.ts") continue;
      if (/process\.env\b/.test(fs.readFileSync(file, "utf8"))) readers.add(file);
    }
    expect([...readers]).toEqual([]);
  });

  it("refuses a bad value with a message naming the variable, and accepts the defaults", () => {
    vi.stubEnv("EXPORT_LEASE_MS", "thirty seconds");
    expect(() => setting("EXPORT_LEASE_MS")).toThrow(ConfigError);
    expect(() => setting("EXPORT_LEASE_MS")).toThrow(/^EXPORT_LEASE_MS must be a whole number.*got "thirty seconds"$/);
    expect(configProblems()).toEqual([expect.stringMatching(/^EXPORT_LEASE_MS /)]);

    vi.stubEnv("EXPORT_LEASE_MS", "");
    expect(setting("EXPORT_LEASE_MS")).toBe(30_000);
    vi.stubEnv("RATE_LIMIT_PER_MINUTE", "0");
    expect(() => setting("RATE_LIMIT_PER_MINUTE")).toThrow("RATE_LIMIT_PER_MINUTE must be at least 1");
    vi.stubEnv("LOG_REQUESTS", "off");
    expect(() => setting("LOG_REQUESTS")).toThrow('LOG_REQUESTS must be "0" or "1"');
    vi.stubEnv("APP_URL", "localhost:3000");
    expect(() => config.appUrl).toThrow(/^APP_URL must be an absolute http\(s\) URL/);
    vi.stubEnv("AUTH_SECRET", "short");
    expect(() => config.secret).toThrow("AUTH_SECRET must be at least 32 characters (32+ random bytes), got (hidden)");
  });

  it("derives the defaults that depend on other settings", () => {
    vi.stubEnv("PORT", "4100");
    vi.stubEnv("APP_URL", "");
    vi.stubEnv("VIEWER_BASE_URL", "");
    expect(config.appUrl).toBe("http://localhost:4100");
    expect(config.viewerBaseUrl).toBe("http://localhost:4100");
    vi.stubEnv("APP_URL", "https://decks.example.com/");
    expect(config.viewerBaseUrl).toBe("https://decks.example.com");
    vi.stubEnv("DECK_CONTENT_ORIGIN", "https://frames.example.net/any/path");
    expect(config.deckContentOrigin).toBe("https://frames.example.net");
  });
});

describe("export concurrency sized to the machine", () => {
  afterEach(() => vi.unstubAllEnvs());
  const MiB = 1024 * 1024;

  const GiB = 1024 * MiB;
  // A host of 64 GiB with nothing asked of it; each case changes what it names.
  const host = { cpus: 2, cpuQuota: null, constrainedMemory: 0, totalMemory: 64 * GiB, freeMemory: 8192 * MiB };

  it("is two per CPU, no more than free memory allows at the budget each, between 1 and the cap", () => {
    expect(machineExportConcurrency(host)).toBe(4);
    expect(machineExportConcurrency({ ...host, cpus: 4, freeMemory: 1024 * MiB })).toBe(
      Math.floor((1024 * MiB) / EXPORT_MEMORY_BUDGET),
    );
    expect(machineExportConcurrency({ ...host, cpus: 64, totalMemory: 2048 * GiB, freeMemory: 1024 * GiB })).toBe(
      EXPORT_CONCURRENCY_CAP,
    );
    expect(machineExportConcurrency({ ...host, cpus: 8, freeMemory: 10 * MiB })).toBe(1);
  });

  it("counts the CPUs of the cgroup's quota, not the host's", () => {
    const big = { ...host, cpus: 32, freeMemory: 60 * GiB };
    expect(machineExportConcurrency(big)).toBe(EXPORT_CONCURRENCY_CAP);
    expect(machineExportConcurrency({ ...big, cpuQuota: 2 })).toBe(4);
    expect(machineExportConcurrency({ ...big, cpuQuota: 1.5 })).toBe(3);
    expect(machineExportConcurrency({ ...big, cpuQuota: 0.25 })).toBe(1);
    // A quota above what the process may run on counts only the CPUs it has.
    expect(machineExportConcurrency({ ...host, cpuQuota: 8 })).toBe(4);
  });

  it("counts the container's memory limit, not the host's free memory, when there is one", () => {
    const big = { ...host, cpus: 16, freeMemory: 60 * GiB };
    expect(machineExportConcurrency({ ...big, constrainedMemory: 1024 * MiB })).toBe(2);
    expect(machineExportConcurrency({ ...big, constrainedMemory: 256 * MiB })).toBe(1);
    // The host's free memory still bounds it when that is smaller.
    expect(machineExportConcurrency({ ...big, constrainedMemory: 8 * GiB, freeMemory: 800 * MiB })).toBe(2);
    // No limit: Node answers 0, or a number past the machine's memory (2^64 - 1 under cgroups without one).
    expect(machineExportConcurrency({ ...big, constrainedMemory: 0 })).toBe(EXPORT_CONCURRENCY_CAP);
    expect(machineExportConcurrency({ ...big, constrainedMemory: 2 ** 64 - 1 })).toBe(EXPORT_CONCURRENCY_CAP);
    expect(machineExportConcurrency({ ...big, constrainedMemory: 64 * GiB })).toBe(EXPORT_CONCURRENCY_CAP);
  });

  it("reads cgroup v2's cpu.max", () => {
    expect(parseCpuMax("max 100000\n")).toBeNull();
    expect(parseCpuMax("200000 100000\n")).toBe(2);
    expect(parseCpuMax("50000 100000")).toBe(0.5);
    expect(parseCpuMax("150000")).toBe(1.5);
    expect(parseCpuMax("")).toBeNull();
    expect(parseCpuMax("garbage here")).toBeNull();
    expect(parseCpuMax("100000 0")).toBeNull();
  });

  it("reads this machine once, without throwing", () => {
    const shape = machineShape();
    expect(shape.cpus).toBeGreaterThanOrEqual(1);
    expect(shape.totalMemory).toBeGreaterThan(0);
    expect(defaultExportConcurrency()).toBe(defaultExportConcurrency());
    expect(defaultExportConcurrency()).toBeGreaterThanOrEqual(1);
    expect(defaultExportConcurrency()).toBeLessThanOrEqual(EXPORT_CONCURRENCY_CAP);
  });

  it("is EXPORT_CONCURRENCY when that is set", () => {
    vi.stubEnv("EXPORT_CONCURRENCY", "3");
    expect(config.exportConcurrency).toBe(3);
    vi.stubEnv("EXPORT_CONCURRENCY", "0");
    expect(() => config.exportConcurrency).toThrow("EXPORT_CONCURRENCY must be at least 1");
    vi.stubEnv("EXPORT_CONCURRENCY", "");
    expect(config.exportConcurrency).toBe(defaultExportConcurrency());
  });
});
