import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { describeImageRefusal } from "@/lib/assets/deck-images";
import { sniffImageType } from "@/lib/assets/image";
import { sanitizeSvg } from "@/lib/assets/svg";
import { compileDeck, replaceImageUrls } from "@/lib/deck/compile";
import { FetchRefusedError } from "@/lib/net/safe-fetch";
import { checkUrl } from "@/lib/net/address-policy";

// Issue 17's pure parts: types read from bytes, the SVG allow-list, the compiler's image references and the
// rewrite of the compiled module, and how a refused image URL is described.

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
