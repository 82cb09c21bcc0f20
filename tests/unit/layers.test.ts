import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { layers, mayImportFile, unitOf } from "../../scripts/lint/layers.mjs";
import { importEdges, ROOT, unitCycles } from "../helpers/import-graph";

// The layers of scripts/lint/layers.mjs hold for the whole source, the folders of lib/ form no cycle, and
// the lint rule that enforces them fails on an upward import, on a sideways one against the ranks, and on
// an import between app/ and components/app other than a page rendering components.
describe("layers", () => {
  const edges = importEdges().filter((edge) => edge.local);

  it("every folder of the product belongs to a layer", () => {
    const unplaced = new Set(
      edges.map((edge) => unitOf(edge.from)).filter((unit) => !layers.some((layer) => layer.units.includes(unit))),
    );
    expect([...unplaced]).toEqual([]);
  });

  it("no import goes up the layers", () => {
    const upward = edges
      .filter((edge) => !mayImportFile(edge.from, edge.to))
      .map((edge) => `${edge.from} → ${edge.to}`);
    expect(upward).toEqual([]);
  });

  it("the folders of lib/ import each other without a cycle", () => {
    const inLib = edges.filter((edge) => edge.from.startsWith("lib/") && edge.to.startsWith("lib/"));
    expect(inLib.length).toBeGreaterThan(300);
    expect(unitCycles(inLib)).toEqual([]);
  });

  it("nothing under lib/ knows Next.js", () => {
    const next = importEdges()
      .filter((edge) => edge.from.startsWith("lib/") && /^(next|next-auth)(\/|$)/.test(edge.to))
      .map((edge) => `${edge.from} → ${edge.to}`);
    expect(next).toEqual([]);
  });

  it("the lint fails on an upward import and on a player importing server code", async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const lint = async (filePath: string, code: string) =>
      (await eslint.lintText(code, { filePath })).flatMap((result) => result.messages.map((m) => m.ruleId));
    expect(await lint("lib/source/upward.ts", 'export { route } from "@/lib/api/route";\n')).toContain(
      "deckhand/layers",
    );
    expect(
      await lint("lib/db/upward.ts", 'import type { Ctx } from "../auth/caller";\nexport type X = Ctx;\n'),
    ).toContain("deckhand/layers");
    expect(await lint("components/player/server.ts", 'export { getDb } from "@/lib/db/client";\n')).toContain(
      "deckhand/layers",
    );
    expect(await lint("lib/decks/fine.ts", 'export { AppError } from "@/lib/core/errors";\n')).not.toContain(
      "deckhand/layers",
    );
  });

  it("the lint fails on a sideways import against the ranks of a layer", async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const messages = async (filePath: string, code: string) =>
      (await eslint.lintText(code, { filePath })).flatMap((result) =>
        result.messages.filter((m) => m.ruleId === "deckhand/layers").map((m) => m.messageId),
      );
    // lib/decks is ranked above lib/viewer: decks may use the viewer, the viewer not decks.
    expect(await messages("lib/viewer/sideways.ts", 'export { getDeck } from "@/lib/decks/get-deck";\n')).toEqual([
      "sideways",
    ]);
    expect(
      await messages("lib/decks/down.ts", 'export { mintPreviewToken } from "@/lib/viewer/preview-token";\n'),
    ).toEqual([]);
    // Folders of one rank do not use each other: brands and the viewer, the exports and the model.
    expect(await messages("lib/brands/sideways.ts", 'export { serve } from "@/lib/viewer/serve";\n')).toEqual([
      "sideways",
    ]);
    expect(
      await messages("lib/ai/sideways.ts", 'import type { Lease } from "../exports/lease";\nexport type X = Lease;\n'),
    ).toEqual(["sideways"]);
    // The services use none of each other; the MCP server is ranked above the API, not below.
    expect(await messages("lib/jobs/sideways.ts", 'export { safeFetch } from "@/lib/net/safe-fetch";\n')).toEqual([
      "sideways",
    ]);
    expect(await messages("lib/api/sideways.ts", 'export { createMcpServer } from "@/lib/mcp/server";\n')).toEqual([
      "sideways",
    ]);
  });

  it("the lint fails on an import between app/ and components/app other than a page rendering components", async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const messages = async (filePath: string, code: string) =>
      (await eslint.lintText(code, { filePath })).flatMap((result) =>
        result.messages.filter((m) => m.ruleId === "deckhand/layers").map((m) => m.messageId),
      );
    // A client component calls server actions from server/actions/, never from a route folder.
    expect(
      await messages(
        "components/app/editor/stray.tsx",
        'import { saveVersionAction } from "@/app/(app)/decks/[id]/actions";\nexport const save = saveVersionAction;\n',
      ),
    ).toEqual(["intoApp"]);
    expect(
      await messages(
        "components/app/stray.tsx",
        'import type { FormAction } from "@/app/_server/action";\nexport type F = FormAction;\n',
      ),
    ).toEqual(["intoApp"]);
    expect(
      await messages(
        "components/app/editor/fine.tsx",
        'import { saveVersionAction } from "@/server/actions/editor";\nexport const save = saveVersionAction;\n',
      ),
    ).toEqual([]);
    // In app/, a page or a layout renders components; a route handler or a route's other file does not.
    expect(
      await messages("app/(app)/decks/[id]/page.tsx", 'export { Editor } from "@/components/app/editor/editor";\n'),
    ).toEqual([]);
    expect(
      await messages("app/(app)/decks/[id]/helpers.ts", 'export { Editor } from "@/components/app/editor/editor";\n'),
    ).toEqual(["componentsOutsidePage"]);
    expect(await messages("app/d/[slug]/route.ts", 'export { Button } from "@/components/ui";\n')).toEqual([
      "componentsOutsidePage",
    ]);
    // The server actions' folder sits below the app: it imports no component.
    expect(await messages("server/actions/stray.ts", 'export { Button } from "@/components/ui";\n')).toEqual([
      "upward",
    ]);
  });
});
