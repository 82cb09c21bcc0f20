// Monthly allowances per organization, overriding the environment's defaults:
//   npm run --silent allowance -- set --org <name or id> --feature <feature> --limit <n>
//   npm run --silent allowance -- unset --org <name or id> --feature <feature>
//   npm run --silent allowance -- show --org <name or id>
// Features: version_edits, ai_generations, brand_extractions. The command itself is scripts/cli/allowance.ts.
import { allowance } from "./cli/allowance";
import { runCli } from "./cli/run";

process.exitCode = await runCli(allowance);
