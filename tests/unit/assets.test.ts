import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { describeImageRefusal } from "@/lib/assets/deck-images";
import { processImage, sniffImageType } from "@/lib/assets/image";
import { stripGif, stripJpeg, stripPng } from "@/lib/assets/strip-metadata";
import { sanitizeSvg } from "@/lib/assets/svg";
import { compileDeck, replaceImageUrls } from "@/lib/source/compile";
import { FetchRefusedError } from "@/lib/net/safe-fetch";
import { checkUrl } from "@/lib/net/address-policy";

// Issue 17's pure parts: types read from bytes, originals kept (less their metadata) or written again, the
// SVG allow-list, the compiler's image references and the rewrite of the compiled module, and how a refused
// image URL is described.

describe("sniffing image types", () => {
  it("reads the type from magic numbers, never from anything else", async () => {
    const base = sharp({ create: { width: 4, height: 4, channels: 3, background: "#123456" } });
    expect(sniffImageType(await base.clone().png().toBuffer())).toBe("png");
    expect(sniffImageType(await base.clone().jpeg().toBuffer())).toBe("jpeg");
    expect(sniffImageType(await base.clone().gif().toBuffer())).toBe("gif");
    expect(sniffImageType(await base.clone().webp().toBuffer())).toBe("webp");
    expect(sniffImageType(await base.clone().avif().toBuffer())).toBe("avif");
    expect(
      sniffImageType(Buffer.from('\uFEFF<?xml version="1.0"?>\n<!-- x --><svg xmlns="http://www.w3.org/2000/svg"/>')),
    ).toBe("svg");
    expect(sniffImageType(Buffer.from("<html><svg></svg></html>"))).toBeNull();
    expect(sniffImageType(Buffer.from("just text"))).toBeNull();
    expect(sniffImageType(Buffer.from("%PDF-1.7"))).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
  });
});

describe("keeping originals", () => {
  const limits = { maxBytes: 20_000_000, maxPixels: 40_000_000 };
  const picture = () =>
    sharp({ create: { width: 320, height: 180, channels: 3, background: "#2563eb" } }).composite([
      {
        input: { create: { width: 100, height: 60, channels: 3, background: "#f97316" } },
        left: 40,
        top: 30,
      },
    ]);
  const pixels = async (bytes: Buffer) => (await sharp(bytes).raw().toBuffer()).toString("base64");
  const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

  // A PNG chunk with its CRC, put just before IEND.
  function withPngChunk(png: Buffer, type: string, data: Buffer): Buffer {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const chunk = Buffer.alloc(12 + data.length);
    chunk.writeUInt32BE(data.length, 0);
    body.copy(chunk, 4);
    chunk.writeUInt32BE(crc32(body), 8 + data.length);
    return Buffer.concat([png.subarray(0, png.length - 12), chunk, png.subarray(png.length - 12)]);
  }

  it("keeps a PNG, JPEG or GIF within 3840x2160 byte for byte when it carries nothing to remove", async () => {
    const inputs = {
      png: await picture().png().toBuffer(),
      jpeg: await picture().jpeg({ quality: 70 }).toBuffer(),
      progressive: await picture().jpeg({ progressive: true }).toBuffer(),
      gif: await picture().gif().toBuffer(),
      edge: await sharp({ create: { width: 3840, height: 2160, channels: 3, background: "#000" } })
        .png()
        .toBuffer(),
    };
    for (const [name, input] of Object.entries(inputs)) {
      const processed = await processImage(input, limits);
      expect(processed.original, name).toBe(true);
      expect(processed.data.equals(input), name).toBe(true);
    }
    const jpeg = await processImage(inputs.jpeg, limits);
    expect(jpeg).toMatchObject({ contentType: "image/jpeg", extension: "jpg", width: 320, height: 180 });
    // The same bytes always give the same stored file: the asset's address (the hash of what was
    // received) names one file, whoever sends them.
    expect(sha((await processImage(inputs.png, limits)).data)).toBe(sha(inputs.png));
  });

  it("keeps an animated GIF's frames, delays and looping", async () => {
    // Three 60x40 frames, the middle one red.
    const frames = sharp({
      create: { width: 60, height: 40 * 3, channels: 4, background: "#16a34a" },
    }).composite([
      { input: { create: { width: 60, height: 40, channels: 4, background: "#dc2626" } }, top: 40, left: 0 },
    ]);
    const three = await sharp(await frames.raw().toBuffer(), {
      raw: { width: 60, height: 120, channels: 4, pageHeight: 40 },
    })
      .gif({ loop: 0, delay: [100, 200, 300] })
      .toBuffer();
    const comment = Buffer.from([0x21, 0xfe, 5, ...Buffer.from("where"), 0x00]);
    const input = Buffer.concat([three.subarray(0, three.length - 1), comment, Buffer.from([0x3b])]);
    const processed = await processImage(input, limits);
    expect(processed).toMatchObject({ original: true, width: 60, height: 40 });
    expect(processed.data.equals(three)).toBe(true);
    expect(await sharp(processed.data, { animated: true }).metadata()).toMatchObject({
      pages: 3,
      loop: 0,
      delay: [100, 200, 300],
    });
  });

  it("cuts EXIF with GPS, XMP, comments and text out of the file losslessly, keeping the colour profile", async () => {
    const plain = await picture().jpeg({ quality: 80 }).toBuffer();
    const camera = await sharp(plain)
      .withIccProfile("p3")
      .withExif({
        IFD0: { Make: "Phone", Copyright: "Someone" },
        IFD3: {
          GPSLatitudeRef: "N",
          GPSLatitude: "51/1 30/1 12/1",
          GPSLongitudeRef: "W",
          GPSLongitude: "0/1 7/1 40/1",
        },
      })
      .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>')
      .jpeg({ quality: 80 })
      .toBuffer();
    const comment = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x0b]), Buffer.from("Home Sofa")]);
    const input = Buffer.concat([
      camera.subarray(0, 2),
      comment,
      camera.subarray(2),
      Buffer.from("appended after the end: a second picture, a video…"),
    ]);
    const before = await sharp(input).metadata();
    expect(before.exif).toBeDefined();
    expect(before.xmp).toBeDefined();
    const processed = await processImage(input, limits);
    expect(processed.original).toBe(true);
    const after = await sharp(processed.data).metadata();
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.icc).toEqual(before.icc);
    for (const text of ["Exif", "GPS", "Phone", "Someone", "xmpmeta", "Home Sofa", "appended"]) {
      expect(processed.data.includes(Buffer.from(text)), text).toBe(false);
    }
    // Not encoded again: the same pixels, and the compressed data itself unchanged.
    expect(await pixels(processed.data)).toBe(await pixels(input));
    expect(processed.data.length).toBeLessThan(input.length);
    const scan = (bytes: Buffer) => bytes.subarray(bytes.indexOf(Buffer.from([0xff, 0xda])));
    expect(scan(processed.data).equals(scan(camera))).toBe(true);

    const png = await picture().png().toBuffer();
    const tagged = withPngChunk(
      withPngChunk(png, "tEXt", Buffer.from("Author\0Someone")),
      "eXIf",
      Buffer.from("MM\0*GPS data"),
    );
    const strippedPng = await processImage(withPngChunk(tagged, "tIME", Buffer.alloc(7)), limits);
    expect(strippedPng.original).toBe(true);
    expect(strippedPng.data.equals(png)).toBe(true);
  });

  it("keeps JFIF's header but not the thumbnail it may carry", async () => {
    const jpeg = await picture().jpeg().toBuffer();
    // A JFIF APP0 with a 2x2 thumbnail (12 bytes of RGB) after the start of the image (sharp writes none).
    const thumbnail = Buffer.from("THUMBNAILRGB");
    const app0 = Buffer.concat([
      Buffer.from([0xff, 0xe0, 0x00, 16 + thumbnail.length]),
      Buffer.from("JFIF\0", "latin1"),
      Buffer.from([1, 2, 1, 0, 72, 0, 72, 2, 2]),
      thumbnail,
    ]);
    const input = Buffer.concat([jpeg.subarray(0, 2), app0, jpeg.subarray(2)]);
    const stripped = stripJpeg(input)!;
    expect(stripped.data.includes(thumbnail)).toBe(false);
    expect(stripped.removed).toBe(thumbnail.length);
    const header = stripped.data.subarray(2, 20);
    expect([...header.subarray(0, 4)]).toEqual([0xff, 0xe0, 0x00, 16]);
    expect(header.subarray(4, 9).toString("latin1")).toBe("JFIF\0");
    expect([...header.subarray(16, 18)]).toEqual([0, 0]);
    expect(await pixels(stripped.data)).toBe(await pixels(input));
  });

  it("leaves the chunks that change what is drawn, and gives up on a file it cannot follow", async () => {
    const transparent = await sharp({ create: { width: 8, height: 8, channels: 4, background: "#ff000080" } })
      .png({ palette: true })
      .toBuffer();
    expect(stripPng(transparent)?.data.equals(transparent)).toBe(true);
    const jpeg = await picture().jpeg().toBuffer();
    expect(stripJpeg(jpeg.subarray(0, jpeg.length / 2))).toBeNull();
    expect(stripJpeg(Buffer.from("not a jpeg"))).toBeNull();
    const png = await picture().png().toBuffer();
    expect(stripPng(png.subarray(0, png.length - 20))).toBeNull();
    expect(stripPng(withPngChunk(png, "QUUX", Buffer.from("critical, unknown")))).toBeNull();
    const gif = await picture().gif().toBuffer();
    expect(stripGif(gif.subarray(0, gif.length - 10))).toBeNull();
  });

  it("writes the image again when it must: too large, turned by EXIF, CMYK, or a type the route does not serve", async () => {
    const wide = await sharp({ create: { width: 4000, height: 1000, channels: 3, background: "#0ea5e9" } })
      .png()
      .toBuffer();
    expect(await processImage(wide, limits)).toMatchObject({ original: false, width: 3840, height: 960 });
    const tall = await sharp({ create: { width: 1000, height: 2400, channels: 3, background: "#0ea5e9" } })
      .jpeg()
      .toBuffer();
    expect(await processImage(tall, limits)).toMatchObject({ original: false, width: 900, height: 2160 });

    // Orientation 6: stored upright (the sides swapped), the EXIF that said so gone.
    const turned = await picture().jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const upright = await processImage(turned, limits);
    expect(upright).toMatchObject({ original: false, width: 180, height: 320, contentType: "image/jpeg" });
    expect((await sharp(upright.data).metadata()).exif).toBeUndefined();

    const cmyk = await picture().toColourspace("cmyk").jpeg().toBuffer();
    expect((await sharp(cmyk).metadata()).space).toBe("cmyk");
    const rgb = await processImage(cmyk, limits);
    expect(rgb.original).toBe(false);
    expect((await sharp(rgb.data).metadata()).space).toBe("srgb");

    const webp = await processImage(await picture().webp().toBuffer(), limits);
    expect(webp).toMatchObject({ original: false, contentType: "image/jpeg", originalType: "image/webp" });
    const avif = await processImage(
      await sharp({ create: { width: 32, height: 32, channels: 4, background: "#ff000080" } })
        .avif()
        .toBuffer(),
      limits,
    );
    expect(avif).toMatchObject({ original: false, contentType: "image/png", originalType: "image/avif" });
    const svg = await processImage(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20"/></svg>',
      ),
      limits,
    );
    expect(svg).toMatchObject({ original: false, contentType: "image/png", width: 2048, height: 1024 });
  });

  it("still refuses a truncated file it would otherwise keep", async () => {
    const jpeg = await picture().jpeg().toBuffer();
    await expect(processImage(jpeg.subarray(0, jpeg.length - 40), limits)).rejects.toThrow(
      /could not be decoded.*truncated or damaged/,
    );
    const png = await picture().png().toBuffer();
    await expect(processImage(png.subarray(0, png.length - 40), limits)).rejects.toThrow(/could not be decoded/);
  });
});

describe("the SVG allow-list", () => {
  const canary = "http://127.0.0.1:9";
  it("keeps drawing and removes scripts, handlers, foreign content and references outside the file", () => {
    const out = sanitizeSvg(
      Buffer.from(`<?xml-stylesheet href="${canary}/s.css"?><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="go()" width="10" height="10">
<script>go()</script><style>@import url(${canary}/i.css);</style><style>rect{fill:red}</style>
<rect width="10" height="10" fill="url(#g)" onclick="go()"/><rect style="fill:url(${canary}/p)"/>
<image href="${canary}/x.png"/><image href="data:image/png;base64,iVBORw0KGgo="/><use xlink:href="#r"/><use xlink:href="${canary}/a.svg#b"/>
<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject><a href="javascript:go()"><rect/></a></svg>`),
    );
    expect(out).not.toContain("127.0.0.1");
    expect(out).not.toMatch(/onload|onclick|<script|foreignObject|javascript:|@import|<a\b/);
    expect(out).toContain('fill="url(#g)"');
    expect(out).toContain("rect{fill:red}");
    expect(out).toContain('href="data:image/png;base64,iVBORw0KGgo="');
    expect(out).toContain('xlink:href="#r"');
  });

  it("refuses a DOCTYPE (entities), text that is not XML and a root that is not svg", () => {
    expect(() =>
      sanitizeSvg(Buffer.from('<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>')),
    ).toThrow(/DOCTYPE/);
    expect(() => sanitizeSvg(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>'))).toThrow(
      /well-formed/,
    );
    expect(() => sanitizeSvg(Buffer.from('<html xmlns="http://www.w3.org/1999/xhtml"/>'))).toThrow(/well-formed SVG/);
    expect(() => sanitizeSvg(Buffer.from([0x3c, 0x73, 0x76, 0x67, 0xff, 0xfe]))).toThrow(/UTF-8/);
  });
});

describe("image references in compiled modules", () => {
  const source = `import { Deck, Slide, Image as Picture, Title } from "@deckhand/player";
const later = "https://img.example/later.png";
export default function D() {
  return (
    <Deck>
      <Slide label="One" image="https://img.example/bg.jpg">
        <Title>One</Title>
        <Picture src="https://img.example/a.png" alt="a" />
        <Picture src={\`https://img.example/b.png\`} alt="b" />
        <Picture src={later} alt="c" />
        <Picture src="data:image/png;base64,AAAA" alt="d" />
      </Slide>
      <Slide label="Two"><Picture src="https://img.example/a.png" alt="a again" /></Slide>
    </Deck>
  );
}`;

  it("reports static src and image strings (renamed imports too) where they stand in the output", async () => {
    const compiled = await compileDeck({ source, format: "slides" });
    expect(compiled.images.map((image) => image.url)).toEqual([
      "https://img.example/bg.jpg",
      "https://img.example/a.png",
      "https://img.example/b.png",
      "data:image/png;base64,AAAA",
      "https://img.example/a.png",
    ]);
    for (const image of compiled.images) {
      expect(compiled.compiledJs.slice(image.start + 1, image.end - 1)).toBe(image.url);
    }
  });

  it("rewrites the mapped URLs, every occurrence, and leaves the rest of the module as it was", async () => {
    const compiled = await compileDeck({ source, format: "slides" });
    const js = replaceImageUrls(
      compiled.compiledJs,
      compiled.images,
      new Map([
        ["https://img.example/a.png", "/assets/aaaa.png"],
        ["https://img.example/bg.jpg", '/assets/"quoted".jpg'],
      ]),
    );
    expect(js).not.toContain('"https://img.example/a.png"');
    expect(js.match(/"\/assets\/aaaa\.png"/g)).toHaveLength(2);
    expect(js).toContain('"/assets/\\"quoted\\".jpg"');
    expect(js).toContain("`https://img.example/b.png`");
    expect(js).toContain('"https://img.example/later.png"');
  });
});

describe("refused image URLs", () => {
  it("names the URL and the reason, and a redirect's target when it is what was refused", () => {
    const url = "https://img.example/a.png";
    const redirected = new FetchRefusedError("address", "refused", { url: "http://10.0.0.1/x" });
    expect(describeImageRefusal(url, redirected)).toBe(
      `Could not import the image ${url}: it is not at a public address (it redirects to http://10.0.0.1/x); only public images can be imported.`,
    );
    const html = new FetchRefusedError("content_type", `${url} is text/html, not image as expected.`, { url });
    expect(describeImageRefusal(url, html)).toMatch(
      /^Could not import the image https:\/\/img\.example\/a\.png: it is not an image \(.*text\/html/,
    );
    expect(describeImageRefusal(url, new FetchRefusedError("status", "x", { url, status: 404 }))).toMatch(
      /answered 404/,
    );
    // A refused address needs no network to be refused.
    expect(checkUrl("http://169.254.169.254/latest/meta-data").ok).toBe(false);
  });
});
