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
