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

function parseXmlStrictly(name: string, xml: string): XmlDocument {
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

// What the issue asks of every picture in an exported PPTX (issue 18, "Pictures done right"): alt text that
// says something (never empty nor a tag's name), no media part stored twice, and no picture embedded at
// more than twice the size it is drawn at on the 1920x1080 canvas (the density of the export's 2x render).
const meaninglessAlt = new Set(["", "svg", "span", "div", "img", "picture", "canvas", "video", "image"]);
const EMU_PER_PX = 12_192_000 / 1920;

/** Every way the file's pictures fall short of that, one line each (none: an empty list). */
export async function pictureProblems(bytes: Buffer | Uint8Array): Promise<string[]> {
  const sharp = (await import("sharp")).default;
  const zip = await JSZip.loadAsync(bytes);
  const parts = await readPptxXml(bytes);
  const problems: string[] = [];
  const media = Object.keys(zip.files).filter((name) => name.startsWith("ppt/media/") && !zip.files[name]!.dir);
  const seen = new Map<string, string>();
  for (const name of media) {
    const key = (await zip.file(name)!.async("nodebuffer")).toString("base64");
    if (seen.has(key)) problems.push(`${name} is stored twice (also ${seen.get(key)})`);
    else seen.set(key, name);
  }
  const sizes = new Map<string, { width: number; height: number } | null>();
  for (const [partName, slide] of parts) {
    const number = /^ppt\/slides\/slide(\d+)\.xml$/.exec(partName)?.[1];
    if (!number) continue;
    const rels = parts.get(`ppt/slides/_rels/slide${number}.xml.rels`);
    const targets = new Map(
      [...(rels?.getElementsByTagName("Relationship") ?? [])].map((rel) => [
        rel.getAttribute("Id") ?? "",
        rel.getAttribute("Target") ?? "",
      ]),
    );
    for (const picture of [...slide.getElementsByTagName("p:pic")]) {
      const descr = (picture.getElementsByTagName("p:cNvPr")[0]?.getAttribute("descr") ?? "").trim();
      if (meaninglessAlt.has(descr.toLowerCase())) problems.push(`slide ${number}: a picture with alt text "${descr}"`);
      const target = targets.get(picture.getElementsByTagName("a:blip")[0]?.getAttribute("r:embed") ?? "");
      const extent = picture.getElementsByTagName("a:xfrm")[0]?.getElementsByTagName("a:ext")[0];
      if (!target || !extent || !/\.(png|jpe?g|gif)$/.test(target)) continue;
      const file = `ppt/${target.replace(/^\.\.\//, "")}`;
      if (!sizes.has(file)) {
        const data = await zip.file(file)?.async("nodebuffer");
        const meta = data ? await sharp(data).metadata() : null;
        sizes.set(file, meta?.width && meta.height ? { width: meta.width, height: meta.height } : null);
      }
      const size = sizes.get(file);
      if (!size) continue;
      const crop = picture.getElementsByTagName("a:srcRect")[0];
      const cut = (side: string) => Number(crop?.getAttribute(side) ?? 0) / 100_000;
      const shownWidth = size.width * (1 - cut("l") - cut("r"));
      const shownHeight = size.height * (1 - cut("t") - cut("b"));
      const boxWidth = Number(extent.getAttribute("cx")) / EMU_PER_PX;
      const boxHeight = Number(extent.getAttribute("cy")) / EMU_PER_PX;
      if (shownWidth > 2 * boxWidth + 2 || shownHeight > 2 * boxHeight + 2)
        problems.push(
          `slide ${number}: "${descr}" shows ${Math.round(shownWidth)}x${Math.round(shownHeight)} px of ${file} in a ${Math.round(boxWidth)}x${Math.round(boxHeight)} px box`,
        );
    }
  }
  return problems;
}
