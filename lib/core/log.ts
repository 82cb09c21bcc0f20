import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";
import { setting } from "./config";
import { describeError } from "./faults";

// The one logger of the server (pino): a line per event with its level, time, the component that wrote it
// and the id of the request it belongs to, JSON in production (one object a line, for a log collector) and
// readable lines in a terminal. `logger("exports")` gives a component its logger; `withRequestId()` runs a
// request's work so every line it writes names the request (lib/api/handler.ts, server/action.ts).
// LOG_LEVEL drops the lines below it, LOG_FORMAT picks the shape (lib/core/config.ts). Warnings and errors go
// to stderr, the rest to stdout. A field named `error` is written as describeError() describes it: message,
// causes and frames, never a failed query's parameters (a deck's source).

export type LogLevel = "debug" | "info" | "warn" | "error";
type LogFields = Record<string, unknown>;

export type Logger = {
  [L in LogLevel]: (msg: string, fields?: LogFields) => void;
};

type Options = {
  level: LogLevel | "silent";
  format: "json" | "pretty";
  /** Where each finished line goes; by default stdout, or stderr for warnings and errors. */
  write?: (line: string, level: LogLevel) => void;
};

const requests = new AsyncLocalStorage<{ requestId: string }>();

/** Runs `run` so that every line logged inside it, however deep, carries `requestId`. */
export function withRequestId<T>(requestId: string, run: () => T): T {
  return requests.run({ requestId }, run);
}

/** The id of the request the caller is serving, if any. */
export function currentRequestId(): string | undefined {
  return requests.getStore()?.requestId;
}

/** A logger with its own settings (the server's comes from the environment: `logger()`). */
export function createLogger(options: Options, component?: string): Logger {
  const write = options.write ?? standardWrite;
  const destination = {
    write(line: string) {
      const level = (/"level":"(\w+)"/.exec(line)?.[1] ?? "info") as LogLevel;
      write(options.format === "pretty" ? readable(line) : line, level);
    },
  };
  const base = pino(
    {
      level: options.level,
      base: component ? { component } : null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
    },
    destination,
  );
  return wrap(base);
}

function wrap(base: pino.Logger): Logger {
  const at =
    (level: LogLevel) =>
    (msg: string, fields: LogFields = {}) => {
      if (!base.isLevelEnabled(level)) return;
      const error = "error" in fields ? { error: describeError(fields.error) } : {};
      base[level]({ ...fields, ...error }, msg);
    };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

function standardWrite(line: string, level: LogLevel) {
  (level === "warn" || level === "error" ? process.stderr : process.stdout).write(line);
}

// A JSON line as a terminal reader wants it: time, level, component, message, then the other fields.
function readable(line: string): string {
  const { level, time, component, msg, requestId, ...rest } = JSON.parse(line) as LogFields;
  const { pid: _pid, hostname: _hostname, ...fields } = rest;
  const name = String(level).toUpperCase().padEnd(5);
  const head = [String(time).slice(11, 23), name, component ? `[${String(component)}]` : "", String(msg ?? "")];
  if (requestId) head.push(`(request ${String(requestId)})`);
  const tail = Object.entries(fields).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  return `${[...head, ...tail].filter(Boolean).join(" ")}\n`;
}

const cache = new Map<string, Logger>();
let settingsSeen = "";

/** The server's logger for `component`, with LOG_LEVEL and LOG_FORMAT as they are now. */
export function logger(component: string): Logger {
  const current = (): Logger => {
    const level = setting("LOG_LEVEL");
    const format = setting("LOG_FORMAT") ?? (setting("NODE_ENV") === "production" ? "json" : "pretty");
    const seen = `${level} ${format}`;
    if (seen !== settingsSeen) {
      cache.clear();
      settingsSeen = seen;
    }
    let made = cache.get(component);
    if (!made) cache.set(component, (made = createLogger({ level, format }, component)));
    return made;
  };
  return {
    debug: (msg, fields) => current().debug(msg, fields),
    info: (msg, fields) => current().info(msg, fields),
    warn: (msg, fields) => current().warn(msg, fields),
    error: (msg, fields) => current().error(msg, fields),
  };
}
