import fs from "node:fs/promises";
import path from "node:path";
import { DOMParser, type Element, XMLSerializer } from "@xmldom/xmldom";
import { decompress } from "wawoff2";
import { findShippedFont, type ShippedFont } from "@/lib/contract/fonts";
import type { PackageParts } from "./package-parts";

// The deck's shipped fonts embedded in a PPTX the way PowerPoint embeds fonts (ECMA-376 Part 1 §15.2.13 and
// §19.2.1.9-10, [MS-OI29500] 2.1.32 and 2.1.1100):
// - each face is a part ppt/fonts/fontN.fntdata of content type application/x-fontdata (a Default for the
//   extension), the target of a …/relationships/font relationship from the presentation;
// - <p:embeddedFontLst> in presentation.xml, right after <p:notesSz>: one <p:embeddedFont> per typeface the
//   slides use, <p:font typeface=…> then the regular, bold, italic and boldItalic faces the slides use, in that
//   order; the presentation says embedTrueTypeFonts="1" (LibreOffice only imports the list then);
// - a part holds the face as Embedded OpenType (W3C EOT 2.2, version 0x00020002) without MicroType Express
//   compression or XOR (flags 0, TTEMBED_RAW, the t2embed default), the TrueType data unchanged: the layout
//   LibreOffice (≥ 25.8, through libeot) reads and other producers (Canva, LibreOffice's own export) write.
//   PowerPoint itself writes MTX-compressed EOT; EOT's header and flags say which.
// The faces are the player's own files (the latin subset the viewer draws with, decompressed from WOFF2), so
// PowerPoint draws the same glyphs as the browser. Their licence (SIL OFL 1.1, all 21 families) allows
// embedding; each file's OS/2 fsType is checked too (installable or editable only).

export const FONT_CONTENT_TYPE = "application/x-fontdata";
export const FONT_RELATIONSHIP = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/font";
const P_NS = "http://schemas.openxmlformats.org/presentationml/2006/main";
const R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships";
const CT_NS = "http://schemas.openxmlformats.org/package/2006/content-types";

const slots = ["regular", "bold", "italic", "boldItalic"] as const;
type Slot = (typeof slots)[number];

// <p:presentation>'s children that come after embeddedFontLst (pml.xsd CT_Presentation).
const after = new Set([
  "custShowLst",
  "photoAlbum",
  "custDataLst",
  "kinsoku",
  "defaultTextStyle",
  "modifyVerifier",
  "extLst",
]);

// GDI's lfPitchAndFamily, which PowerPoint uses to pick a substitute when a font is missing.
const pitchFamily: Record<ShippedFont["category"], number> = { sans: 0x22, serif: 0x12, display: 0x12, mono: 0x31 };

const fontsDir = () => path.join(process.cwd(), "public", "player", "fonts");

/** The player's file of a face (latin subset), or null when the family does not ship it. */
function faceFile(font: ShippedFont, slot: Slot): string | null {
  const slug = font.package.slice(font.package.indexOf("/") + 1);
  if (slot === "regular") return `${slug}-latin-400-normal.woff2`;
  if (slot === "bold") return font.weights.includes(700) ? `${slug}-latin-700-normal.woff2` : null;
  if (slot === "italic") return font.italic ? `${slug}-latin-400-italic.woff2` : null;
  return null; // No bold italic face is shipped: PowerPoint draws it from the regular face, as the browser does.
}

type Sfnt = { data: Buffer; tables: Map<string, { offset: number; length: number }> };

function readSfnt(data: Buffer): Sfnt {
  if (data.length < 12) throw new Error("not an OpenType font");
  const tables = new Map<string, { offset: number; length: number }>();
  const count = data.readUInt16BE(4);
  for (let i = 0; i < count; i++) {
    const record = 12 + 16 * i;
    if (record + 16 > data.length) throw new Error("truncated table directory");
    const offset = data.readUInt32BE(record + 8);
    const length = data.readUInt32BE(record + 12);
    if (offset + length > data.length) throw new Error("table past the end of the font");
    tables.set(data.toString("latin1", record, record + 4), { offset, length });
  }
  return { data, tables };
}

/** The font's English (Windows, en-US) name of an id: 1 family, 2 style, 4 full name, 5 version. */
function fontName(font: Sfnt, id: number): string | null {
  const table = font.tables.get("name");
  if (!table) return null;
  const { data } = font;
  const count = data.readUInt16BE(table.offset + 2);
  const strings = table.offset + data.readUInt16BE(table.offset + 4);
  for (let i = 0; i < count; i++) {
    const record = table.offset + 6 + 12 * i;
    const [platform, , language, nameId, length, offset] = [0, 2, 4, 6, 8, 10].map((at) =>
      data.readUInt16BE(record + at),
    );
    if (platform === 3 && language === 0x409 && nameId === id) {
      return Buffer.from(data.subarray(strings + offset!, strings + offset! + length!))
        .swap16()
        .toString("utf16le");
    }
  }
  return null;
}

/** Why a face cannot be embedded as a TrueType EOT, or null when it can. */
function unembeddable(font: Sfnt, typeface: string): string | null {
  if (font.data.readUInt32BE(0) !== 0x00010000 || !font.tables.has("glyf")) return "not a TrueType-outline font";
  if (font.tables.has("fvar")) return "a variable font";
  const os2 = font.tables.get("OS/2");
  if (!os2 || os2.length < 86) return "no OS/2 table";
  const fsType = font.data.readUInt16BE(os2.offset + 8);
  // Installable (0) or Editable (bit 3); Restricted, Preview & Print and bitmap-only fonts are not embedded.
  if (fsType & 0x0200 || ((fsType & 0x000f) !== 0 && !(fsType & 0x0008)))
    return `embedding not permitted (fsType ${fsType})`;
  const family = typographicFamily(font);
  const lower = typeface.toLowerCase();
  if (family?.toLowerCase() !== lower && !family?.toLowerCase().startsWith(`${lower} `))
    return `its family is ${family}`;
  return null;
}

// The family a face belongs to: its typographic family name (name ID 16), else its family name (ID 1).
function typographicFamily(font: Sfnt): string | null {
  return fontName(font, 16) ?? fontName(font, 1);
}

const styleNames: Record<Slot, string> = {
  regular: "Regular",
  bold: "Bold",
  italic: "Italic",
  boldItalic: "Bold Italic",
};

/**
 * The face named as the slides name it. Several shipped families are static instances cut from a variable
 * font that kept the names of its default instance ("Montserrat Thin", "DM Sans 9pt" for the 400 face;
 * weights and style bits are right): PowerPoint and LibreOffice match an embedded face by its own name
 * table, so those would never stand in for "Montserrat". Such a face gets a name table of the family
 * (IDs 1, 2, 4, 6 and 16, 17 in the Windows English records; copyright, version, licence and its URL
 * kept) and the font is written again with its checksums; a face already named right is used as it is.
 */
function namedAs(font: Sfnt, typeface: string, slot: Slot): Sfnt {
  if (fontName(font, 1) === typeface && (fontName(font, 16) ?? typeface) === typeface) return font;
  const style = styleNames[slot];
  const names = new Map<number, string>([
    [1, typeface],
    [2, style],
    [4, slot === "regular" ? typeface : `${typeface} ${style}`],
    [6, `${typeface.replace(/[^A-Za-z0-9]/g, "")}-${style.replace(" ", "")}`],
    [16, typeface],
    [17, style],
  ]);
  for (const kept of [0, 5, 13, 14]) {
    const value = fontName(font, kept);
    if (value !== null) names.set(kept, value);
  }
  const ids = [...names.keys()].sort((a, b) => a - b);
  const strings = ids.map((id) => Buffer.from(names.get(id)!, "utf16le").swap16());
  const table = Buffer.alloc(6 + 12 * ids.length);
  table.writeUInt16BE(0, 0); // format 0
  table.writeUInt16BE(ids.length, 2);
  table.writeUInt16BE(table.length, 4); // storage right after the records
  let offset = 0;
  ids.forEach((id, index) => {
    const record = 6 + 12 * index;
    [3, 1, 0x409, id, strings[index]!.length, offset].forEach((value, at) =>
      table.writeUInt16BE(value, record + 2 * at),
    );
    offset += strings[index]!.length;
  });
  return writeSfnt(font, new Map([["name", Buffer.concat([table, ...strings])]]));
}

function checksum(data: Buffer): number {
  let sum = 0;
  for (let at = 0; at < data.length; at += 4) {
    const word = Buffer.alloc(4);
    data.copy(word, 0, at, Math.min(at + 4, data.length));
    sum = (sum + word.readUInt32BE(0)) >>> 0;
  }
  return sum;
}

/** The font written again with some tables replaced: tables 4-byte aligned, checksums and head's adjustment new. */
function writeSfnt(font: Sfnt, replaced: Map<string, Buffer>): Sfnt {
  const tags = [...font.tables.keys()].sort();
  const bodies = tags.map((tag) => {
    const table = font.tables.get(tag)!;
    return Buffer.from(replaced.get(tag) ?? font.data.subarray(table.offset, table.offset + table.length));
  });
  const head = tags.indexOf("head");
  if (head >= 0) bodies[head]!.writeUInt32BE(0, 8); // checkSumAdjustment is 0 while the sums are taken
  const directory = Buffer.alloc(12 + 16 * tags.length);
  directory.writeUInt32BE(font.data.readUInt32BE(0), 0);
  directory.writeUInt16BE(tags.length, 4);
  const power = 2 ** Math.floor(Math.log2(tags.length));
  directory.writeUInt16BE(power * 16, 6);
  directory.writeUInt16BE(Math.log2(power), 8);
  directory.writeUInt16BE(tags.length * 16 - power * 16, 10);
  const padded: Buffer[] = [];
  let offset = directory.length;
  tags.forEach((tag, index) => {
    const body = bodies[index]!;
    const record = 12 + 16 * index;
    directory.write(tag, record, 4, "latin1");
    directory.writeUInt32BE(checksum(body), record + 4);
    directory.writeUInt32BE(offset, record + 8);
    directory.writeUInt32BE(body.length, record + 12);
    const aligned = Buffer.alloc(Math.ceil(body.length / 4) * 4);
    body.copy(aligned);
    padded.push(aligned);
    offset += aligned.length;
  });
  const data = Buffer.concat([directory, ...padded]);
  if (head >= 0) {
    const at = directory.readUInt32BE(12 + 16 * head + 8);
    data.writeUInt32BE((0xb1b0afba - checksum(data)) >>> 0, at + 8);
  }
  return readSfnt(data);
}

/** W3C Embedded OpenType 2.2 (version 0x00020002), uncompressed and unobfuscated, FamilyName = typeface. */
function toEot(font: Sfnt, typeface: string): Buffer {
  const { data } = font;
  const os2 = font.tables.get("OS/2")!.offset;
  const head = font.tables.get("head")!.offset;
  const names = [typeface, fontName(font, 2) ?? "", fontName(font, 5) ?? "", fontName(font, 4) ?? typeface].map((n) =>
    Buffer.from(n, "utf16le"),
  );
  const fixed = Buffer.alloc(82);
  fixed.writeUInt32LE(0x00020002, 8); // Version
  fixed.writeUInt32LE(0, 12); // Flags: no subsetting, compression or XOR
  data.copy(fixed, 16, os2 + 32, os2 + 42); // FontPANOSE
  fixed.writeUInt8(1, 26); // Charset: DEFAULT_CHARSET
  fixed.writeUInt8(data.readUInt16BE(os2 + 62) & 1 ? 1 : 0, 27); // Italic: fsSelection bit 0
  fixed.writeUInt32LE(data.readUInt16BE(os2 + 4), 28); // Weight
  fixed.writeUInt16LE(data.readUInt16BE(os2 + 8), 32); // fsType, unchanged
  fixed.writeUInt16LE(0x504c, 34); // MagicNumber
  for (let i = 0; i < 4; i++) fixed.writeUInt32LE(data.readUInt32BE(os2 + 42 + 4 * i), 36 + 4 * i); // UnicodeRange1-4
  const version = data.readUInt16BE(os2);
  fixed.writeUInt32LE(version >= 1 ? data.readUInt32BE(os2 + 78) : 1, 52); // CodePageRange1
  fixed.writeUInt32LE(version >= 1 ? data.readUInt32BE(os2 + 82) : 0, 56); // CodePageRange2
  fixed.writeUInt32LE(data.readUInt32BE(head + 8), 60); // CheckSumAdjustment
  // Reserved1-4 and Padding1 stay 0.
  const parts: Buffer[] = [fixed];
  names.forEach((name, index) => {
    const size = Buffer.alloc(2);
    size.writeUInt16LE(name.length);
    parts.push(...(index > 0 ? [Buffer.alloc(2)] : []), size, name); // PaddingN, NameSize, Name
  });
  const tail = Buffer.alloc(2 + 2 + 4 + 4 + 2 + 2 + 4 + 4);
  // Padding5, RootStringSize 0, RootStringCheckSum (0 XOR 0x50475342), EUDCCodePage 0, Padding6,
  // SignatureSize 0, EUDCFlags 0, EUDCFontSize 0.
  tail.writeUInt32LE(0x50475342, 4);
  parts.push(tail, data);
  const eot = Buffer.concat(parts);
  eot.writeUInt32LE(eot.length, 0); // EOTSize
  eot.writeUInt32LE(data.length, 4); // FontDataSize
  return eot;
}

const sfntCache = new Map<string, Promise<Sfnt | null>>();

/** A face of the player's fonts as TrueType, or null when the file is not there (player not built). */
function loadFace(file: string): Promise<Sfnt | null> {
  let face = sfntCache.get(file);
  if (!face) {
    face = fs
      .readFile(path.join(fontsDir(), file))
      .then(async (woff2) => readSfnt(Buffer.from(await decompress(woff2))))
      .catch(() => null);
    sfntCache.set(file, face);
  }
  return face;
}

// A run's properties (<a:rPr>, and <a:defRPr>/<a:endParaRPr> of paragraphs and charts) with their attributes
// and, unless self-closing, their children. The parts are the builder's own well-formed output; a regular
// expression reads them in a fraction of a DOM parse, and only names of shipped families are acted on.
const runProperties = /<a:(rPr|defRPr|endParaRPr)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/a:\1>)/g;
const typefaceOf = /<a:latin\b[^>]*?\btypeface="([^"]*)"/;
const flag = (attributes: string, name: string) => new RegExp(`\\s${name}="(1|true)"`).test(attributes);

/** Typefaces named by the slides' runs and the styles they are used in. */
function usedFaces(parts: PackageParts): Map<string, Set<Slot>> {
  const used = new Map<string, Set<Slot>>();
  const names = parts
    .names()
    .filter((name) => /^ppt\/(slides|charts|slideLayouts|slideMasters|notesSlides)\/[^/]+\.xml$/.test(name));
  for (const name of names) {
    for (const [, , attributes = "", children = ""] of parts.text(name).matchAll(runProperties)) {
      const typeface = typefaceOf.exec(children)?.[1];
      if (!typeface || typeface.startsWith("+")) continue; // +mj-lt, +mn-lt: the theme's fonts
      const bold = flag(attributes, "b");
      const italic = flag(attributes, "i");
      const slot: Slot = bold && italic ? "boldItalic" : bold ? "bold" : italic ? "italic" : "regular";
      if (!used.has(typeface)) used.set(typeface, new Set());
      used.get(typeface)!.add(slot);
    }
  }
  return used;
}

export type EmbeddedFonts = { data: Buffer; embedded: string[] };

/**
 * Embeds the shipped fonts the slides use (the faces of the styles they use; a style the family does not ship
 * is drawn from its regular face) into an opened package (build-pptx.ts, in its one pass) and returns the
 * families it embedded. Fonts that are not shipped, or whose files are missing or refuse embedding, are left
 * out: the caller reports them.
 */
export async function embedShippedFonts(parts: PackageParts): Promise<string[]> {
  const chosen: { typeface: string; font: ShippedFont; faces: { slot: Slot; face: Sfnt }[] }[] = [];
  for (const [typeface, styles] of [...usedFaces(parts)].sort(([a], [b]) => a.localeCompare(b))) {
    const font = findShippedFont(typeface);
    if (!font) continue;
    const faces: { slot: Slot; face: Sfnt }[] = [];
    const wanted = new Set<Slot>();
    for (const slot of styles) wanted.add(faceFile(font, slot) ? slot : "regular");
    for (const slot of slots) {
      if (!wanted.has(slot)) continue;
      const face = await loadFace(faceFile(font, slot)!);
      if (face && !unembeddable(face, typeface)) faces.push({ slot, face: namedAs(face, typeface, slot) });
    }
    // Without its regular face a family is embedded only when no run needs the regular face.
    if (faces.length > 0 && (!wanted.has("regular") || faces[0]!.slot === "regular")) {
      chosen.push({ typeface, font, faces });
    }
  }
  if (chosen.length === 0) return [];

  const parse = (name: string) => new DOMParser().parseFromString(parts.text(name), "text/xml");
  const serialize = (document: ReturnType<DOMParser["parseFromString"]>) =>
    new XMLSerializer().serializeToString(document);

  const types = parse("[Content_Types].xml");
  const hasDefault = Array.from(types.getElementsByTagNameNS(CT_NS, "Default")).some(
    (node) => node.getAttribute("Extension")?.toLowerCase() === "fntdata",
  );
  if (!hasDefault) {
    const entry = types.createElementNS(CT_NS, "Default");
    entry.setAttribute("Extension", "fntdata");
    entry.setAttribute("ContentType", FONT_CONTENT_TYPE);
    types.documentElement!.insertBefore(entry, types.documentElement!.firstChild);
  }

  const relsName = "ppt/_rels/presentation.xml.rels";
  const rels = parse(relsName);
  let nextId = Math.max(
    0,
    ...Array.from(rels.getElementsByTagNameNS(REL_NS, "Relationship")).map(
      (node) => Number(/^rId(\d+)$/.exec(node.getAttribute("Id") ?? "")?.[1] ?? 0) || 0,
    ),
  );
  let nextPart = 1;
  const presentation = parse("ppt/presentation.xml");
  const root = presentation.documentElement!;
  const list = presentation.createElementNS(P_NS, "p:embeddedFontLst");
  for (const { typeface, font, faces } of chosen) {
    const entry = presentation.createElementNS(P_NS, "p:embeddedFont");
    const description = presentation.createElementNS(P_NS, "p:font");
    description.setAttribute("typeface", typeface);
    const regular = faces[0]!.face;
    const os2 = regular.tables.get("OS/2")!.offset;
    const panose = regular.data.subarray(os2 + 32, os2 + 42);
    if (panose.some((byte) => byte !== 0)) description.setAttribute("panose", panose.toString("hex").toUpperCase());
    description.setAttribute("pitchFamily", String(pitchFamily[font.category]));
    description.setAttribute("charset", "0");
    entry.appendChild(description);
    for (const { slot, face } of faces) {
      while (parts.has(`ppt/fonts/font${nextPart}.fntdata`)) nextPart++;
      const part = `fonts/font${nextPart}.fntdata`;
      parts.set(`ppt/${part}`, toEot(face, typeface));
      const id = `rId${++nextId}`;
      const relationship = rels.createElementNS(REL_NS, "Relationship");
      relationship.setAttribute("Id", id);
      relationship.setAttribute("Type", FONT_RELATIONSHIP);
      relationship.setAttribute("Target", part);
      rels.documentElement!.appendChild(relationship);
      const reference = presentation.createElementNS(P_NS, `p:${slot}`);
      reference.setAttributeNS(R_NS, "r:id", id);
      entry.appendChild(reference);
    }
    list.appendChild(entry);
  }
  const before = Array.from(root.childNodes).find(
    (node) => node.nodeType === 1 && after.has((node as Element).localName ?? ""),
  );
  root.insertBefore(list, before ?? null);
  root.setAttribute("embedTrueTypeFonts", "1");
  root.removeAttribute("saveSubsetFonts");

  parts.set("[Content_Types].xml", serialize(types));
  parts.set(relsName, serialize(rels));
  parts.set("ppt/presentation.xml", serialize(presentation));
  return chosen.map((entry) => entry.typeface);
}
