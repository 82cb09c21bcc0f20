import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { platformVariables, settings } from "@/lib/core/config";

// The deploy sections (docs/deployment.md) stay true: every variable they name is one lib/core/config.ts reads, the
// variables a Vercel deployment needs are named, and each route the section gives a duration declares it.

const readme = fs.readFileSync("docs/deployment.md", "utf8");
const section = (title: string) => {
  const start = readme.indexOf(`## ${title}\n`);
  expect(start, `docs/deployment.md has no "## ${title}" section`).toBeGreaterThanOrEqual(0);
  return readme.slice(start, readme.indexOf("\n## ", start + 1));
};
const sourceFiles = (roots: string[]): string[] =>
  roots.flatMap((root) =>
    fs
      .readdirSync(root, { recursive: true, encoding: "utf8" })
      .filter((file) => /\.(ts|tsx|mjs)$/.test(file))
      .map((file) => path.join(root, file)),
  );
const variablesIn = (text: string) => new Set([...text.matchAll(/`([A-Z][A-Z0-9_]{2,})`/g)].map((match) => match[1]!));

describe("the deploy documentation", () => {
  const known = new Set([...Object.keys(settings), ...Object.keys(platformVariables)]);

  it("names only variables the code reads, and every one Vercel needs", () => {
    for (const title of ["Deploy to Vercel", "Run many instances without Vercel"]) {
      const named = variablesIn(section(title));
      expect(
        [...named].filter((name) => !known.has(name)),
        title,
      ).toEqual([]);
    }
    const vercel = variablesIn(section("Deploy to Vercel"));
    for (const name of [
      "DATABASE_URL",
      "BLOB_READ_WRITE_TOKEN",
      "INNGEST_EVENT_KEY",
      "INNGEST_SIGNING_KEY",
      "AUTH_SECRET",
      "APP_URL",
      "OPENAI_API_KEY",
      "AI_TIMEOUT_MS",
      "EXPORT_TIMEOUT_MS",
    ]) {
      expect(vercel.has(name), name).toBe(true);
    }
  });

  // The Configuration table lists every setting (tests/unit/config.test.ts); the platform's own are here.
  it("names the platform's variables, and nothing outside lib/core/config.ts reads the environment", () => {
    const vercel = variablesIn(section("Deploy to Vercel"));
    expect(Object.keys(platformVariables).filter((name) => !vercel.has(name))).toEqual([]);
    // Anything else reading process.env would be a setting the table cannot know about.
    const readers = sourceFiles(["app", "lib", "components"]).filter(
      (file) => file !== path.join("lib", "core", "config.ts") && /process\.env\b/.test(fs.readFileSync(file, "utf8")),
    );
    expect(readers).toEqual([]);
  });

  it("gives the durations the long routes declare", () => {
    const durations: Record<string, number> = {
      "app/api/v1/decks/[id]/generate/route.ts": 300,
      "app/api/v1/decks/[id]/edit/route.ts": 300,
      "app/api/v1/mcp/route.ts": 300,
      "app/api/v1/brands/route.ts": 120,
      "app/api/v1/decks/[id]/check/route.ts": 60,
      "app/api/v1/decks/import/route.ts": 60,
      "app/api/inngest/route.ts": 300,
      "app/d/[slug]/og.png/route.ts": 60,
      // Pages whose server actions do the same slow work (an action runs in its page's function).
      "app/(app)/decks/[id]/page.tsx": 300,
      "app/(app)/brands/page.tsx": 120,
      "app/(app)/decks/page.tsx": 300,
    };
    const text = section("Deploy to Vercel").replace(/\s+/g, " ");
    for (const [file, seconds] of Object.entries(durations)) {
      expect(fs.readFileSync(file, "utf8"), file).toMatch(new RegExp(`export const maxDuration = ${seconds};`));
    }
    for (const phrase of [
      "edit 300",
      "MCP 300",
      "brands 120",
      "import 60",
      "`/api/inngest` 300",
      "preview image 60",
      "the editor 300",
      "the brands page 120",
      "the library 300",
    ]) {
      expect(text).toContain(phrase);
    }
  });
});
