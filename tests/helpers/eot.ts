// An Embedded OpenType part (.fntdata) read as the W3C submission lays it out (little-endian header, then the
// font data), written independently of lib/exports/embed-fonts.ts so the tests check the format, not the code.

export type EotPart = {
  eotSize: number;
  fontDataSize: number;
  version: number;
  flags: number;
  italic: number;
  weight: number;
  fsType: number;
  magic: number;
  familyName: string;
  styleName: string;
  fullName: string;
  rootCheckSum: number;
  fontData: Buffer;
};

export function parseEot(eot: Buffer): EotPart {
  let at = 82;
  const names: string[] = [];
  for (let i = 0; i < 4; i++) {
    if (i > 0) at += 2; // PaddingN
    const size = eot.readUInt16LE(at);
    names.push(eot.toString("utf16le", at + 2, at + 2 + size));
    at += 2 + size;
  }
  at += 2; // Padding5
  const rootSize = eot.readUInt16LE(at);
  at += 2 + rootSize;
  const rootCheckSum = eot.readUInt32LE(at);
  at += 4 + 4 + 2; // RootStringCheckSum, EUDCCodePage, Padding6
  const signatureSize = eot.readUInt16LE(at);
  at += 2 + signatureSize + 4; // Signature, EUDCFlags
  const eudcSize = eot.readUInt32LE(at);
  at += 4 + eudcSize;
  return {
    eotSize: eot.readUInt32LE(0),
    fontDataSize: eot.readUInt32LE(4),
    version: eot.readUInt32LE(8),
    flags: eot.readUInt32LE(12),
    italic: eot.readUInt8(27),
    weight: eot.readUInt32LE(28),
    fsType: eot.readUInt16LE(32),
    magic: eot.readUInt16LE(34),
    familyName: names[0]!,
    styleName: names[1]!,
    fullName: names[3]!,
    rootCheckSum,
    fontData: eot.subarray(at),
  };
}

/** An OpenType font's tables (tag → bytes) and its Windows English names (name ID → string). */
export function readOpenType(font: Buffer): { tables: Map<string, Buffer>; names: Map<number, string> } {
  const tables = new Map<string, Buffer>();
  for (let i = 0; i < font.readUInt16BE(4); i++) {
    const record = 12 + 16 * i;
    const offset = font.readUInt32BE(record + 8);
    tables.set(
      font.toString("latin1", record, record + 4),
      font.subarray(offset, offset + font.readUInt32BE(record + 12)),
    );
  }
  const names = new Map<number, string>();
  const name = tables.get("name");
  if (name) {
    const storage = name.readUInt16BE(4);
    for (let i = 0; i < name.readUInt16BE(2); i++) {
      const record = 6 + 12 * i;
      if (name.readUInt16BE(record) !== 3 || name.readUInt16BE(record + 4) !== 0x409) continue;
      const start = storage + name.readUInt16BE(record + 10);
      const text = Buffer.from(name.subarray(start, start + name.readUInt16BE(record + 8))).swap16();
      names.set(name.readUInt16BE(record + 6), text.toString("utf16le"));
    }
  }
  return { tables, names };
}

/** OpenType's whole-font check: the font's 32-bit word sum is 0xB1B0AFBA when head's adjustment is right. */
export function wholeFontSum(font: Buffer): number {
  let sum = 0;
  const padded = Buffer.alloc(Math.ceil(font.length / 4) * 4);
  font.copy(padded);
  for (let at = 0; at < padded.length; at += 4) sum = (sum + padded.readUInt32BE(at)) >>> 0;
  return sum;
}
