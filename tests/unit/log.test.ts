import { afterEach, describe, expect, it, vi } from "vitest";
import { createLogger, currentRequestId, logger, withRequestId, type LogLevel } from "@/lib/core/log";

// The server's one logger (lib/core/log.ts): lines below the level are dropped, every line written while a
// request is served names its id, JSON in production and readable lines otherwise, and an error is written
// as its message and causes.

function capture(level: LogLevel | "silent", format: "json" | "pretty" = "json") {
  const lines: Array<{ line: string; level: LogLevel }> = [];
  const log = createLogger({ level, format, write: (line, at) => void lines.push({ line, level: at }) }, "test");
  return { log, lines, parsed: () => lines.map(({ line }) => JSON.parse(line) as Record<string, unknown>) };
}

describe("the logger", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it("writes one JSON object a line with level, time, component, message and fields", () => {
    const { log, lines, parsed } = capture("info");
    log.info("export.claimed", { exportId: "e1", attempt: 2 });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.line.endsWith("\n")).toBe(true);
    expect(parsed()[0]).toEqual({
      level: "info",
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      component: "test",
      msg: "export.claimed",
      exportId: "e1",
      attempt: 2,
    });
  });

  it("drops the lines below its level", () => {
    const { log, lines, parsed } = capture("warn");
    log.debug("d");
    log.info("i");
    log.warn("w");
    log.error("e");
    expect(parsed().map((line) => [line.level, line.msg])).toEqual([
      ["warn", "w"],
      ["error", "e"],
    ]);
    expect(lines.map((line) => line.level)).toEqual(["warn", "error"]);
    const silent = capture("silent");
    silent.log.error("nothing");
    expect(silent.lines).toEqual([]);
  });

  it("names the request on every line written while it is served, however deep, and on no other", async () => {
    const { log, parsed } = capture("info");
    const deep = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      log.info("inside");
    };
    log.info("before");
    await withRequestId("req-42", async () => {
      expect(currentRequestId()).toBe("req-42");
      log.info("start");
      await Promise.all([deep(), withRequestId("req-43", deep)]);
    });
    log.info("after");
    expect(parsed().map((line) => [line.msg, line.requestId])).toEqual([
      ["before", undefined],
      ["start", "req-42"],
      ["inside", "req-42"],
      ["inside", "req-43"],
      ["after", undefined],
    ]);
  });

  it("writes an error as its message, causes and frames", () => {
    const { log, parsed } = capture("info");
    const cause = Object.assign(new Error("connection refused"), { code: "ECONNREFUSED" });
    log.error("failed", { error: new Error("Failed query: select", { cause }) });
    const { error } = parsed()[0] as { error: { message: string; causes: string[]; stack: string } };
    expect(error.message).toBe("Error: Failed query: select");
    expect(error.causes).toEqual([expect.stringContaining("connection refused")]);
    expect(error.stack).toContain("log.test.ts");
  });

  it("writes readable lines for a terminal", () => {
    const { log, lines } = capture("info", "pretty");
    withRequestId("req-7", () => log.warn("slow", { ms: 12 }));
    expect(lines[0]!.line).toMatch(/^\d\d:\d\d:\d\d\.\d{3} WARN {2}\[test\] slow \(request req-7\) ms=12\n$/);
  });

  it("takes its level and format from LOG_LEVEL and LOG_FORMAT, warnings to stderr", () => {
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    vi.stubEnv("LOG_FORMAT", "json");
    vi.stubEnv("LOG_LEVEL", "warn");
    const log = logger("settings");
    log.info("hidden");
    log.warn("shown");
    expect(out).not.toHaveBeenCalled();
    expect(JSON.parse(String(err.mock.calls[0]![0]))).toMatchObject({ level: "warn", component: "settings" });
    vi.stubEnv("LOG_LEVEL", "debug");
    log.debug("now shown");
    expect(JSON.parse(String(out.mock.calls[0]![0]))).toMatchObject({ level: "debug", msg: "now shown" });
  });
});
