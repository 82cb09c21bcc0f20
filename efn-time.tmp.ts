import JSZip from "jszip";
import { buildPptx } from "@/lib/exports/build-pptx";
import { embedShippedFonts } from "@/lib/exports/embed-fonts";
const ink = { hex: "111111", alpha: 1 };
const run = (text: string, font: string, extra = {}) => ({ text, font, size: 40, bold: false, italic: false, underline: false, strike: false, color: ink, letterSpacing: 0, ...extra });
const slide = (n: number) => ({ background: null, items: [run(`Heading ${n}`, "Source Serif 4", { bold: true }), run("Body text of the slide", "Inter"), run("Bold point", "Inter", { bold: true }), run("An aside", "Inter", { italic: true })].map((r, i) => ({ kind: "text" as const, rect: { x: 100, y: 100 + 120 * i, w: 1500, h: 80 }, runs: [r], align: "left" as const, lineHeight: 60, singleLine: false })) });
const input = { title: "T", slides: Array.from({ length: 20 }, (_, i) => slide(i)), notes: Array(20).fill("n"), rasters: new Map() };
const plain = await buildPptx(input);
const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(1);
const build: number[] = [], embed: number[] = [], rezip: number[] = [];
let size = 0;
for (let i = 0; i < 12; i++) {
  let t = performance.now(); await buildPptx(input); build.push(performance.now() - t);
  t = performance.now(); const r = await embedShippedFonts(plain); embed.push(performance.now() - t); size = r.data.length;
  t = performance.now(); await (await JSZip.loadAsync(plain)).generateAsync({ type: "nodebuffer", compression: "DEFLATE" }); rezip.push(performance.now() - t);
}
console.log(JSON.stringify({ buildPptxMs: median(build.slice(2)), embedMs: median(embed.slice(2)), bareRezipMs: median(rezip.slice(2)), plainBytes: plain.length, embeddedBytes: size }));
