import PptxGenJS from "pptxgenjs";
import sharp from "sharp";
import { type BenchRow, type BenchServer, percentile } from "./server";

// Issue 36: the time POST /decks/import takes for a 50-slide PowerPoint file with a picture on every slide
// (a title, four bullets, a 1600x1200 JPEG each; written by pptxgenjs), end to end: upload, reading on the
// worker thread, pictures stored, the deck compiled and written.

const SLIDES = 50;
const RUNS = 5;

async function photo(seed: number): Promise<Buffer> {
  const hue = (seed * 47) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200"><rect width="1600" height="1200" fill="hsl(${hue},70%,45%)"/><circle cx="${400 + (seed % 7) * 100}" cy="600" r="300" fill="hsl(${(hue + 180) % 360},60%,50%)"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

async function fiftySlides(run: number): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.layout = "LAYOUT_WIDE";
  for (let index = 0; index < SLIDES; index++) {
    const slide = pptx.addSlide();
    slide.addText(`Slide ${index + 1}: what we learned`, { x: 0.5, y: 0.3, w: 12, h: 1, fontSize: 36, bold: true });
    slide.addText(
      ["First point", "Second point", "Third point", "Fourth point"].map((text) => ({
        text: `${text} of slide ${index + 1}`,
        options: { bullet: true, breakLine: true },
      })),
      { x: 0.5, y: 1.6, w: 6, h: 4, fontSize: 20 },
    );
    const jpeg = await photo(run * SLIDES + index);
    slide.addImage({
      data: `image/jpeg;base64,${jpeg.toString("base64")}`,
      x: 7,
      y: 1.6,
      w: 5.5,
      h: 4.1,
      altText: `Photo ${index + 1}`,
    });
    slide.addNotes(`Notes of slide ${index + 1}`);
  }
  return (await pptx.write({ outputType: "nodebuffer" })) as Buffer;
}

export async function benchPptxImport(server: BenchServer): Promise<BenchRow[]> {
  const times: number[] = [];
  let size = 0;
  for (let run = 0; run <= RUNS; run++) {
    const file = await fiftySlides(run);
    size = file.length;
    const started = performance.now();
    const res = await fetch(`${server.api}/decks/import?mode=restyle`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${server.key}`,
        "content-type": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
      },
      body: new Uint8Array(file),
    });
    if (res.status !== 201) throw new Error(`import answered ${res.status}: ${await res.text()}`);
    if (run > 0) times.push(performance.now() - started); // the first run warms the server and its worker
  }
  return [
    {
      label: `import a ${SLIDES}-slide .pptx with ${SLIDES} pictures (${(size / 1024 / 1024).toFixed(1)} MB)`,
      n: times.length,
      median: percentile(times, 50),
      p95: percentile(times, 95),
    },
  ];
}
