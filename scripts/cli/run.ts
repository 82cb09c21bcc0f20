// The command-line scripts' shared runner. Each command (scripts/cli/keys.ts, allowance.ts, import.ts) is a
// function of its arguments and an `io` (stdout, stderr and the database, opened on first use, so a usage
// error opens nothing); a refusal is thrown as a CliError. The entry files (scripts/keys.ts, allowance.ts,
// import.ts) run one on the process with runCli; tests run them in process on their own database with execute.
import { AppError } from "@/lib/core/errors";
import { type Database, getDatabase } from "@/lib/db/client";
import type { Db } from "@/lib/db/types";

/** A refusal (bad usage, nothing to act on): its message goes to stderr and the exit code is 1. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CliError";
  }
}

export type CliIo = {
  /** Writes a line to stdout. */
  out: (line: string) => void;
  /** Writes a line to stderr. */
  err: (line: string) => void;
  /** The database, opened on the first call. */
  db: () => Promise<Db>;
};

export type CliCommand = (args: string[], io: CliIo) => Promise<void>;

/** Runs a command; returns its exit code: 0 when done, 1 when it refused or failed (the reason on stderr). */
export async function execute(command: CliCommand, args: string[], io: CliIo): Promise<number> {
  try {
    await command(args, io);
    return 0;
  } catch (error) {
    io.err(
      error instanceof AppError
        ? `${error.code}: ${error.message}`
        : error instanceof Error
          ? error.message
          : String(error),
    );
    return 1;
  }
}

/** Runs a command on this process's arguments, stdout and stderr and on the configured database (DATA_DIR
 *  or DATABASE_URL, like the server), closes the database when it was opened and returns the exit code. */
export async function runCli(command: CliCommand): Promise<number> {
  let database: Promise<Database> | undefined;
  const code = await execute(command, process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    db: async () => (await (database ??= getDatabase())).db,
  });
  const opened = await database?.catch(() => undefined);
  if (!opened) return code;
  return opened.close().then(
    () => code,
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    },
  );
}
