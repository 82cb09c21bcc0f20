import fs from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markdownToDeck } from "@/lib/ai/offline/generate-deck";
import { compileDeck } from "@/lib/source/compile";
import { stopLocalRunner } from "@/lib/jobs/local-runner";
import { closeRenderBrowser } from "@/lib/render/browser";
import { call, createUser, type TestUser } from "../helpers/api";
import { type AppServer, startAppServer } from "../helpers/app-server";
import { launchBrowser, openSlide } from "../helpers/browser";
import { setUpTestDatabase } from "../helpers/database";
import { publishDeck } from "../helpers/decks";

// The sample briefs and decks through the offline generator, published and drawn by the player in
// Chromium: every slide is screenshotted to /tmp/offline-shots/<sample>-<n>.png for a person to look at,
// and no slide may carry the player's overflow mark. The decks' image URLs (http://localhost:8799/…) are
// given as data: URLs of the fixture images, as an upload would store them (frames load no remote images).

const SHOTS = "/tmp/offline-shots";
const DECKS = "/tmp/offline-decks";
const samples = path.join(import.meta.dirname, "../fixtures/samples");
const names = ["qbr-brief.md", "launch-brief.txt", "marp-deck.md", "slidev-deck.md"];

let server: AppServer;
let browser: Browser;
let author: TestUser;

beforeAll(async () => {
  await setUpTestDatabase();
  server = await startAppServer();
  process.env.APP_URL = server.origin;
  browser = await launchBrowser();
  author = await createUser();
  fs.rmSync(SHOTS, { recursive: true, force: true });
  fs.mkdirSync(SHOTS, { recursive: true });
  fs.mkdirSync(DECKS, { recursive: true });
}, 120_000);

afterAll(async () => {
  stopLocalRunner();
  await closeRenderBrowser();
  await browser?.close();
  await server?.close();
});

function withInlineImages(markdown: string): string {
  return markdown.replace(/http:\/\/localhost:8799\/([\w.-]+\.png)/g, (_, file: string) => {
    const bytes = fs.readFileSync(path.join(samples, "images", file));
    return `data:image/png;base64,${bytes.toString("base64")}`;
  });
}

describe("the sample decks in the player", () => {
  it.each(names)(
    "%s: every slide drawn, none overflowing",
    async (name) => {
      const markdown = withInlineImages(fs.readFileSync(path.join(samples, name), "utf8"));
      const deck = markdownToDeck(markdown);
      const base = name.replace(/\.\w+$/, "");
      fs.writeFileSync(path.join(DECKS, `${base}.tsx`), deck.source);
      const { outline } = await compileDeck({ source: deck.source, format: "slides" });
      const published = await publishDeck(author, { source: deck.source });

      const overflowing: string[] = [];
      const bands: string[] = [];
      const wide: string[] = [];
      for (let slide = 1; slide <= outline.length; slide++) {
        const { page, frame } = await openSlide(
          browser,
          server.origin,
          published.slug,
          slide,
          path.join(SHOTS, `${base}-${slide}.png`),
        );
        const state = await frame.evaluate((n) => {
          const section = document.querySelector<HTMLElement>(
            `.dh-stage-slide:not([hidden]) .dh-slide[data-slide="${n}"]`,
          );
          return {
            errors: document.querySelectorAll(".dh-error").length,
            overflow:
              section?.matches("[data-dh-overflow]") === true || section?.querySelector("[data-dh-overflow]") !== null,
            text: section?.textContent?.trim().length ?? 0,
            // The tallest band of a content slide's safe area that none of its elements reaches (0-1).
            band: (() => {
              if (!section || section.getAttribute("data-layout") !== "content") return 0;
              const box = section.getBoundingClientRect();
              const scale = box.width / section.offsetWidth;
              const style = getComputedStyle(section);
              const top = box.top + Number.parseFloat(style.paddingTop) * scale;
              const bottom = box.bottom - Number.parseFloat(style.paddingBottom) * scale;
              const spans = [...section.children]
                .filter((child) => !child.matches(".dh-slide-image, .dh-logo-pinned, [data-dh-pseudo]"))
                .map((child) => child.getBoundingClientRect())
                .map((rect) => [Math.max(top, rect.top), Math.min(bottom, rect.bottom)])
                .filter(([from, to]) => to! > from!)
                .sort((a, b) => a[0]! - b[0]!);
              if (spans.length < 2) return 0; // a Title alone: a title slide, composed around the middle
              let largest = 0;
              let reached = top;
              for (const [from, to] of spans) {
                largest = Math.max(largest, from! - reached);
                reached = Math.max(reached, to!);
              }
              return Math.max(largest, bottom - reached) / (bottom - top);
            })(),
          };
        }, slide);
        bands.push(`${slide} ${outline[slide - 1]}: ${Math.round(state.band * 100)}%`);
        if (state.band > 0.25) wide.push(`${slide} ${outline[slide - 1]}: ${Math.round(state.band * 100)}%`);
        expect(state.errors, `${name} slide ${slide}`).toBe(0);
        expect(state.text, `${name} slide ${slide}`).toBeGreaterThan(0);
        if (state.overflow) overflowing.push(`${slide} ${outline[slide - 1]}`);
        await page.context().close();
      }
      expect(overflowing).toEqual([]);
      // Content slides use the canvas: no blank band over a quarter of the safe area's height.
      expect(wide, bands.join("; ")).toEqual([]);

      // The deck check draws the deck as the PDF export does: no finding of severity "error".
      const check = await call("GET", `/decks/${published.id}/check`, { key: author.key });
      expect(check.status, JSON.stringify(check.body)).toBe(200);
      const findings = check.body.findings as Array<{ severity: string; kind: string; label: string; message: string }>;
      const errors = findings
        .filter((finding) => finding.severity === "error")
        .map((finding) => `${finding.label}: ${finding.kind} ${finding.message}`);
      expect(errors).toEqual([]);
      // Nor anything a room cannot read, or a slide left half empty.
      const unreadable = findings
        .filter((finding) => finding.kind === "small-text" || finding.kind === "empty-space")
        .map((finding) => `${finding.label}: ${finding.message}`);
      expect(unreadable).toEqual([]);
    },
    180_000,
  );
});
