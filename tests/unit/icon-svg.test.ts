import JSZip from "jszip";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Icon, icons } from "@/components/player/vocabulary/icon/icon";
import { buildPptx } from "@/lib/exports/build-pptx";
import { sanitiseIconSvg } from "@/lib/exports/icon-svg";
import { attributeValues, readPptxXml, slideParts } from "../helpers/pptx-xml";

const SVG = 'xmlns="http://www.w3.org/2000/svg"';

// The SVG the export's extractor makes of a drawn icon (components/player/export/extract-slides.ts):
// the player's markup, the root's attributes reduced to its list, the size and the resolved colour added.
function extracted(name: string, colour = "#1D4ED8", opacity?: number): string {
  const markup = renderToStaticMarkup(createElement(Icon, { name }));
  const [, rootAttributes, inner] = /^<svg([^>]*)>([^]*)<\/svg>$/.exec(markup)!;
  const kept = [...rootAttributes!.matchAll(/\s([\w:-]+)="([^"]*)"/g)].filter(([, attribute]) =>
    ["xmlns", "viewBox", "fill", "stroke-width", "stroke-linecap", "stroke-linejoin"].includes(attribute!),
  );
  const root = [
    ...kept.map(([, attribute, value]) => `${attribute}="${value}"`),
    'width="48"',
    'height="48"',
    `stroke="${colour}"`,
    ...(opacity === undefined ? [] : [`stroke-opacity="${opacity}"`]),
  ].join(" ");
  return `<svg ${root}>${inner}</svg>`;
}

// React writes an empty element with its end tag, the browser's XMLSerializer (and the allow-list) closed.
const closed = (svg: string) => svg.replace(/><\/(?:path|circle|ellipse|line|polyline|polygon|rect)>/g, "/>");

const wrap = (inner: string, root = "") =>
  `<svg ${SVG} viewBox="0 0 24 24" width="48" height="48"${root}>${inner}</svg>`;

describe("the icons' SVG allow-list", () => {
  it("takes every icon the player ships, as it is drawn, and writes it back the same", () => {
    const names = Object.keys(icons);
    expect(names.length).toBeGreaterThan(20);
    for (const name of names) {
      const svg = extracted(name);
      expect(svg).toMatch(/<(path|circle|rect|line|polyline|polygon|ellipse) /);
      expect(sanitiseIconSvg(svg), name).toBe(closed(svg));
      expect(sanitiseIconSvg(closed(svg)), name).toBe(closed(svg));
    }
    const faded = extracted("check", "#FFFFFF", 0.5);
    expect(sanitiseIconSvg(faded)).toBe(closed(faded));
    // The missing-icon placeholder (circle-dashed) too.
    expect(sanitiseIconSvg(extracted("no such icon"))).toContain("<path");
  });

  it("takes the other drawing elements and paint values, and writes the parsed tree, not the input", () => {
    const svg = wrap(
      `<title>A &amp; B</title><desc>d</desc>
      <g transform="translate(2, 3) scale(0.5) rotate(45 12 12) matrix(1 0 0 1 0 0)" opacity="0.8">
        <circle cx="12" cy="12" r="4" fill="rgb(10, 20, 30)" fill-opacity="50%"></circle>
        <ellipse cx="1" cy="2" rx="3" ry="4" fill="rgba(0 0 0 / 0.5)" stroke="red" stroke-dasharray="2 1.5" stroke-dashoffset="1"/>
        <line x1="0" y1="0" x2="24" y2="24" stroke="currentColor" stroke-miterlimit="4"/>
        <polyline points="1,2 3,4 5,6" fill="none"/>
        <polygon points="1 2 3 4 5 6" fill-rule="evenodd" clip-rule="nonzero" fill="#abc"/>
        <rect x="1" y="1" width="10" height="10" rx="2" stroke-width="1.5px"/>
      </g>`,
    );
    const written = sanitiseIconSvg(svg)!;
    expect(written).not.toBeNull();
    // White space between elements is dropped, empty elements closed in place, text escaped again.
    expect(written).toContain("<title>A &amp; B</title><desc>d</desc><g ");
    expect(written).toContain('<circle cx="12" cy="12" r="4" fill="rgb(10, 20, 30)" fill-opacity="50%"/>');
    expect(sanitiseIconSvg(written)).toBe(written);
    // An empty root is still closed with </svg> (the slide model's check).
    expect(sanitiseIconSvg(wrap(""))).toBe(wrap(""));
  });

  it("refuses each way out of the file, and whatever it does not know", () => {
    const refused = [
      // CSS escapes, @import, url() and image-set() in any spelling.
      wrap('<path d="M0 0" style="fill:\\75rl(http://x)"/>'),
      wrap('<path d="M0 0"/>', ' style="fill:red"'),
      wrap('<style>@\\69mport "http://x"</style><path d="M0 0"/>'),
      wrap('<style>path { fill: red }</style><path d="M0 0"/>'),
      wrap('<path d="M0 0" fill="url(http://x#a)"/>'),
      wrap('<path d="M0 0" fill="url(#a)"/>'),
      wrap('<path d="M0 0" fill="image-set(&quot;http://x&quot;)"/>'),
      wrap('<path d="M0 0" fill=\'image-set("http://x")\'/>'),
      wrap('<path d="M0 0" fill="&#117;rl(http://x)"/>'),
      wrap('<path d="M0 0" stroke="&#x75;rl(http://x)"/>'),
      wrap('<path d="M0 0" fill="u&#114;l(http://x)"/>'),
      // Elements that reference or hold other content.
      wrap('<image href="http://x/a.png" width="1" height="1"/>'),
      wrap('<image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>'),
      wrap('<use href="http://x/a.svg#b"/>'),
      wrap('<use href="#a"/>'),
      `<svg ${SVG} xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 24 24"><path d="M0 0" xlink:href="http://x"/></svg>`,
      `<svg ${SVG} xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 24 24"><path d="M0 0"/></svg>`,
      wrap('<a href="http://x"><path d="M0 0"/></a>'),
      wrap('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>'),
      wrap("<script>alert(1)</script>"),
      wrap('<defs><linearGradient id="a"/></defs>'),
      wrap('<text x="1" y="1">x</text>'),
      // Attributes outside the list: handlers, ids, classes, hrefs, other namespaces.
      wrap('<path d="M0 0"/>', ' onload="go()"'),
      wrap('<path d="M0 0" onclick="go()"/>'),
      wrap('<path d="M0 0" href="http://x"/>'),
      wrap('<path d="M0 0" class="a"/>'),
      wrap('<path d="M0 0" id="a"/>'),
      wrap('<path d="M0 0" filter="url(#f)"/>'),
      wrap('<path d="M0 0" mask="url(#m)"/>'),
      wrap('<path d="M0 0" xml:space="preserve"/>'),
      // Values that are not what their attribute can be.
      wrap('<path d="M0 0 url(http://x)"/>'),
      wrap('<path d="M0 0" transform="translate(1) url(http://x)"/>'),
      wrap('<path d="M0 0" transform="skewX(10)"/>'),
      wrap('<path d="M0 0" fill="rgb(1, 2, 3) url(http://x)"/>'),
      wrap('<path d="M0 0" fill="var(--x)"/>'),
      wrap('<path d="M0 0" fill="red;background:url(http://x)"/>'),
      wrap('<path d="M0 0" fill="#12345"/>'),
      wrap('<path d="M0 0" stroke-width="1em"/>'),
      wrap('<path d="M0 0" stroke-linecap="url(x)"/>'),
      wrap('<path d="M0 0" opacity="calc(1)"/>'),
      `<svg xmlns="http://www.w3.org/2000/svg#" viewBox="0 0 24 24"><path d="M0 0"/></svg>`,
      // Documents: DOCTYPE and entities, processing instructions, comments, CDATA, other roots, text.
      `<!DOCTYPE svg [<!ENTITY u "url(http://x)">]><svg ${SVG}><path d="M0 0" fill="&u;"/></svg>`,
      `<?xml-stylesheet href="http://x/s.css"?><svg ${SVG}><path d="M0 0"/></svg>`,
      wrap('<!-- x --><path d="M0 0"/>'),
      wrap('<title><![CDATA[x]]></title><path d="M0 0"/>'),
      wrap('<path d="M0 0">text</path>'),
      wrap('<title><path d="M0 0"/></title>'),
      `<svg viewBox="0 0 24 24"><path d="M0 0"/></svg>`,
      `<x:svg xmlns:x="http://www.w3.org/2000/svg"><x:path d="M0 0"/></x:svg>`,
      `<g ${SVG}><path d="M0 0"/></g>`,
      wrap('<svg><path d="M0 0"/></svg>'),
      wrap('<path d="M0 0"/><path d="M0 0" d="M1 1"/>'),
      wrap('<path d="M0 0">'),
      wrap('<path d="M0 0" fill="&unknown;"/>'),
      `${wrap('<path d="M0 0"/>')}<svg ${SVG}/>`,
      "not svg",
      `<svg ${SVG}><path d="M0 0" fill="${"a".repeat(20_000)}"/></svg>`,
      undefined,
    ];
    // Each is refused for what it adds: the same icon without it is taken.
    expect(sanitiseIconSvg(wrap('<path d="M0 0"/>'))).toBe(wrap('<path d="M0 0"/>'));
    for (const svg of refused) expect(sanitiseIconSvg(svg), String(svg)).toBeNull();
  });

  it("leaves a refused icon in the PPTX as its screenshot only, without failing the export", async () => {
    const onePixel = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      "base64",
    );
    const good = extracted("check");
    const bad = wrap('<path d="M0 0" style="fill:\\75rl(http://x)"/>');
    const raster = (id: number) =>
      ({ kind: "raster", rect: { x: 10 * id, y: 10, w: 48, h: 48 }, id, alone: false, label: `Icon ${id}` }) as const;
    const bytes = await buildPptx({
      title: "I",
      slides: [
        {
          background: { hex: "FFFFFF", alpha: 1 },
          items: [
            { ...raster(1), svg: good },
            { ...raster(2), svg: bad },
          ],
        },
      ],
      notes: [""],
      rasters: new Map([
        [1, { png: onePixel, width: 48, height: 48, svg: good }],
        [2, { png: onePixel, width: 48, height: 48, svg: bad }],
      ]),
    });
    const parts = await readPptxXml(bytes);
    const [slide] = slideParts(parts);
    expect(attributeValues(slide!, "a:blip", "r:embed")).toHaveLength(2);
    expect(attributeValues(slide!, "asvg:svgBlip", "r:embed")).toHaveLength(1);
    const zip = await JSZip.loadAsync(bytes);
    const svgs = await Promise.all(
      Object.keys(zip.files)
        .filter((name) => name.endsWith(".svg"))
        .map((name) => zip.file(name)!.async("string")),
    );
    expect(svgs).toEqual([closed(good)]);
  });
});
