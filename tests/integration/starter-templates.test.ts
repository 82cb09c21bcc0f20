// First: it teaches Node to load next-auth (see the helper) before the app's modules import it.
import "../helpers/next-request";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "@/lib/auth/caller";
import { retitleCover } from "@/lib/source/transform/cover-title";
import type { Database } from "@/lib/db/client";
import { decks } from "@/lib/db/schema/decks";
import { listDecks } from "@/lib/decks/list-decks";
import { ensureStarterTemplates } from "@/lib/decks/seed-templates";
import { startFromTemplate } from "@/lib/decks/start-from-template";
import { starterTemplates } from "@/lib/decks/starter-templates/templates";
import { call, createUser, type TestUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";

// The first run: every organization is given the six starter templates once (two first views at once give
// them once; templates deleted afterwards are not given again), organization-wide and owned by its owner;
// "Use template" with a typed title puts that title on the cover.

let database: Database;
let owner: TestUser;
let colleague: TestUser;

beforeAll(async () => {
  database = await setUpTestDatabase();
  const org = `org-${randomUUID()}`;
  owner = await createUser({ org });
  colleague = await createUser({ org });
});

function ctxOf(u: TestUser): Ctx {
  return { db: database.db, caller: { userId: u.userId, organizationId: u.organizationId, apiKeyId: null } };
}

const templatesOf = async (u: TestUser) =>
  (await listDecks(ctxOf(u), { scope: "org", kind: "template", includeArchived: false })).items;

describe("starter templates", () => {
  it("gives an organization the six templates once, to everyone in it, even when two first views race", async () => {
    expect(await templatesOf(colleague)).toEqual([]);
    const results = await Promise.all([ensureStarterTemplates(ctxOf(colleague)), ensureStarterTemplates(ctxOf(owner))]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const templates = await templatesOf(colleague);
    expect(templates.map((t) => t.title)).toEqual([
      "Pitch",
      "Quarterly review",
      "Project update",
      "Product launch",
      "All-hands",
      "Lesson",
    ]);
    for (const template of templates) {
      expect(template).toMatchObject({ kind: "template", visibility: "org", ownerId: owner.userId });
    }
    // Each has designed content: the API reads it as a compiled deck-tsx version with its own theme.
    const pitch = await call("GET", `/decks/${templates[0]!.id}`, { key: colleague.key });
    expect(pitch.status).toBe(200);
    const latest = (pitch.body as { latestVersion: { outline: string[]; tokensCss: string } }).latestVersion;
    expect(latest.outline).toEqual(["Cover", "Problem", "Solution", "Traction", "Customer voice", "Team", "The ask"]);
    expect(latest.tokensCss).toContain("--color-primary: #3730a3");

    // Deleted templates stay deleted: the organization was given them once.
    await database.db.delete(decks).where(eq(decks.id, templates[0]!.id));
    expect(await ensureStarterTemplates(ctxOf(owner))).toBe(false);
    expect(await templatesOf(owner)).toHaveLength(5);
  }, 120_000);

  it("puts the typed title on the cover of a deck started from a template", async () => {
    const [lesson] = (await templatesOf(owner)).filter((t) => t.title === "Lesson");
    const deck = await startFromTemplate(ctxOf(colleague), { fromDeckId: lesson!.id, title: "Forces & motion" });
    const read = await call("GET", `/decks/${deck.id}`, { key: colleague.key });
    const source = (read.body as { latestVersion: { source: string } }).latestVersion.source;
    expect(source).toContain('{"Forces & motion"}');
    expect(source).not.toContain("Speed, distance and time\n");
    // Without a typed title the cover keeps the template's.
    const copy = await startFromTemplate(ctxOf(colleague), { fromDeckId: lesson!.id, title: undefined });
    const copied = await call("GET", `/decks/${copy.id}`, { key: colleague.key });
    expect((copied.body as { latestVersion: { source: string } }).latestVersion.source).toBe(
      starterTemplates.find((t) => t.title === "Lesson")!.source,
    );
  }, 120_000);
});

describe("retitleCover", () => {
  const source = `import { Deck, Slide, Title, Heading } from "@deckhand/player";
export default function D() {
  return (
    <Deck>
      <Slide label="Cover">
        <Heading>Above</Heading>
        <Title subtitle="Sub">
          Old title
        </Title>
      </Slide>
      <Slide label="Two">
        <Title>Second</Title>
      </Slide>
    </Deck>
  );
}
`;
  it("replaces the text of the cover's first Title only, as JSX text or a string expression", () => {
    const plain = retitleCover(source, "slides", "Board meeting, March");
    expect(plain).toBe(source.replace("\n          Old title\n        ", "Board meeting, March"));
    expect(retitleCover(source, "slides", "A <b> {x}")).toContain('<Title subtitle="Sub">{"A <b> {x}"}</Title>');
    const noTitle = source.replace(/<Title subtitle="Sub">[\s\S]*?<\/Title>/, "");
    expect(retitleCover(noTitle, "slides", "New")).toBe(noTitle);
    expect(retitleCover("not tsx <", "slides", "New")).toBe("not tsx <");
  });
});
