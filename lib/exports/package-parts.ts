import zlib from "node:zlib";
import { unzipSync, Zip, ZipPassThrough } from "fflate";

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * A PPTX package's parts by name, in their order, held in memory while they are finished (build-pptx.ts).
 * Read at once from the package pptxgenjs wrote (it stores every part uncompressed, so reading one is a
 * copy) and written at once, deflated by Node's zlib. JSZip, which pptxgenjs writes with, reads and writes
 * each part through a chain of deferred steps and deflates in JavaScript: that was most of the time of
 * building a PPTX.
 */
export class PackageParts {
  private readonly parts = new Map<string, Uint8Array>();

  constructor(data: Uint8Array) {
    for (const [name, bytes] of Object.entries(unzipSync(data))) {
      if (!name.endsWith("/")) this.parts.set(name, bytes); // folders are not parts
    }
  }

  names(): string[] {
    return [...this.parts.keys()];
  }

  has(name: string): boolean {
    return this.parts.has(name);
  }

  bytes(name: string): Uint8Array {
    const bytes = this.parts.get(name);
    if (!bytes) throw new Error(`The package has no part ${name}`);
    return bytes;
  }

  text(name: string): string {
    return decoder.decode(this.bytes(name));
  }

  set(name: string, data: string | Uint8Array): void {
    this.parts.set(name, typeof data === "string" ? encoder.encode(data) : data);
  }

  remove(name: string): void {
    this.parts.delete(name);
  }

  /**
   * The package as a file. Pictures and embedded workbooks are stored as they are (they are compressed
   * already); fonts are deflated at level 1, about a third of the time of the default level for a file a
   * few percent larger; the XML at the default level.
   */
  write(): Buffer {
    const chunks: Uint8Array[] = [];
    let failure: Error | null = null;
    const zip = new Zip((error, chunk) => {
      if (error) failure ??= error;
      else chunks.push(chunk);
    });
    const mtime = new Date();
    for (const [name, bytes] of this.parts) {
      const level = /^ppt\/(media|embeddings)\//.test(name) ? 0 : name.startsWith("ppt/fonts/") ? 1 : 6;
      const file = level === 0 ? new ZipPassThrough(name) : new NativeDeflate(name, level);
      file.mtime = mtime;
      zip.add(file);
      file.push(bytes, true);
    }
    zip.end();
    if (failure) throw failure;
    return Buffer.concat(chunks);
  }
}

// A part deflated by Node's zlib in one call (a few milliseconds for a whole package's XML, where a stream
// per part cost more than the deflating), through fflate's own extension point for a compression of one's
// own: fflate still computes the CRC and writes the headers.
class NativeDeflate extends ZipPassThrough {
  constructor(
    name: string,
    private readonly level: number,
  ) {
    super(name);
    this.compression = 8;
  }

  protected override process(chunk: Uint8Array, final: boolean): void {
    this.ondata(null, zlib.deflateRawSync(chunk, { level: this.level }), final);
  }
}
