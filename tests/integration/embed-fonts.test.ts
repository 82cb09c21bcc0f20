import fs from "node:fs";
import path from "node:path";
import JSZip from "jszip";
import { beforeAll, describe, expect, it } from "vitest";
import { decompress } from "wawoff2";
import { shippedFonts } from "@/lib/contract/fonts";
import type { SlideModel, TextRun } from "@/lib/contract/slide-model";
import { buildPptxPackage } from "@/lib/exports/build-pptx";
import { FONT_CONTENT_TYPE, FONT_RELATIONSHIP } from "@/lib/exports/embed-fonts";
import { parseEot, readOpenType, wholeFontSum } from "../helpers/eot";
import { readPptxXml } from "../helpers/pptx-xml";

// The fonts in the PPTX, read back without the code that wrote them: the package parts PowerPoint looks for
// (content type, relationship, <p:embeddedFontLst> in its place in presentation.xml) and each .fntdata part
// parsed as W3C EOT, its font data compared byte for byte with the player's own file.

const ink = { hex: "111111", alpha: 1 };

function run(text: string, font: string, style: Partial<TextRun> = {}): TextRun {
  return {
    text,
    font,
    size: 40,
    bold: false,
    italic: false,
    underline: false,
    strike: false,
    color: ink,
    letterSpacing: 0,
    ...style,
  };
}

function slide(runs: TextRun[]): SlideModel {
  return {
    background: null,
    items: runs.map((r, i) => ({
      kind: "text" as const,
      rect: { x: 100, y: 100 + 80 * i, w: 1200, h: 60 },
      runs: [r],
      align: "left" as const,
      lineHeight: 48,
      singleLine: false,
    })),
  };
}

async function shipped(file: string): Promise<Buffer> {
  return Buffer.from(await decompress(fs.readFileSync(path.join("public/player/fonts", file))));
}

let zip: JSZip;
let embedded: string[];

beforeAll(async () => {
  const result = await buildPptxPackage({
    title: "Fonts",
    slides: [
      slide([
        run("Regular", "Inter"),
        run("Bold", "Inter", { bold: true }),
        run("Italic", "Inter", { italic: true }),
        run("Serif bold only", "Source Serif 4", { bold: true }),
        run("No bold face shipped", "DM Serif Display", { bold: true }),
      ]),
      slide([run("Office font", "Arial"), run("Not shipped", "Comic Neue"), run("Mono", "JetBrains Mono")]),
    ],
    notes: ["", ""],
    rasters: new Map(),
  });
  embedded = result.embedded;
  zip = await JSZip.loadAsync(result.data);
});

describe("fonts embedded in the PPTX", () => {
  it("embeds the shipped families the slides use, and no others", () => {
    expect(embedded).toEqual(["DM Serif Display", "Inter", "JetBrains Mono", "Source Serif 4"]);
  });

  it("registers .fntdata parts as PowerPoint does: content type, relationship, list after notesSz", async () => {
    const parts = await readPptxXml(await zip.generateAsync({ type: "nodebuffer" }));
    const types = parts.get("[Content_Types].xml")!;
    const defaults = Array.from(types.getElementsByTagName("Default")).map((node) => [
      node.getAttribute("Extension"),
      node.getAttribute("ContentType"),
    ]);
    expect(defaults).toContainEqual(["fntdata", FONT_CONTENT_TYPE]);

    const rels = Array.from(parts.get("ppt/_rels/presentation.xml.rels")!.getElementsByTagName("Relationship"));
    const fontRels = new Map(
      rels
        .filter((node) => node.getAttribute("Type") === FONT_RELATIONSHIP)
        .map((node) => [node.getAttribute("Id")!, node.getAttribute("Target")!]),
    );
    expect(new Set(rels.map((node) => node.getAttribute("Id"))).size).toBe(rels.length);

    const presentation = parts.get("ppt/presentation.xml")!.documentElement!;
    expect(presentation.getAttribute("embedTrueTypeFonts")).toBe("1");
    expect(presentation.getAttribute("saveSubsetFonts")).toBeNull();
    const children = Array.from(presentation.childNodes)
      .filter((node) => node.nodeType === 1)
      .map((node) => (node as unknown as { localName: string }).localName);
    const list = children.indexOf("embeddedFontLst");
    expect(children[list - 1]).toBe("notesSz");
    if (children.includes("defaultTextStyle")) expect(children.indexOf("defaultTextStyle")).toBeGreaterThan(list);

    const entries = Array.from(presentation.getElementsByTagName("p:embeddedFont")).map((entry) => {
      const elements = Array.from(entry.childNodes).filter((node) => node.nodeType === 1) as unknown as Element[];
      return {
        typeface: elements[0]!.getAttribute("typeface"),
        pitchFamily: elements[0]!.getAttribute("pitchFamily"),
        slots: elements.slice(1).map((element) => [element.localName, fontRels.get(element.getAttribute("r:id")!)]),
      };
    });
    expect(entries.map((entry) => [entry.typeface, entry.slots.map(([slot]) => slot)])).toEqual([
      ["DM Serif Display", ["regular"]],
      ["Inter", ["regular", "bold", "italic"]],
      ["JetBrains Mono", ["regular"]],
      ["Source Serif 4", ["bold"]],
    ]);
    expect(entries.find((entry) => entry.typeface === "JetBrains Mono")!.pitchFamily).toBe("49");
    const targets = entries.flatMap((entry) => entry.slots.map(([, target]) => target));
    expect(targets.every((target) => /^fonts\/font\d+\.fntdata$/.test(target!))).toBe(true);
    expect(new Set(targets).size).toBe(targets.length);
    for (const target of targets) expect(zip.file(`ppt/${target}`), target).not.toBeNull();
    expect(Object.keys(zip.files).filter((name) => name.startsWith("ppt/fonts/"))).toHaveLength(targets.length);
  });

  it("stores each face as uncompressed EOT 2.2 around the player's own TrueType data", async () => {
    const presentation = await zip.file("ppt/presentation.xml")!.async("string");
    const rels = await zip.file("ppt/_rels/presentation.xml.rels")!.async("string");
    const target = (typeface: string, slot: string) => {
      const entry = new RegExp(`typeface="${typeface}"[^]*?</p:embeddedFont>`).exec(presentation)![0];
      const id = new RegExp(`<p:${slot} r:id="([^"]+)"`).exec(entry)![1];
      return `ppt/${new RegExp(`Id="${id}"[^>]*Target="([^"]+)"|Target="([^"]+)"[^>]*Id="${id}"`).exec(rels)!.slice(1).find(Boolean)}`;
    };
    const cases = [
      ["Inter", "regular", "inter-latin-400-normal.woff2", 400, 0, "Regular"],
      ["Inter", "bold", "inter-latin-700-normal.woff2", 700, 0, "Bold"],
      ["Inter", "italic", "inter-latin-400-italic.woff2", 400, 1, "Italic"],
      ["Source Serif 4", "bold", "source-serif-4-latin-700-normal.woff2", 700, 0, "Bold"],
    ] as const;
    for (const [typeface, slot, file, weight, italic, style] of cases) {
      const eot = await zip.file(target(typeface, slot))!.async("nodebuffer");
      const header = parseEot(eot);
      expect(header).toMatchObject({
        eotSize: eot.length,
        version: 0x00020002,
        flags: 0,
        magic: 0x504c,
        fsType: 0,
        weight,
        italic,
        familyName: typeface,
        styleName: style,
        rootCheckSum: 0x50475342,
      });
      expect(header.fullName).toContain(typeface);
      expect(header.fontDataSize).toBe(header.fontData.length);
      expect(header.fontData.equals(await shipped(file)), `${typeface} ${slot}`).toBe(true);
    }
  });

  it("embeds every shipped family, each face named as the slides name it, its outlines unchanged", async () => {
    const result = await buildPptxPackage({
      title: "Every family",
      slides: shippedFonts.map((font) =>
        slide([
          run("Regular", font.family),
          ...(font.weights.includes(700) ? [run("Bold", font.family, { bold: true })] : []),
          ...(font.italic ? [run("Italic", font.family, { italic: true })] : []),
        ]),
      ),
      notes: shippedFonts.map(() => ""),
      rasters: new Map(),
    });
    expect(result.embedded).toEqual(shippedFonts.map((font) => font.family).sort((a, b) => a.localeCompare(b)));

    const every = await JSZip.loadAsync(result.data);
    const faces = Object.keys(every.files).filter((name) => name.startsWith("ppt/fonts/"));
    const styles = new Set<string>();
    for (const name of faces) {
      const eot = parseEot(await every.file(name)!.async("nodebuffer"));
      const font = shippedFonts.find((shipped) => shipped.family === eot.familyName)!;
      expect(font, eot.familyName).toBeDefined();
      const { tables, names } = readOpenType(eot.fontData);
      // The family PowerPoint and LibreOffice match on is the typeface the runs name (not "Montserrat Thin").
      expect(names.get(1), name).toBe(font.family);
      expect(names.get(16) ?? names.get(1), name).toBe(font.family);
      expect(names.get(2)).toBe(eot.styleName);
      expect(names.get(0), "the copyright notice is kept").toBeTruthy();
      expect(wholeFontSum(eot.fontData), name).toBe(0xb1b0afba);
      // The glyphs are the player's own: same outlines as the shipped file of that weight and style.
      const slug = font.package.slice(font.package.indexOf("/") + 1);
      const file = `${slug}-latin-${eot.weight}-${eot.italic ? "italic" : "normal"}.woff2`;
      const original = readOpenType(await shipped(file));
      expect(tables.get("glyf")!.equals(original.tables.get("glyf")!), file).toBe(true);
      styles.add(`${font.family} ${eot.styleName}`);
    }
    expect(styles.size).toBe(faces.length);
  });

  it("embeds nothing in a file without shipped fonts", async () => {
    const plain = await buildPptxPackage({
      title: "Office only",
      slides: [slide([run("Arial only", "Arial")])],
      notes: [""],
      rasters: new Map(),
    });
    expect(plain.embedded).toEqual([]);
    const files = Object.keys((await JSZip.loadAsync(plain.data)).files);
    expect(files.filter((name) => name.startsWith("ppt/fonts/"))).toEqual([]);
  });
});
