import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { compileDeck } from "@/lib/source/compile";

// The README's walk-through must keep working as the vocabulary evolves.
describe("README", () => {
  it("shows a set_deck_content body whose module compiles", async () => {
    const readme = fs.readFileSync("README.md", "utf8");
    const body = /<<'JSON'\n([\s\S]*?)\nJSON\n/.exec(readme)?.[1];
    expect(body).toBeDefined();
    const { source } = JSON.parse(body!) as { source: string };
    const { outline } = await compileDeck({ source, format: "slides" });
    expect(outline).toEqual(["Title", "Goals"]);
  });

  it("names the two commands", () => {
    const readme = fs.readFileSync("README.md", "utf8");
    expect(readme).toContain("npm install && npm start");
    expect(readme).toContain("npm test");
  });
});
