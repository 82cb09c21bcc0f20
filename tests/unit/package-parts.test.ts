import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { PackageParts } from "@/lib/exports/package-parts";

// A package as pptxgenjs writes one: JSZip, every part stored, with folder entries.
async function storedPackage(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file("[Content_Types].xml", '<?xml version="1.0"?><Types/>');
  zip.file("ppt/slides/slide1.xml", `<p:sld>${"<a:t>Säule ✓</a:t>".repeat(200)}</p:sld>`);
  zip.file("ppt/media/image-1.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4, 5, 6, 7, 8]));
  zip.file("ppt/embeddings/workbook1.xlsx", Buffer.alloc(64, 7));
  return zip.generateAsync({ type: "nodebuffer", compression: "STORE" });
}

// The compression method of each entry, from the central directory (APPNOTE 4.3.12).
function methods(file: Buffer): Map<string, number> {
  const end = file.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = file.readUInt32LE(end + 16);
  const found = new Map<string, number>();
  for (let entry = 0; entry < file.readUInt16LE(end + 10); entry++) {
    const nameLength = file.readUInt16LE(at + 28);
    const name = file.toString("utf8", at + 46, at + 46 + nameLength);
    found.set(name, file.readUInt16LE(at + 10));
    at += 46 + nameLength + file.readUInt16LE(at + 30) + file.readUInt16LE(at + 32);
  }
  return found;
}

describe("PackageParts", () => {
  it("reads every part of a stored package in order, without its folders, as bytes and as text", async () => {
    const parts = new PackageParts(await storedPackage());
    expect(parts.names()).toEqual([
      "[Content_Types].xml",
      "ppt/slides/slide1.xml",
      "ppt/media/image-1.png",
      "ppt/embeddings/workbook1.xlsx",
    ]);
    expect(parts.text("ppt/slides/slide1.xml")).toContain("<a:t>Säule ✓</a:t>");
    expect([...parts.bytes("ppt/media/image-1.png")].slice(0, 4)).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(parts.has("ppt/")).toBe(false);
    expect(() => parts.text("ppt/slides/slide2.xml")).toThrow("no part ppt/slides/slide2.xml");
  });

  it("writes a file any zip reader opens: parts set, added and removed, XML deflated, pictures stored", async () => {
    const parts = new PackageParts(await storedPackage());
    parts.set("ppt/slides/slide1.xml", "<p:sld><a:t>Edited — ✓</a:t></p:sld>");
    parts.set("ppt/fonts/font1.fntdata", Buffer.alloc(4096, 3));
    parts.remove("ppt/embeddings/workbook1.xlsx");
    const file = parts.write();

    const zip = await JSZip.loadAsync(file, { checkCRC32: true });
    const names = Object.keys(zip.files).filter((name) => !zip.files[name]!.dir);
    expect(names).toEqual([
      "[Content_Types].xml",
      "ppt/slides/slide1.xml",
      "ppt/media/image-1.png",
      "ppt/fonts/font1.fntdata",
    ]);
    expect(await zip.file("ppt/slides/slide1.xml")!.async("string")).toBe("<p:sld><a:t>Edited — ✓</a:t></p:sld>");
    expect(await zip.file("ppt/fonts/font1.fntdata")!.async("nodebuffer")).toEqual(Buffer.alloc(4096, 3));
    expect([...(await zip.file("ppt/media/image-1.png")!.async("uint8array"))]).toEqual([
      0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4, 5, 6, 7, 8,
    ]);
    expect(Object.fromEntries(methods(file))).toEqual({
      "[Content_Types].xml": 8,
      "ppt/slides/slide1.xml": 8,
      "ppt/media/image-1.png": 0,
      "ppt/fonts/font1.fntdata": 8,
    });
    // Read again, the written file gives the same parts.
    expect(new PackageParts(file).text("ppt/slides/slide1.xml")).toBe("<p:sld><a:t>Edited — ✓</a:t></p:sld>");
  });
});
