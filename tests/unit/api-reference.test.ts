import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import ApiReferencePage from "@/app/docs/api/page";
import { operationList } from "@/lib/api/operations";

// /docs/api renders every operation of the document, its schemas and its errors, with no outside asset.
describe("the API reference page", () => {
  it("lists every operation with its method, path and a curl example, and every schema", () => {
    const html = renderToStaticMarkup(createElement(ApiReferencePage));
    for (const op of operationList) {
      expect(html).toContain(`id="${op.id}"`);
      expect(html).toContain(`<code>${op.path}</code>`);
      expect(html).toContain(`href="#${op.id}"`);
    }
    for (const schema of ["Deck", "DeckDetail", "DeckVersion", "Export", "BrandDetail", "Error"]) {
      expect(html).toContain(`id="schema-${schema}"`);
    }
    expect(html).toContain("Authorization: Bearer $DECKHAND_KEY");
    expect(html).toContain("Retry-After");
    // An image's answer names its media types (get_slide_image).
    expect(html).toContain("<code>image/png or image/webp</code>");
    // A body's example carries the key and the content type.
    expect(html).toMatch(/curl -X PUT [^<]*Authorization: Bearer[^<]*Content-Type: application\/json[^<]*-d /);
    expect(html).not.toMatch(/<(script|link)[^>]+(https?:)?\/\//);
  });
});
