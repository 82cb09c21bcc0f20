import fs from "node:fs";
import path from "node:path";

// URLs of the player's built assets (scripts/build-player.ts writes public/player/manifest.json).
export type PlayerAssets = {
  runtime: string;
  boot: string;
  viewer: string;
  presenter: string;
  player: string;
  fonts: string;
  extract: string;
  check: string;
  /** The Diagram renderer (mermaid), imported by the player only for decks that draw a <Diagram>. */
  diagram: string;
  /** The Formula renderer (KaTeX), imported by the player only for decks that draw a <Formula>. */
  formula: string;
};

let cached: PlayerAssets | undefined;

export function playerAssets(): PlayerAssets {
  if (cached) return cached;
  const file = path.join(process.cwd(), "public", "player", "manifest.json");
  if (!fs.existsSync(file)) {
    throw new Error(
      `The player has not been built (${file} is missing): run \`npm run build:player\` or \`npm run build\`.`,
    );
  }
  cached = JSON.parse(fs.readFileSync(file, "utf8")) as PlayerAssets;
  return cached;
}
