import { afterAll, describe, expect, it } from "vitest";
import { compileDeck } from "@/lib/source/compile";
import { addSlide } from "@/lib/source/transform/edit";
import { slideLayouts } from "@/lib/source/transform/layouts";
import { starterSource } from "@/lib/source/starter";
import { closeRenderBrowser } from "@/lib/render/browser";
import { checkViewable } from "@/lib/render/check-deck";

// The visual editor's gallery drawn by the deck check as the exporter draws it: a starter deck with one
// slide of every layout added (lib/source/transform/layouts.ts) has no finding, so a slide added from the
// gallery never starts out broken.

afterAll(async () => {
  await closeRenderBrowser();
});

describe("the new-slide gallery in the deck check", () => {
  it("draws every layout without a finding", async () => {
    let source = starterSource("slides", "Gallery");
    slideLayouts.forEach((layout, index) => {
      source = addSlide(source, "slides", { after: index + 1, layout: layout.id });
    });
    const { compiledJs, outline } = await compileDeck({ source, format: "slides" });
    expect(outline.slice(2)).toEqual(slideLayouts.map((layout) => layout.name));
    const result = await checkViewable({
      deck: {
        id: "gallery",
        organizationId: "gallery",
        title: "Gallery",
        description: "",
        format: "slides",
        organization: "",
      },
      version: { version: 0, format: "deck-tsx", tokensCss: "", compiledJs, html: null },
    });
    expect(result.slides).toBe(outline.length);
    expect(result.findings).toEqual([]);
  }, 120_000);
});
