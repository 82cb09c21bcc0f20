import { execFileSync } from "node:child_process";

// Suites that open files in a desktop tool (LibreOffice, poppler, fontconfig) need it installed: a missing
// one fails the suite everywhere, naming the package to install, instead of skipping it unseen.
export function requireTools(tools: string[], install: string): void {
  const missing = tools.filter((tool) => {
    try {
      execFileSync("which", [tool], { stdio: "ignore" });
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length > 0) throw new Error(`${missing.join(", ")} not found: apt-get install ${install}`);
}
