import { oklch, wcagContrast } from "culori";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/core/errors";
import type { Imagery, Palette, Typography } from "@/lib/brands/brand-book";
import { synthesizeTokensCss } from "@/lib/brands/synthesize-tokens";
import { fontStack } from "@/lib/contract/fonts";
import { brandTokensCss } from "@/lib/decks/create-deck";
import { parseTokensCss, reserializeStoredTokensCss } from "@/lib/source/tokens";
import { defaultTokensCss, themeTokens } from "@/lib/source/theme-tokens";
import { statusOf } from "@/lib/api/status";

function refusal(css: string): AppError {
  try {
    parseTokensCss(css);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("compile_failed");
    return error as AppError;
  }
  throw new Error("expected tokensCss to be refused");
}

describe("parseTokensCss accepts", () => {
  it("the default theme, with every token", () => {
    const parsed = parseTokensCss(defaultTokensCss);
    expect(parsed.css).toBe(defaultTokensCss);
    expect(parsed.imports).toEqual([]);
    expect(Object.keys(parsed.properties)).toEqual(themeTokens.map((token) => token.name));
    expect(parsed.properties["--font-body"]).toContain('"Inter"');
  });

  it("font imports before :root, comments, !important and var() references", () => {
    const css = `
      /* Brand: Lumen */
      @import url("https://fonts.googleapis.com/css2?family=Inter:wght@400;700&display=swap");
      @import url(https://fonts.example.com/serif.css);
      @import 'https://fonts.example.com/mono.css';
      :root {
        /* colours */
        --color-primary: #0a7 !important;
        --color-on-accent: var(--color-bg);
        --font-heading: "Source Serif 4", serif;
        --color-primary: #123456;
      }
    `;
    const parsed = parseTokensCss(css);
    // Re-serialised: comments dropped, imports written as url("…"), one declaration per line.
    expect(parsed.css).toBe(
      [
        '@import url("https://fonts.googleapis.com/css2?family=Inter:wght@400;700&display=swap");',
        '@import url("https://fonts.example.com/serif.css");',
        '@import url("https://fonts.example.com/mono.css");',
        ":root {",
        "  --color-primary: #0a7 !important;",
        "  --color-on-accent: var(--color-bg);",
        '  --font-heading: "Source Serif 4", serif;',
        "  --color-primary: #123456;",
        "}",
      ].join("\n"),
    );
    expect(parsed.imports).toEqual([
      "https://fonts.googleapis.com/css2?family=Inter:wght@400;700&display=swap",
      "https://fonts.example.com/serif.css",
      "https://fonts.example.com/mono.css",
    ]);
    expect(parsed.properties).toEqual({
      "--color-primary": "#123456",
      "--color-on-accent": "var(--color-bg)",
      "--font-heading": '"Source Serif 4", serif',
    });
  });
});

describe("parseTokensCss refuses", () => {
  it("a CSS syntax error, with line and column", () => {
    const error = refusal(":root {\n  --color-bg: #fff;\n");
    expect(error.message).toContain("Line 1:1: Unclosed block");
  });

  it("a selector other than :root", () => {
    const error = refusal(":root { --a: 1; }\nbody { --b: 2; }");
    expect(error.message).toContain('Line 2:1: Selector "body" is not allowed');
  });

  it("a second :root block", () => {
    expect(refusal(":root { --a: 1; }\n:root { --b: 2; }").message).toContain("second :root");
  });

  it("a normal property inside :root", () => {
    const error = refusal(":root {\n  --a: 1;\n  color: red;\n}");
    expect(error.message).toContain('Line 3:3: "color" is not a custom property');
  });

  it("a declaration outside any rule", () => {
    expect(refusal("--a: 1;\n:root { --b: 2; }").message).toContain("must be inside the :root block");
  });

  it("a nested rule inside :root", () => {
    expect(refusal(":root { --a: 1; .x { --b: 2; } }").message).toContain(
      'nested rule ".x" is not allowed inside :root',
    );
  });

  it("an at-rule inside :root", () => {
    expect(refusal(":root { --a: 1; @media print { --b: 2; } }").message).toContain(
      "@media is not allowed inside :root",
    );
  });

  it("other top-level at-rules", () => {
    expect(
      refusal('@font-face { font-family: X; src: url("https://x.test/x.woff2"); }\n:root { --a: 1; }').message,
    ).toContain("@font-face is not allowed");
  });

  it("an @import after :root", () => {
    expect(refusal(':root { --a: 1; }\n@import url("https://fonts.example.com/a.css");').message).toContain(
      "@import must come before the :root block",
    );
  });

  it("an @import that is not https", () => {
    expect(refusal('@import url("http://fonts.example.com/a.css");\n:root { --a: 1; }').message).toContain(
      "must use https:",
    );
    expect(refusal('@import "data:text/css,body{}";\n:root { --a: 1; }').message).toContain("must use https:");
    expect(refusal('@import "fonts.css";\n:root { --a: 1; }').message).toContain("not an absolute URL");
  });

  it("an @import with media queries or layers", () => {
    expect(refusal('@import url("https://fonts.example.com/a.css") print;\n:root { --a: 1; }').message).toContain(
      "with nothing after the URL",
    );
  });

  it('"<" anywhere, including values and comments', () => {
    expect(refusal(":root {\n  --a: '</style><script>alert(1)</script>';\n}").message).toContain(
      'Line 2:9: "<" is not allowed',
    );
    expect(refusal("/* </style> */\n:root { --a: 1; }").message).toContain('Line 1:4: "<" is not allowed');
  });

  it("a missing or empty :root", () => {
    expect(refusal("").message).toContain("needs a :root");
    expect(refusal("/* nothing */").message).toContain("needs a :root");
    expect(refusal(":root { /* empty */ }").message).toContain("declares no custom properties");
  });
});

// The red-team payload: postcss lets a quoted string run across lines, a browser ends it at the line
// break and reads `}` (closing :root) and `body::after{…}` as new rules in the viewer.
const injection = [
  ":root {",
  "  --color-bg: #fff;",
  '  --font-note: "Inter',
  "}",
  "body::after{content:'injected';position:fixed;inset:0;background:red}",
  '";',
  "}",
].join("\n");

describe("parseTokensCss refuses values a browser would read as more than one token value", () => {
  it("the injection payload: a line break inside a quoted string, naming the token and the fix", () => {
    const error = refusal(injection);
    expect(statusOf(error)).toBe(422);
    expect(error.message).toBe(
      'tokensCss: Line 3:3: --font-note: the quoted string "Inter has a line break in it; CSS strings end at the line break, so close the quote on the same line',
    );
  });

  it.each([
    ["a CR line break", ':root { --a: "x\r}body{color:red}\r"; }'],
    ["a form feed", ':root { --a: "x\f}body{color:red}\f"; }'],
    ["a single-quoted string", ":root {\n  --a: 'x\n}\nbody{color:red}\n';\n}"],
  ])("a line break inside a string: %s", (_, css) => {
    expect(refusal(css).message).toMatch(/--a: the quoted string .* has a line break in it/);
  });

  it("an escaped line break inside a string (a browser's line continuation)", () => {
    expect(refusal(':root {\n  --a: "x\\\n}\nbody{color:red}\n";\n}').message).toContain(
      '--a: the quoted string "x has a backslash before a line break',
    );
  });

  it("a string the browser never sees closed", () => {
    expect(refusal(":root { --a: 'unterminated; }").message).toContain("Unclosed string");
    expect(refusal(':root { --a: "escaped quote\\"; }').message).toContain("Unclosed string");
  });

  it.each([
    ["}", ":root { --a: [}]; }"],
    ["{", ":root { --a: {color: red}; }"],
    [";", ":root { --a: foo(;); }"],
  ])('"%s" outside a string', (character, css) => {
    expect(refusal(css).message).toContain(`--a: the value has "${character}" outside quotes`);
  });

  it("a backslash outside a string (an escape that postcss and a browser may read differently)", () => {
    expect(refusal(":root { --a: x\\}; }").message).toContain("--a: the value has a backslash outside quotes");
    expect(refusal(":root { --a: x\\;} :root { --b: 1; }").message).toContain("backslash outside quotes");
  });

  it("comments that a browser starts where postcss sees a string", () => {
    // A browser ends "x at the line break, so /*"; --b: "*/ is a comment and `} body{…}` a rule.
    const css = ':root {\n  --a: "x\n/*";\n  --b: "*/ } body{color:red} /*";\n  --c: "*/";\n}';
    expect(refusal(css).message).toContain("--a: the quoted string");
    expect(refusal(":root { --a: 1 /* never closed; }").message).toContain("Unclosed comment");
  });

  it("unbalanced brackets", () => {
    expect(refusal(":root { --a: 1); }").message).toContain('--a: the value has a ")" that closes nothing');
    expect(refusal(":root { --a: calc(1px]; }").message).toContain("Unclosed bracket");
  });

  it("unquoted url() with braces, quotes or spaces", () => {
    expect(refusal(":root { --a: url(x;y{z}); }").message).toContain('--a: the unquoted url(…) contains "{"');
  });

  it("NUL and other control characters", () => {
    expect(refusal(':root { --a: "a\u0000b"; }').message).toContain(
      "--a: the value contains the control character U+0000",
    );
    expect(refusal(":root { --a: a\u0008b; }").message).toContain("U+0008");
  });

  it('"<" in a value, so </style> cannot close the element', () => {
    expect(refusal(':root { --a: "</style>"; }').message).toContain('"<" is not allowed');
  });

  it("a token name with escapes or other characters", () => {
    expect(refusal(":root { --a\\:b: 1; }").message).toContain("is not a valid token name");
  });

  it("an @import URL that could end its string", () => {
    expect(refusal("@import 'https://fonts.example.com/a\"b.css';\n:root { --a: 1; }").message).toContain(
      "percent-encode it",
    );
  });
});

describe("parseTokensCss keeps well-formed values and re-serialises them", () => {
  it.each([
    ["a font stack with quoted names", '"Source Serif 4", "Helvetica Neue", Arial, sans-serif'],
    ["single-quoted names", "'Noto Sans JP', sans-serif"],
    ["colours", "#0a7"],
    ["rgb()", "rgb(10 20 30 / 50%)"],
    ["hsl()", "hsl(210deg 40% 50%)"],
    ["clamp()", "clamp(1rem, 2vw + 1px, 3rem)"],
    ["calc() in var() fallbacks", "var(--space, calc(8px * 2))"],
    ["var()", "var(--color-bg)"],
    ["a quoted data: url", 'url("data:image/svg+xml;utf8,%3Csvg xmlns=%27http://www.w3.org/2000/svg%27%3E%3C/svg%3E")'],
    ["an unquoted data: url", "url(data:image/png;base64,iVBORw0KGgo=)"],
    ["a CSS escape inside a string", '"\\201C"'],
    ["braces and semicolons inside a string", '"a;b{c}"'],
    ["a number", "1.25"],
  ])("%s", (_, value) => {
    const css = `:root { --x: ${value}; }`;
    const parsed = parseTokensCss(css);
    expect(parsed.properties["--x"]).toBe(value);
    expect(parsed.css).toBe(css);
  });

  it("collapses whitespace outside strings and drops comments", () => {
    const parsed = parseTokensCss(
      ':root {\n  --font-body:\n    "Inter",   /* the brand face */\n    sans-serif;\n  --a: x/**/y;\n}',
    );
    expect(parsed.css).toBe(':root {\n  --font-body: "Inter", sans-serif;\n  --a: x y;\n}');
  });

  it("keeps the author's layout: a one-line :root stays on one line", () => {
    const css = '@import url("https://fonts.example/inter.css");\n:root { --color-primary: #0a7; --b: 2; }';
    expect(parseTokensCss(css).css).toBe(css);
    expect(parseTokensCss(":root {\n  --color-primary: #123456;\n}").css).toBe(
      ":root {\n  --color-primary: #123456;\n}",
    );
  });

  it("writes what it stores from the model only: the output parses back to itself", () => {
    for (const css of [defaultTokensCss, ":root { --a: 1 ! important; --b: 'x' }", "/* c */ :root{--a:1}"]) {
      const once = parseTokensCss(css).css;
      expect(parseTokensCss(once).css).toBe(once);
      expect(once).not.toContain("/*");
    }
    expect(parseTokensCss(":root { --a: 1 ! important; --b: 'x' }").css).toBe(":root { --a: 1 !important; --b: 'x'; }");
  });

  it("leaves the brand synthesiser's tokens exactly as written, even for names read from a website", () => {
    const book = brandBook({ heading: "Acme Display", body: "Inter" });
    const css = synthesizeTokensCss(book);
    expect(parseTokensCss(css).css).toBe(css);
    expect(reserializeStoredTokensCss(css)).toBe(css);
  });
});

describe("synthesizeTokensCss: brand tones that read", () => {
  const ratio = (css: string, a: string, b: string) => {
    const value = (name: string) => new RegExp(`${name}: (#[0-9a-f]{6});`).exec(css)![1]!;
    return wcagContrast(value(a), value(b));
  };

  it("moves a tone that does not read on a dark brand's page toward its text colour, and keeps its fills readable", () => {
    const book = brandBook({ heading: "Inter", body: "Inter" });
    Object.assign(book.palette.roles, {
      background: { hex: "#0b0d12", source: "test", confidence: 1 },
      surface: { hex: "#161a22", source: "test", confidence: 1 },
      text: { hex: "#f5f5f4", source: "test", confidence: 1 },
      muted: { hex: "#5b6170", source: "test", confidence: 1 },
    });
    // The brand's blue on its near-black page: 3.4:1, under the check's 4.5:1.
    expect(wcagContrast("#1d4ed8", "#0b0d12")).toBeLessThan(4.5);
    const css = synthesizeTokensCss(book);
    for (const tone of ["--color-primary", "--color-secondary", "--color-accent", "--color-muted"]) {
      expect(ratio(css, tone, "--color-bg"), tone).toBeGreaterThanOrEqual(4.5);
      expect(ratio(css, tone, "--color-surface"), tone).toBeGreaterThanOrEqual(4.5);
    }
    expect(ratio(css, "--color-on-primary", "--color-primary")).toBeGreaterThanOrEqual(4.5);
    expect(ratio(css, "--color-on-accent", "--color-accent")).toBeGreaterThanOrEqual(4.5);
    // The hue is the brand's: still a blue.
    const primary = /--color-primary: (#[0-9a-f]{6});/.exec(css)![1]!;
    expect(Math.abs((oklch(primary)?.h ?? 0) - (oklch("#1d4ed8")?.h ?? 0))).toBeLessThan(25);
  });

  it("reads the old synthesiser's default body size (32px) of a stored brand as today's, and keeps any other", () => {
    expect(brandTokensCss({ tokensCss: ":root {\n  --type-base: 32px;\n  --radius: 8px;\n}" })).toBe(
      ":root {\n  --type-base: 48px;\n  --radius: 8px;\n}",
    );
    expect(brandTokensCss({ tokensCss: ":root {\n  --type-base: 40px;\n}" })).toBe(":root {\n  --type-base: 40px;\n}");
    expect(brandTokensCss({})).toBeNull();
  });

  it("writes a face as the theme panel does (one fontStack), a brand's own face before the shipped one", () => {
    const css = synthesizeTokensCss(brandBook({ heading: "Lato", body: "Acme Sans" }));
    expect(css).toContain(`--font-heading: ${fontStack("Lato")};`);
    expect(fontStack("Lato")).toBe('"Lato", "Helvetica Neue", Arial, system-ui, sans-serif');
    expect(css).toContain('--font-body: "Acme Sans", "Inter", "Helvetica Neue", Arial, system-ui, sans-serif;');
  });

  it("leaves a light brand's tones that already read as they are", () => {
    const css = synthesizeTokensCss(brandBook({ heading: "Inter", body: "Inter" }));
    expect(css).toContain("--color-primary: #1d4ed8;");
    expect(css).toContain("--color-on-primary: #ffffff;");
  });
});

describe("reserializeStoredTokensCss (rows stored before the fix, brand tokens)", () => {
  it("drops the injected value and keeps the valid tokens", () => {
    expect(reserializeStoredTokensCss(injection)).toBe(":root {\n  --color-bg: #fff;\n}");
  });

  it("drops rules, at-rules and properties the strict parser refuses", () => {
    const stored = [
      '@import url("https://fonts.example/a.css");',
      '@import url("http://insecure.example/b.css");',
      "@font-face { font-family: X; }",
      ":root { --a: 1; color: red; --b: x\\}; --c: 'ok'; }",
      "body { --d: 2; }",
    ].join("\n");
    expect(reserializeStoredTokensCss(stored)).toBe(
      "@import url(\"https://fonts.example/a.css\");\n:root { --a: 1; --c: 'ok'; }",
    );
  });

  it("answers null when nothing valid is left or the text is not CSS", () => {
    expect(reserializeStoredTokensCss(null)).toBeNull();
    expect(reserializeStoredTokensCss("")).toBeNull();
    expect(reserializeStoredTokensCss(":root { --a: 1")).toBeNull();
    expect(reserializeStoredTokensCss(':root {\n  --a: "x\n}\nbody{}\n";\n}')).toBeNull();
  });

  it("keeps a brand font whose name a website filled with a line break and braces harmless", () => {
    const css = synthesizeTokensCss(brandBook({ heading: "Evil\n}\nbody{color:red}\n", body: "Inter" }));
    // The synthesiser drops what could end the string or the rule; the tokens are valid as they are.
    expect(() => parseTokensCss(css)).not.toThrow();
    expect(css).toContain('--font-heading: "Evilbodycolor:red"');
    const stored = reserializeStoredTokensCss(css);
    expect(stored).not.toMatch(/body\s*\{/);
    expect(stored).toContain("--font-body");
    // A stored row from before (the name as it was) loses the declaration, not the sheet.
    const old =
      ':root {\n  --font-heading: "Evil\n}\nbody{color:red}\n", serif;\n  --font-body: "Inter", sans-serif;\n}';
    const cleaned = reserializeStoredTokensCss(old);
    expect(cleaned).not.toMatch(/body\s*\{/);
    expect(cleaned).not.toContain("--font-heading");
    expect(cleaned).toContain("--font-body");
  });
});

function brandBook(fonts: { heading: string; body: string }) {
  const role = (hex: string) => ({ hex, source: "test", confidence: 1 });
  const palette = {
    roles: {
      primary: role("#1d4ed8"),
      secondary: role("#0f766e"),
      accent: role("#c2410c"),
      background: role("#ffffff"),
      surface: role("#f5f5f4"),
      text: role("#111111"),
      muted: role("#555555"),
    },
    colors: [],
    contrast: {
      textOnBackground: 18,
      textOnSurface: 17,
      onPrimary: { hex: "#ffffff", ratio: 6 },
      onAccent: { hex: "#ffffff", ratio: 5 },
    },
    confidence: 1,
  } satisfies Palette;
  const face = (family: string) => ({
    family,
    category: "sans-serif" as const,
    weights: [400],
    source: "test",
    confidence: 1,
  });
  const typography = {
    heading: face(fonts.heading),
    body: face(fonts.body),
    mono: null,
    scale: { basePx: 16, ratio: 1.25 },
    fontSources: [],
  } satisfies Typography;
  const imagery = {
    style: "minimal",
    shapes: "rounded",
    cornerRadiusPx: 8,
    guidelines: [],
    confidence: 1,
  } satisfies Imagery;
  return { palette, typography, imagery };
}
