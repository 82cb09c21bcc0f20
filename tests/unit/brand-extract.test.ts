import fs from "node:fs";
import path from "node:path";
import postcss from "postcss";
import { describe, expect, it } from "vitest";
import { imagerySchema, paletteSchema, typographySchema, voiceSchema } from "@/lib/brands/brand-book";
import { contrastRatio, deltaE, isDark, readColor } from "@/lib/brands/extract/color-math";
import { buildCssModel, readImportUrl, resolveVars, type Stylesheet } from "@/lib/brands/extract/css-model";
import { cleanTitle, discoverResources, type DiscoveredResources } from "@/lib/brands/extract/discover-resources";
import { type ExtractedBrand, extractBrand } from "@/lib/brands/extract/extract-brand";
import { isFontServiceUrl, parseFontServiceUrl } from "@/lib/brands/extract/font-services";
import { parseHtml } from "@/lib/brands/extract/html-document";
import { extractionLimits } from "@/lib/brands/extract/limits";
import { clusterSamples } from "@/lib/brands/extract/palette";
import { chooseFamily, readFontShorthand } from "@/lib/brands/extract/typography";

const fixtures = path.resolve("tests/fixtures/brand-sites");

type LoadedSite = {
  pageUrl: string;
  resources: DiscoveredResources;
  stylesheets: Stylesheet[];
  brand: ExtractedBrand;
};

// Serves a fixture the way the app's fetcher would: stylesheets the page links plus the ones they
// @import, read from disk; anything on another origin (Google Fonts) is "unreachable", as in tests.
function loadSite(name: string): LoadedSite {
  const pageUrl = `https://${name}.example.com/`;
  const root = path.join(fixtures, name);
  const html = fs.readFileSync(path.join(root, "index.html"), "utf8");
  const resources = discoverResources(html, pageUrl);
  const stylesheets: Stylesheet[] = [];
  const seen = new Set<string>();
  const load = (url: string) => {
    const target = new URL(url);
    if (seen.has(url) || target.origin !== new URL(pageUrl).origin) return;
    seen.add(url);
    const file = path.join(root, decodeURIComponent(target.pathname));
    if (!fs.existsSync(file)) return;
    const css = fs.readFileSync(file, "utf8");
    postcss.parse(css).walkAtRules("import", (rule) => {
      const imported = readImportUrl(rule.params, url);
      if (imported) load(imported);
    });
    stylesheets.push({ url, css });
  };
  for (const url of resources.stylesheets) load(url);
  const brand = extractBrand({ url: pageUrl, html, stylesheets });
  return { pageUrl, resources, stylesheets, brand };
}

function expectColor(actual: string, expected: string, tolerance = 5): void {
  expect(deltaE(actual, expected), `${actual} should be close to ${expected}`).toBeLessThan(tolerance);
}

function expectValidSections(brand: ExtractedBrand): void {
  paletteSchema.parse(brand.palette);
  typographySchema.parse(brand.typography);
  voiceSchema.parse(brand.voice);
  imagerySchema.parse(brand.imagery);
  const { roles, contrast } = brand.palette;
  expect(contrast.textOnBackground).toBeGreaterThanOrEqual(4.5);
  expect(contrast.onPrimary.ratio).toBeCloseTo(contrastRatio(contrast.onPrimary.hex, roles.primary.hex), 1);
  expect(brand.voice.samplePhrases.length).toBeGreaterThanOrEqual(3);
  expect(brand.voice.samplePhrases.length).toBeLessThanOrEqual(5);
  expect(brand.voice.guidelines.length).toBeGreaterThanOrEqual(2);
  expect(brand.voice.guidelines.length).toBeLessThanOrEqual(4);
  expect(brand.voice.readingLevel.grade).toBeGreaterThan(1);
  expect(brand.voice.readingLevel.grade).toBeLessThan(14);
  expect(brand.voice.readingLevel.label).toMatch(/\(grade \d+\)$/);
  expect(brand.imagery.guidelines.length).toBeGreaterThanOrEqual(2);
}

describe("brand extraction from fixture sites", () => {
  it("dark-saas: dark background, custom-property colours, Inter, pill buttons, inline SVG logo", () => {
    const { brand, resources } = loadSite("dark-saas");
    expectValidSections(brand);
    const { roles } = brand.palette;
    expect(brand.name).toBe("Nebula");
    expect(isDark(roles.background.hex)).toBe(true);
    expectColor(roles.background.hex, "#0b0b12");
    expectColor(roles.text.hex, "#e5e7eb");
    expect(isDark(roles.text.hex)).toBe(false);
    expectColor(roles.primary.hex, "#7c3aed");
    expect(roles.primary.source).toContain("button background");
    expect(roles.primary.confidence).toBeGreaterThanOrEqual(0.7);
    expectColor(roles.accent.hex, "#22d3ee");
    expect(roles.accent.source).toContain("--accent");
    expectColor(roles.surface.hex, "#161622", 3);
    expectColor(roles.muted.hex, "#9ca3af");
    expect(roles.secondary.source).toContain("derived");
    expect(brand.palette.contrast.onPrimary.hex).toBe("#ffffff");

    expect(brand.typography.body).toMatchObject({ family: "Inter", category: "sans-serif" });
    expect(brand.typography.heading).toMatchObject({ family: "Inter", category: "sans-serif" });
    expect(brand.typography.heading.weights).toEqual([600, 700]);
    expect(brand.typography.fontSources).toContain("https://dark-saas.example.com/fonts/inter-var.woff2");
    expect(brand.typography.scale.basePx).toBe(16);
    expect(brand.typography.scale.ratio).toBeGreaterThan(1.3);

    expect(resources.stylesheets).toEqual(["https://dark-saas.example.com/styles.css"]);
    const [logo, icon] = resources.logoCandidates;
    expect(logo).toMatchObject({ kind: "svg", source: "inline-svg" });
    if (logo?.kind !== "svg") throw new Error("expected an inline SVG logo");
    expect(logo.svg).toContain('fill="#7c3aed"');
    expect(logo.svg).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(logo.svg).toContain("viewBox");
    expect(logo.svg).not.toContain("<script");
    expect(logo.svg).not.toContain("onclick");
    expect(icon).toMatchObject({ kind: "image", source: "icon", url: "https://dark-saas.example.com/favicon.svg" });

    expect(brand.imagery).toMatchObject({ shapes: "pill", style: "minimal", cornerRadiusPx: 16 });
    expect(brand.voice.samplePhrases[0]).toBe("Ship AI features you can trust");
    expect(brand.voice.tone).toContain("friendly");
    expect(brand.voice.guidelines.join(" ")).toContain("you");
  });

  it("serif-editorial: cream background, deep red links, Playfair Display from the Google Fonts URL", () => {
    const { brand, resources } = loadSite("serif-editorial");
    expectValidSections(brand);
    const { roles } = brand.palette;
    expect(brand.name).toBe("The Ledger");
    expect(isDark(roles.background.hex)).toBe(false);
    expectColor(roles.background.hex, "#fbf7ef");
    expectColor(roles.text.hex, "#1f1a17");
    expectColor(roles.primary.hex, "#9b1c1c");
    expectColor(roles.surface.hex, "#f2eadb", 3);
    expectColor(roles.muted.hex, "#6b625a");

    expect(resources.stylesheets).toEqual([]);
    expect(resources.fontStylesheets).toEqual([
      "https://fonts.googleapis.com/css2?family=Playfair+Display:wght@400;700&family=Source+Sans+3&display=swap",
    ]);
    const { heading, body } = brand.typography;
    expect(heading.family).toBe("Playfair Display");
    expect(["serif", "display"]).toContain(heading.category);
    expect(heading.weights).toEqual([400, 700]);
    expect(heading.source).toContain("Google Fonts");
    expect(body).toMatchObject({ family: "Source Sans 3", category: "sans-serif" });
    expect(brand.typography.scale.basePx).toBe(18);

    expect(resources.logoCandidates[0]).toEqual({
      kind: "image",
      url: "https://serif-editorial.example.com/logo.png",
      source: "header-image",
      width: 240,
      height: 60,
    });
    expect(resources.logoCandidates.map((candidate) => candidate.source)).toEqual([
      "header-image",
      "apple-touch-icon",
      "og-image",
    ]);
    expect(brand.imagery).toMatchObject({ style: "photography", shapes: "sharp" });
  });

  it("external-css: colours and fonts from linked sheets, one of them @imported", () => {
    const { brand, resources, stylesheets } = loadSite("external-css");
    expectValidSections(brand);
    expect(resources.stylesheets).toEqual([
      "https://external-css.example.com/css/base.css",
      "https://external-css.example.com/css/theme.css",
    ]);
    expect(stylesheets.map((sheet) => sheet.url)).toContain("https://external-css.example.com/css/tokens.css");
    const { roles } = brand.palette;
    expect(brand.name).toBe("Verdant");
    expectColor(roles.background.hex, "#ffffff");
    expectColor(roles.text.hex, "#1c2826");
    expectColor(roles.primary.hex, "#047857");
    expect(roles.primary.source).toContain(".button");
    expectColor(roles.secondary.hex, "#b45309");
    expectColor(roles.surface.hex, "#f1f5f3", 3);
    // --color-muted is var(--slate-500, #5b6b67): the fallback applies.
    expectColor(roles.muted.hex, "#5b6b67");

    const { heading, body, mono } = brand.typography;
    expect(body).toMatchObject({ family: "IBM Plex Sans", category: "sans-serif", weights: [400, 600] });
    expect(heading.family).toBe("IBM Plex Sans");
    expect(heading.source).toContain("same as body");
    expect(heading.confidence).toBeLessThan(body.confidence);
    expect(mono).toMatchObject({ family: "IBM Plex Mono", category: "monospace" });
    expect(brand.typography.fontSources).toContain("https://external-css.example.com/fonts/ibm-plex-sans-400.woff2");
    expect(brand.typography.scale.basePx).toBe(17);

    expect(resources.logoCandidates[0]).toMatchObject({
      kind: "image",
      source: "header-image",
      url: "https://external-css.example.com/img/logo.svg",
    });
    expect(brand.imagery).toMatchObject({ shapes: "rounded", cornerRadiusPx: 10 });
  });

  it("inline-svg-logo: primary from the logo fills and theme-color, Space Grotesk over DM Sans", () => {
    const { brand, resources } = loadSite("inline-svg-logo");
    expectValidSections(brand);
    const { roles } = brand.palette;
    expect(brand.name).toBe("Acme Robotics");
    // The prefers-color-scheme: dark block does not make this a dark site.
    expectColor(roles.background.hex, "#ffffff");
    expectColor(roles.text.hex, "#1c1917");
    expectColor(roles.primary.hex, "#ea580c");
    expect(roles.primary.source).toMatch(/theme-color|logo/);
    expectColor(roles.surface.hex, "#fff7ed", 3);

    expect(brand.typography.heading).toMatchObject({ family: "Space Grotesk", category: "sans-serif" });
    expect(brand.typography.body).toMatchObject({ family: "DM Sans", category: "sans-serif" });
    expect(brand.typography.fontSources[0]).toContain("fonts.googleapis.com");

    // The menu icon in the same nav is not a logo candidate.
    expect(resources.logoCandidates).toHaveLength(1);
    const [logo] = resources.logoCandidates;
    if (logo?.kind !== "svg") throw new Error("expected an inline SVG logo");
    expect(logo.source).toBe("inline-svg");
    expect(logo.svg).toContain('aria-label="Acme logo"');
    expect(logo.svg).toContain("#ea580c");
    expect(brand.imagery).toMatchObject({ style: "illustration", shapes: "rounded" });
  });

  it("minimal: a complete, sane brand book from an almost unstyled page", () => {
    const { brand, resources } = loadSite("minimal");
    expectValidSections(brand);
    const { roles } = brand.palette;
    expect(brand.name).toBe("Tinyhttp");
    expect(roles.background.hex).toBe("#ffffff");
    expect(roles.background.source).toContain("default");
    expect(isDark(roles.text.hex)).toBe(true);
    expect(roles.primary.source).toContain("derived");
    expect(roles.primary.confidence).toBeLessThanOrEqual(0.3);
    expect(brand.palette.colors).toEqual([]);
    expect(brand.palette.confidence).toBeLessThan(0.5);

    const { body, heading } = brand.typography;
    expect(body).toMatchObject({ family: "Inter", category: "sans-serif" });
    expect(body.confidence).toBeLessThanOrEqual(0.3);
    expect(body.source).toContain("system font stack");
    expect(body.source).toContain("fell back");
    expect(heading.family).toBe("Inter");
    expect(brand.typography.scale).toEqual({ basePx: 16, ratio: 1.25 });

    expect(resources.logoCandidates).toEqual([]);
    expect(brand.imagery).toMatchObject({ style: "minimal", shapes: "sharp", cornerRadiusPx: 0 });
  });
});

describe("palette", () => {
  it("clusters near-identical colours and keeps distinct ones apart, heaviest first", () => {
    const sample = (hex: string, weight: number, tag: string) => ({ color: readColor(hex)!, weight, tag, label: tag });
    const clusters = clusterSamples(
      [
        sample("#22d3ee", 3, "link"),
        sample("#7c3aed", 8, "button"),
        sample("#7d3bee", 2, "link"),
        sample("#7b39ec", 1, "fill"),
        sample("#000000", 0.5, "shadow"),
      ],
      "#ffffff",
    );
    expect(clusters.map((cluster) => cluster.hex)).toEqual(["#7c3aed", "#22d3ee", "#000000"]);
    expect(clusters[0]!.weight).toBe(11);
    expect([...clusters[0]!.tags.keys()].sort()).toEqual(["button", "fill", "link"]);
  });

  it("makes grey-on-grey text readable and says so", () => {
    const brand = extractBrand({
      url: "https://grey.example.com/",
      html: `<html><head><style>body { background: #777777; color: #888888 } .btn { background: #2563eb; color: #fff }</style></head>
        <body><h1>Grey</h1><p>Hard to read.</p><button class="btn">Go</button></body></html>`,
      stylesheets: [],
    });
    const { roles, contrast } = brand.palette;
    expect(contrast.textOnBackground).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(roles.text.hex, roles.background.hex)).toBeGreaterThanOrEqual(4.5);
    expect(roles.text.source).toContain("adjusted");
    expectColor(roles.background.hex, "#777777", 1);
    expectColor(roles.primary.hex, "#2563eb");
  });

  it("reads a dark page whose background sits on a wrapper, not on body", () => {
    const brand = extractBrand({
      url: "https://wrapped.example.com/",
      html: `<html><head><style>
        body { color: #f4f4f5 }
        #app { background-color: #18181b; min-height: 100vh }
        .btn { background: #f97316 }
      </style></head><body><div id="app"><h1>Dark</h1><button class="btn">Go</button></div></body></html>`,
      stylesheets: [],
    });
    const { roles } = brand.palette;
    expect(roles.background.hex).toBe("#18181b");
    expect(roles.background.source).toContain("inferred");
    expect(roles.text.hex).toBe("#f4f4f5");
  });

  it("flattens translucent colours over the background and reads Tailwind-style opacity variables", () => {
    const brand = extractBrand({
      url: "https://tw.example.com/",
      html: `<html><head><style>
        body { background-color: rgb(15 23 42 / 1); color: rgba(255, 255, 255, 0.9) }
        .bg-indigo-600 { --tw-bg-opacity: 1; background-color: rgb(79 70 229 / var(--tw-bg-opacity)) }
      </style></head><body><a class="bg-indigo-600" href="/start">Start</a></body></html>`,
      stylesheets: [],
    });
    const { roles } = brand.palette;
    expect(roles.background.hex).toBe("#0f172a");
    expect(roles.text.hex).toMatch(/^#[0-9a-f]{6}$/);
    expectColor(roles.text.hex, "#e7e8ea", 3);
    expectColor(roles.primary.hex, "#4f46e5");
  });
});

describe("css model", () => {
  it("resolves var() recursively, with fallbacks, and survives cycles", () => {
    const properties = new Map([
      ["--brand", "#7c3aed"],
      ["--primary", "var(--brand)"],
      ["--a", "var(--b)"],
      ["--b", "var(--a)"],
    ]);
    expect(resolveVars("var(--primary)", properties)).toBe("#7c3aed");
    expect(resolveVars("1px solid var(--missing, var(--primary))", properties)).toBe("1px solid #7c3aed");
    expect(resolveVars("var(--missing, var(--also-missing, 12px))", properties)).toBe("12px");
    expect(resolveVars("var(--missing)", properties)).toBe("var(--missing)");
    expect(resolveVars("linear-gradient(var(--brand), white)", properties)).toBe("linear-gradient(#7c3aed, white)");
    expect(() => resolveVars("var(--a)", properties)).not.toThrow();
  });

  it("takes page-wide custom properties only from selectors that match the page's html/body", () => {
    const document = parseHtml(`<html class="light"><body><button class="btn">Go</button></body></html>`);
    const model = buildCssModel(document, "https://x.example.com/", [
      {
        url: "https://x.example.com/a.css",
        css: `:root { --bg: #fff; --brand: red }
          html.dark { --bg: #000 }
          html.light { --brand: var(--green, #047857) }
          @media (prefers-color-scheme: dark) { :root { --bg: #111 } }
          .btn { background: var(--brand) }`,
      },
    ]);
    expect(model.customProperties.get("--bg")).toBe("#fff");
    expect(model.customProperties.get("--brand")).toBe("#047857");
    const button = model.rules.find((rule) => rule.selector === ".btn");
    expect(button?.targets.has("button")).toBe(true);
    expect(button?.declarations[0]?.value).toBe("#047857");
  });
});

describe("extraction limits", () => {
  it("reads at most extractionLimits.rules rules and clusters at most extractionLimits.distinctColors colours", () => {
    const rules = extractionLimits.rules + 5_000;
    const css = Array.from({ length: rules }, (_, i) => `.c${i}{color:#${(i * 97).toString(16).padStart(6, "0")}}`);
    const model = buildCssModel(parseHtml("<html><body></body></html>"), "https://x.example.com/", [
      { url: "https://x.example.com/a.css", css: css.join("\n") },
    ]);
    expect(model.rules).toHaveLength(extractionLimits.rules);
    // The first rules are the ones read, in cascade order.
    expect(model.rules[0]?.selector).toBe(".c0");

    const samples = Array.from({ length: extractionLimits.distinctColors * 2 }, (_, i) => ({
      color: readColor(`#${(i * 4099).toString(16).padStart(6, "0").slice(-6)}`)!,
      tag: "text-other",
      weight: i < extractionLimits.distinctColors ? 2 : 1,
      label: "x",
    }));
    const clusters = clusterSamples(samples, "#ffffff");
    const clustered = clusters.reduce((sum, cluster) => sum + cluster.members.length, 0);
    expect(clustered).toBe(extractionLimits.distinctColors);
    // The most used colours are the ones kept.
    expect(clusters.every((cluster) => cluster.members.every((member) => member.weight === 2))).toBe(true);
  });
});

describe("fonts", () => {
  it("reads family names and weights from Google-Fonts-style URLs", () => {
    expect(
      parseFontServiceUrl(
        "https://fonts.googleapis.com/css2?family=Playfair+Display:wght@400;700&family=Source+Sans+3&display=swap",
      ),
    ).toEqual([
      { family: "Playfair Display", weights: [400, 700] },
      { family: "Source Sans 3", weights: [] },
    ]);
    expect(parseFontServiceUrl("https://fonts.googleapis.com/css2?family=Inter:ital,wght@0,400;0,600;1,400")).toEqual([
      { family: "Inter", weights: [400, 600] },
    ]);
    expect(parseFontServiceUrl("https://fonts.googleapis.com/css2?family=Inter:wght@100..900")).toEqual([
      { family: "Inter", weights: [100, 900] },
    ]);
    expect(parseFontServiceUrl("https://fonts.googleapis.com/css?family=Roboto:400,700italic|Open+Sans")).toEqual([
      { family: "Roboto", weights: [400, 700] },
      { family: "Open Sans", weights: [] },
    ]);
    expect(parseFontServiceUrl("https://example.com/styles.css")).toEqual([]);
    expect(isFontServiceUrl("https://fonts.bunny.net/css?family=inter:400")).toBe(true);
    expect(isFontServiceUrl("https://fonts.example-cdn.com/inter.css")).toBe(true);
    expect(isFontServiceUrl("https://example.com/assets/fonts/inter.css")).toBe(false);
    expect(isFontServiceUrl("https://example.com/assets/site.css")).toBe(false);
  });

  it("tells a chosen face from a system stack", () => {
    expect(chooseFamily(["Inter", "-apple-system", "BlinkMacSystemFont", "sans-serif"])).toBe("Inter");
    expect(chooseFamily(["-apple-system", "BlinkMacSystemFont", "Segoe UI", "Roboto", "sans-serif"])).toBeNull();
    expect(chooseFamily(["Segoe UI", "Roboto", "Helvetica Neue", "Arial", "sans-serif"])).toBeNull();
    expect(chooseFamily(["Segoe UI", "Tahoma", "sans-serif"])).toBe("Segoe UI");
    expect(chooseFamily(["system-ui", "sans-serif"])).toBeNull();
    expect(readFontShorthand('italic 700 1.25rem/1.4 "Inter", sans-serif')).toEqual({
      weight: 700,
      size: "1.25rem",
      families: '"Inter", sans-serif',
    });
  });
});

describe("resource discovery", () => {
  it("cleans the site name out of the title", () => {
    expect(cleanTitle("Acme — Home")).toBe("Acme");
    expect(cleanTitle("Pricing | Acme", "https://www.acme.com/pricing")).toBe("Acme");
    expect(cleanTitle("Acme Robotics – Home")).toBe("Acme Robotics");
  });

  it("orders logo candidates and separates font stylesheets", () => {
    const resources = discoverResources(
      `<html><head>
        <base href="https://cdn.example.com/site/">
        <link rel="stylesheet" href="main.css">
        <link rel="preload" as="style" href="late.css">
        <link rel="stylesheet" href="print.css" media="print">
        <link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter">
        <link rel="icon" href="favicon.ico">
        <link rel="icon" href="icon-512.png" sizes="512x512">
        <link rel="apple-touch-icon" href="touch.png">
        <meta property="og:image" content="/og.png">
        <meta property="og:site_name" content="Example Co">
      </head><body>
        <section class="customer-logos"><img src="clients/globex-logo.png" alt="Globex logo"></section>
        <header><a href="/"><img src="brand/logo.svg" alt="Example"></a></header>
      </body></html>`,
      "https://example.com/",
    );
    expect(resources.siteName).toBe("Example Co");
    expect(resources.stylesheets).toEqual([
      "https://cdn.example.com/site/main.css",
      "https://cdn.example.com/site/late.css",
    ]);
    expect(resources.fontStylesheets).toEqual(["https://fonts.googleapis.com/css2?family=Inter"]);
    expect(resources.logoCandidates.map((candidate) => (candidate.kind === "image" ? candidate.url : "svg"))).toEqual([
      "https://cdn.example.com/site/brand/logo.svg",
      "https://cdn.example.com/site/icon-512.png",
      "https://cdn.example.com/site/touch.png",
      "https://cdn.example.com/site/favicon.ico",
      "https://cdn.example.com/og.png",
    ]);
  });
});
