import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { renderClientTypes, typesFile } from "@/scripts/generate-client-types";

// The typed client's types are generated from the OpenAPI document; this fails when they drift from it.
describe("the typed client", () => {
  it("has types generated from the current OpenAPI document (run `npm run client:generate`)", async () => {
    expect(fs.readFileSync(typesFile, "utf8")).toBe(await renderClientTypes());
  });
});
