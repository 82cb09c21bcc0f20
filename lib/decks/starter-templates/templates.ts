import { defaultTokensCss, themeTokens } from "@/lib/source/theme-tokens";
import { allHands } from "./all-hands";
import { lesson } from "./lesson";
import { pitch } from "./pitch";
import { productLaunch } from "./product-launch";
import { projectUpdate } from "./project-update";
import { quarterlyReview } from "./quarterly-review";

// The starter templates every organization is given (lib/decks/seed-templates.ts), in the order the
// library's gallery shows them: each a finished deck in the vocabulary with a theme of its own, so a new
// team starts from a designed deck rather than a blank page.

export type StarterTemplate = {
  title: string;
  description: string;
  source: string;
  /** The theme: the default tokens with these values in their place. */
  tokensCss: string;
};

type Definition = { title: string; description: string; source: string; tokens: Record<string, string> };

const known = new Set(themeTokens.map((token) => token.name));

function withTokens(values: Record<string, string>): string {
  for (const name of Object.keys(values)) {
    if (!known.has(name)) throw new Error(`A starter template sets ${name}, which is not a theme token.`);
  }
  return defaultTokensCss.replace(/^ {2}(--[a-z-]+): (.*);$/gm, (line, name: string) =>
    name in values ? `  ${name}: ${values[name]};` : line,
  );
}

const definitions: Definition[] = [pitch, quarterlyReview, projectUpdate, productLaunch, allHands, lesson];

export const starterTemplates: readonly StarterTemplate[] = definitions.map(({ tokens, ...rest }) => ({
  ...rest,
  tokensCss: withTokens(tokens),
}));
