import { inflateRawSync } from "node:zlib";
import { AppError } from "@/lib/core/errors";

// A ZIP reader for untrusted packages: the central directory is read first (entry count, names, declared
// sizes), and each entry is inflated only when asked for, with node:zlib's maxOutputLength set to what that
// entry may still grow to — the per-entry cap, what is left of the total, and its compressed size times the
// ratio cap — so a bomb stops at the cap while inflating instead of after. (JSZip inflates a whole entry into
// memory before answering and trusts nothing it could stop on.) Names that climb out of the package, absolute
// names, duplicates, encrypted entries and ZIP64 are refused.

export type ZipLimits = {
  maxEntries: number;
  maxEntryBytes: number;
  maxTotalBytes: number;
  /** Inflated bytes per compressed byte, for entries larger than ratioFloorBytes. */
  maxRatio: number;
  ratioFloorBytes: number;
};

export const zipLimits: ZipLimits = {
  maxEntries: 5000,
  maxEntryBytes: 64 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  maxRatio: 200,
  ratioFloorBytes: 1024 * 1024,
};

type Entry = { name: string; method: number; compressedSize: number; size: number; localOffset: number };

export type ZipPackage = {
  names: () => string[];
  has: (name: string) => boolean;
  /** The entry's inflated bytes, or null when the package has no such entry. */
  read: (name: string) => Buffer | null;
};

function refuse(message: string): AppError {
  return new AppError("invalid_request", `The file is not a PowerPoint package we can read: ${message}`);
}

function tooLarge(message: string): AppError {
  return new AppError("payload_too_large", message);
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** Whether a name, as written in the package, stays inside it. */
function safeEntryName(name: string): boolean {
  if (!name || name.includes("\0") || name.includes("\\") || name.startsWith("/") || /^[A-Za-z]:/.test(name)) {
    return false;
  }
  return !name.split("/").some((segment) => segment === ".." || segment === ".");
}

export function openZip(data: Buffer, limits: ZipLimits = zipLimits): ZipPackage {
  // The end of central directory record: 22 bytes, followed by a comment of at most 64 KiB.
  let eocd = -1;
  for (let at = data.length - 22; at >= Math.max(0, data.length - 22 - 0xffff); at--) {
    if (data.readUInt32LE(at) === EOCD) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw refuse("it is not a ZIP archive, or it is cut short (no central directory).");
  const count = data.readUInt16LE(eocd + 10);
  const directorySize = data.readUInt32LE(eocd + 12);
  const directoryOffset = data.readUInt32LE(eocd + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff) throw refuse("it is a ZIP64 archive, which is not read.");
  if (count > limits.maxEntries) {
    throw tooLarge(`The package holds ${count} entries; at most ${limits.maxEntries} are read.`);
  }
  if (directoryOffset + directorySize > eocd) throw refuse("its central directory is damaged.");

  const entries = new Map<string, Entry>();
  let at = directoryOffset;
  for (let index = 0; index < count; index++) {
    if (at + 46 > eocd || data.readUInt32LE(at) !== CENTRAL) throw refuse("its central directory is damaged.");
    const flags = data.readUInt16LE(at + 8);
    const method = data.readUInt16LE(at + 10);
    const compressedSize = data.readUInt32LE(at + 20);
    const size = data.readUInt32LE(at + 24);
    const nameLength = data.readUInt16LE(at + 28);
    const extraLength = data.readUInt16LE(at + 30);
    const commentLength = data.readUInt16LE(at + 32);
    const localOffset = data.readUInt32LE(at + 42);
    const name = data.toString(flags & 0x800 ? "utf8" : "latin1", at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (!safeEntryName(name)) throw refuse(`the entry "${name.slice(0, 100)}" names a path outside the package.`);
    if (entries.has(name)) throw refuse(`the entry "${name.slice(0, 100)}" appears twice.`);
    if (flags & 0x1) throw refuse(`the entry "${name.slice(0, 100)}" is encrypted.`);
    if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff) {
      throw refuse("it is a ZIP64 archive, which is not read.");
    }
    if (name.endsWith("/")) continue;
    if (method !== 0 && method !== 8)
      throw refuse(`the entry "${name.slice(0, 100)}" uses compression method ${method}.`);
    if (size > limits.maxEntryBytes) {
      throw tooLarge(
        `The package's entry "${name.slice(0, 100)}" inflates to ${size} bytes; at most ${limits.maxEntryBytes} are read.`,
      );
    }
    entries.set(name, { name, method, compressedSize, size, localOffset });
  }

  let inflated = 0;
  return {
    names: () => [...entries.keys()],
    has: (name) => entries.has(name),
    read(name) {
      const entry = entries.get(name);
      if (!entry) return null;
      const local = entry.localOffset;
      if (local + 30 > data.length || data.readUInt32LE(local) !== LOCAL) {
        throw refuse(`the entry "${name}" is damaged.`);
      }
      const start = local + 30 + data.readUInt16LE(local + 26) + data.readUInt16LE(local + 28);
      const end = start + entry.compressedSize;
      if (end > data.length) throw refuse(`the entry "${name}" is cut short.`);
      const compressed = data.subarray(start, end);
      const byRatio = Math.max(limits.ratioFloorBytes, entry.compressedSize * limits.maxRatio);
      const left = limits.maxTotalBytes - inflated;
      const cap = Math.min(limits.maxEntryBytes, left, byRatio);
      let bytes: Buffer;
      if (entry.method === 0) {
        if (compressed.length > cap) throw capError(name, cap, limits, left, byRatio);
        bytes = Buffer.from(compressed);
      } else {
        try {
          bytes = inflateRawSync(compressed, { maxOutputLength: Math.max(1, cap) });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE" || error instanceof RangeError) {
            throw capError(name, cap, limits, left, byRatio);
          }
          throw refuse(`the entry "${name}" does not inflate (${(error as Error).message}).`);
        }
      }
      inflated += bytes.length;
      return bytes;
    },
  };
}

function capError(name: string, cap: number, limits: ZipLimits, left: number, byRatio: number): AppError {
  if (cap === byRatio) {
    return tooLarge(
      `The package's entry "${name}" inflates to more than ${limits.maxRatio} times its compressed size (a ZIP bomb?); it is not read.`,
    );
  }
  if (cap === left) {
    return tooLarge(
      `The package inflates to more than ${limits.maxTotalBytes / 1024 / 1024} MB in all; it is not read.`,
    );
  }
  return tooLarge(
    `The package's entry "${name}" inflates to more than ${limits.maxEntryBytes / 1024 / 1024} MB; it is not read.`,
  );
}
