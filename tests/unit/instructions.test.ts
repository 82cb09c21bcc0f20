import { describe, expect, it } from "vitest";
import { compileDeck } from "@/lib/source/compile";
import { buildAuthoringBrief, exampleDeckOutline, exampleDeckSource } from "@/lib/source/instructions";
import { parseTokensCss } from "@/lib/source/tokens";
import { iconNames } from "@/lib/contract/prop-values";
import { vocabulary } from "@/lib/source/component-specs";
import { defaultTokensCss, themeTokens } from "@/lib/source/theme-tokens";

describe("buildAuthoringBrief", () => {
  const brief = buildAuthoringBrief();

  it("is memoised", () => {
    expect(buildAuthoringBrief()).toBe(brief);
  });

  it("documents every component and every prop", () => {
    for (const component of vocabulary) {
      expect(brief).toContain(`<${component.name}> ${component.doc}`);
      for (const prop of component.props) {
        expect(brief).toContain(`${prop.name}${prop.required ? "" : "?"}: ${prop.type} (${prop.doc})`);
      }
    }
  });

  it("documents every theme token, the icon set and the default theme", () => {
    for (const token of themeTokens) expect(brief).toContain(`${token.name}: ${token.doc}`);
    for (const icon of iconNames) expect(brief).toContain(icon);
    expect(brief).toContain(defaultTokensCss);
  });

  it("states the compiler's rules and limits", () => {
    expect(brief).toContain('Import only from "@deckhand/player"');
    expect(brief).toContain("export default function");
    expect(brief).toContain("No dynamic import(), no require(), no import.meta");
    expect(brief).toContain("1 MB");
    expect(brief).toContain("64 KB");
    expect(brief).toContain("1920x1080");
    expect(brief).toContain("<Beat>");
    expect(brief).toContain('notes="…"');
    expect(brief).toContain(exampleDeckSource);
  });
});

describe("exampleDeckSource", () => {
  it("compiles to the outline the brief promises", async () => {
    const { outline } = await compileDeck({ source: exampleDeckSource, format: "slides" });
    expect(outline).toEqual(exampleDeckOutline);
    expect(outline.length).toBeGreaterThanOrEqual(6);
    expect(outline.length).toBeLessThanOrEqual(10);
  });

  it("uses only components and icons that exist", () => {
    const names = new Set(vocabulary.map((component) => component.name));
    const used = [...exampleDeckSource.matchAll(/<([A-Z]\w*)/g)].map((match) => match[1]);
    for (const name of used) expect(names).toContain(name);
    const icons = [...exampleDeckSource.matchAll(/icon: "([\w-]+)"|name="([\w-]+)"/g)].map(
      (match) => match[1] ?? match[2],
    );
    expect(icons.length).toBeGreaterThan(0);
    for (const icon of icons) expect(iconNames).toContain(icon);
  });

  it("ships a default theme that the tokens parser accepts", () => {
    expect(() => parseTokensCss(defaultTokensCss)).not.toThrow();
  });
});
