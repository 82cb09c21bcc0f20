import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api/errors";
import { parseTokensCss } from "@/lib/deck/tokens";
import { defaultTokensCss, themeTokens } from "@/lib/deck/vocabulary";

function refusal(css: string): ApiError {
  try {
    parseTokensCss(css);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("compile_failed");
    return error as ApiError;
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
    expect(parsed.css).toBe(css.trim());
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
