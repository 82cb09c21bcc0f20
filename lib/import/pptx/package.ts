// The package layer of the PowerPoint reader: a .pptx checked before anything is inflated (size, legacy .ppt,
// encryption, not a ZIP), then its parts as parsed XML (each counted against the element caps of xml.ts
// first, parsed once) and its relationships with targets resolved to part names, refusing any that climbs
// out of the package. Input it cannot read is an AppError (422, or 413 for what is too large).
import path from "node:path";
import type { Element } from "@xmldom/xmldom";
import { AppError } from "@/lib/core/errors";
import { attr, countTags, descendants, kids, parseXml, xmlLimits } from "./xml";
import type { ZipPackage } from "./zip";

export const PPTX_TYPE = "application/vnd.openxmlformats-officedocument.presentationml.presentation";

export const pptxLimits = { maxBytes: 50 * 1024 * 1024, maxSlides: 500 };

const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/";
const OLE_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

type Rel = { type: string; target: string; external: boolean };

export function unreadable(message: string): AppError {
  return new AppError("invalid_request", `The file is not a PowerPoint package we can read: ${message}`);
}

/** Refuses what is not a .pptx before anything is inflated: legacy .ppt, encrypted packages, not a ZIP. */
export function checkSignature(data: Buffer): void {
  if (data.length > pptxLimits.maxBytes) {
    throw new AppError(
      "payload_too_large",
      `The file is ${(data.length / 1024 / 1024).toFixed(1)} MB; at most ${pptxLimits.maxBytes / 1024 / 1024} MB is imported.`,
    );
  }
  if (data.subarray(0, 8).equals(OLE_SIGNATURE)) {
    // Both are OLE compound files; an encrypted package keeps its EncryptionInfo stream there.
    if (data.includes(Buffer.from("EncryptionInfo", "utf16le"))) {
      throw new AppError(
        "invalid_request",
        "The file is a password-protected (encrypted) PowerPoint package; remove the password in PowerPoint and import it again.",
      );
    }
    throw new AppError(
      "invalid_request",
      "The file is a legacy PowerPoint 97–2003 (.ppt) file; save it as .pptx in PowerPoint or LibreOffice and import that.",
    );
  }
  if (data.length < 4 || data.readUInt32LE(0) !== 0x04034b50) {
    throw unreadable("it is not a ZIP archive (a .pptx file is one).");
  }
}

/** The parts of an opened package as XML and relationships, each read once. */
export class PptxParts {
  private readonly xmlCache = new Map<string, Element>();
  private readonly relsCache = new Map<string, Map<string, Rel>>();
  private elements = 0;

  constructor(readonly zip: ZipPackage) {}

  has(part: string): boolean {
    return this.zip.has(part);
  }

  xml(part: string): Element {
    let root = this.xmlCache.get(part);
    if (!root) {
      const bytes = this.zip.read(part);
      if (!bytes) throw unreadable(`its part ${part} is missing.`);
      const tags = countTags(bytes);
      this.elements += tags;
      if (tags > xmlLimits.maxElementsPerPart || this.elements > xmlLimits.maxElements) {
        throw new AppError(
          "payload_too_large",
          tags > xmlLimits.maxElementsPerPart
            ? `The package's part ${part} holds more than ${xmlLimits.maxElementsPerPart.toLocaleString("en")} XML elements; it is not read.`
            : `The package holds more than ${xmlLimits.maxElements.toLocaleString("en")} XML elements in all; it is not read.`,
        );
      }
      root = parseXml(bytes, part);
      this.xmlCache.set(part, root);
    }
    return root;
  }

  /** The relationships of a part ("" for the package's own), targets resolved to part names. */
  rels(part: string): Map<string, Rel> {
    const cached = this.relsCache.get(part);
    if (cached) return cached;
    const dir = path.posix.dirname(part);
    const relsPart =
      part === "" ? "_rels/.rels" : `${dir === "." ? "" : `${dir}/`}_rels/${path.posix.basename(part)}.rels`;
    const out = new Map<string, Rel>();
    if (this.zip.has(relsPart)) {
      for (const rel of kids(this.xml(relsPart), "Relationship")) {
        const id = attr(rel, "Id");
        const target = attr(rel, "Target") ?? "";
        const type = attr(rel, "Type") ?? "";
        if (!id) continue;
        if (attr(rel, "TargetMode") === "External") {
          out.set(id, { type, target, external: true });
          continue;
        }
        const base = part === "" || dir === "." ? "" : dir;
        const joined = target.startsWith("/") ? target.slice(1) : path.posix.join(base, decodeURIComponentSafe(target));
        const normal = path.posix.normalize(joined);
        if (normal.startsWith("../") || normal === ".." || path.posix.isAbsolute(normal)) {
          throw unreadable(
            `a relationship of ${part || "the package"} points outside the package (${target.slice(0, 100)}).`,
          );
        }
        out.set(id, { type, target: normal, external: false });
      }
    }
    this.relsCache.set(part, out);
    return out;
  }

  /** The part's first internal relationship of a type ("slideLayout", "theme"…). */
  relOfType(part: string, type: string): Rel | undefined {
    return [...this.rels(part).values()].find((rel) => rel.type === REL + type && !rel.external);
  }

  /** The title of the package's core properties, "" without one. */
  coreTitle(): string {
    const core = [...this.rels("").values()].find((rel) => rel.type.endsWith("/core-properties"));
    if (!core || !this.zip.has(core.target)) return "";
    return (descendants(this.xml(core.target), "title")[0]?.textContent ?? "").trim();
  }
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

const imageTypes: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".svg": "image/svg+xml",
  ".bmp": "image/bmp",
  ".tif": "image/tiff",
  ".tiff": "image/tiff",
};

/** The content type of a picture part by its extension, or undefined for a format that is not imported. */
export function imageType(part: string): string | undefined {
  return imageTypes[path.posix.extname(part).toLowerCase()];
}
