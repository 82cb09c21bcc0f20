// API key management until (and besides) the browser app:
//   npm run --silent keys:create -- --email <email> [--org <name>] [--name <label>]
//   npm run --silent keys:revoke -- <key>
// Honours DATA_DIR / DATABASE_URL like the server. The new key is printed alone on the last line of stdout.
// The command itself is scripts/cli/keys.ts.
import { keys } from "./cli/keys";
import { runCli } from "./cli/run";

process.exitCode = await runCli(keys);
