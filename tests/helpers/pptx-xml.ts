import { execFileSync } from "node:child_process";
import path from "node:path";
import { DOMParser } from "@xmldom/xmldom";
import JSZip from "jszip";

// Every XML part of a PPTX read the strict way PowerPoint reads it: a real XML parser that refuses
// malformed markup (an attribute value that ends early, an unescaped "<", mismatched tags), plus the checks
// that parser leaves out: characters XML 1.0 does not allow (control characters other than tab, newline
// and carriage return, lone surrogates, U+FFFE/U+FFFF), as text or as character references, and bare "&".

type XmlDocument = ReturnType<DOMParser["parseFromString"]>;

const invalidCharacter = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const bareAmpersand = /&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)/;

function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

export function parseXmlStrictly(name: string, xml: string): XmlDocument {
  const invalid = invalidCharacter.exec(xml);
  if (invalid) {
    const code = invalid[0].codePointAt(0)!.toString(16).padStart(4, "0");
    throw new Error(`${name}: U+${code} is not an XML character (at ${invalid.index})`);
  }
  const ampersand = bareAmpersand.exec(xml);
  if (ampersand)
    throw new Error(`${name}: bare "&" at ${ampersand.index}: ${xml.slice(ampersand.index, ampersand.index + 40)}`);
  for (const match of xml.matchAll(/&#(x[0-9a-fA-F]+|[0-9]+);/g)) {
    const code = match[1]!.startsWith("x") ? Number.parseInt(match[1]!.slice(1), 16) : Number(match[1]);
    if (!isXmlChar(code)) throw new Error(`${name}: ${match[0]} refers to a character XML does not allow`);
  }
  return new DOMParser({
    onError: (level, message) => {
      if (level !== "warning") throw new Error(`${name}: ${message}`);
    },
  }).parseFromString(xml, "application/xml");
}

/** Every .xml and .rels part of the file, parsed strictly (throws on the first part that is not XML). */
export async function readPptxXml(bytes: Buffer | Uint8Array): Promise<Map<string, XmlDocument>> {
  const zip = await JSZip.loadAsync(bytes);
  const parts = new Map<string, XmlDocument>();
  for (const name of Object.keys(zip.files).sort()) {
    if (zip.files[name]!.dir || !/\.(xml|rels)$/.test(name)) continue;
    parts.set(name, parseXmlStrictly(name, await zip.file(name)!.async("string")));
  }
  return parts;
}

/** The values of one attribute on every element with this qualified name, in document order. */
export function attributeValues(document: XmlDocument, tag: string, attribute: string): string[] {
  return [...document.getElementsByTagName(tag)].map((element) => element.getAttribute(attribute) ?? "");
}

/** The text of every element with this qualified name (`a:t` for the runs of a slide). */
export function texts(document: XmlDocument, tag: string): string[] {
  return [...document.getElementsByTagName(tag)].map((element) => element.textContent ?? "");
}

/** The slide parts in slide order. */
export function slideParts(parts: Map<string, XmlDocument>, folder = "slides", prefix = "slide"): XmlDocument[] {
  const pattern = new RegExp(`^ppt/${folder}/${prefix}(\\d+)\\.xml$`);
  return [...parts.keys()]
    .map((name) => [name, pattern.exec(name)?.[1]] as const)
    .filter((entry): entry is readonly [string, string] => entry[1] !== undefined)
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .map(([name]) => parts.get(name)!);
}

/** Every attribute of every element: [element name, attribute name, value]. */
export function everyAttribute(document: XmlDocument): [string, string, string][] {
  const found: [string, string, string][] = [];
  for (const element of [...document.getElementsByTagName("*")]) {
    for (const attribute of [...element.attributes]) found.push([element.tagName, attribute.name, attribute.value]);
  }
  return found;
}

// Converts a PPTX to PDF with LibreOffice (a profile of its own in `work`, so parallel runs do not share
// one) and returns the PDF's path.
export function convertWithLibreOffice(pptx: string, work: string, env: NodeJS.ProcessEnv = process.env): string {
  execFileSync(
    "soffice",
    [
      `-env:UserInstallation=file://${path.join(work, "profile")}`,
      "--headless",
      "--convert-to",
      "pdf",
      "--outdir",
      work,
      pptx,
    ],
    { env, stdio: "ignore", timeout: 120_000 },
  );
  return path.join(work, `${path.basename(pptx, ".pptx")}.pdf`);
}
