// npm run bench [-- api|load|viewer|exports|scale|brands|images|editor|ai-panel|thumbnails|slide-images|pptx-import|ai|analytics] — benchmarks against a production build on the embedded database.
import os from "node:os";
import { benchAi } from "./ai";
import { benchAiPanel } from "./ai-panel";
import { benchAnalytics } from "./analytics";
import { benchApi } from "./api";
import { benchBrands } from "./brands";
import { benchEditor } from "./editor";
import { benchExports } from "./exports";
import { benchImages } from "./images";
import { benchLoad } from "./load";
import { benchPptxImport } from "./pptx-import";
import { benchScale } from "./scale";
import { type BenchRow, type BenchServer, printTable, startBenchServer } from "./server";
import { benchSlideImages } from "./slide-images";
import { benchThumbnails } from "./thumbnails";
import { benchViewer } from "./viewer";

// A suite answers rows of medians, or a table of its own.
type Suite = { title: string; run: (server: BenchServer) => Promise<BenchRow[] | string>; server: boolean };

const suites: Record<string, Suite> = {
  api: { title: "API latency (sequential requests)", run: benchApi, server: true },
  load: { title: "API under load (autocannon against next start)", run: benchLoad, server: true },
  viewer: { title: "Viewer: player bundle and first paint", run: benchViewer, server: true },
  exports: { title: "Exports: 20 slides, warm renderer, median of 5", run: benchExports, server: true },
  scale: {
    title: "Big decks: 20 to 400 slides, PDF and PPTX exports, peak memory, deck check, share page first paint",
    run: benchScale,
    server: true,
  },
  brands: { title: "Brand extraction from the fixture sites (no model)", run: benchBrands, server: true },
  images: {
    title: "Images: remote images imported at write time, first paint of a photo deck",
    run: benchImages,
    server: true,
  },
  editor: {
    title: "Editor: click-to-edit and draft autosave on a 20-slide deck (Chromium, medians of 10)",
    run: benchEditor,
    server: true,
  },
  "ai-panel": {
    title: "AI in the editor without a model: the panel's quoted edit against the API's, medians of 5",
    run: benchAiPanel,
    server: true,
  },
  thumbnails: {
    title:
      "Rail thumbnails: a 20-slide deck's editor opened with and without them, and a code keystroke → its slide's picture (Chromium)",
    run: benchThumbnails,
    server: true,
  },
  "slide-images": {
    title: "Slide images: get_slide_image on a 20-slide deck, cold (one render each) and kept",
    run: benchSlideImages,
    server: true,
  },
  "pptx-import": {
    title: "PowerPoint import: a 50-slide .pptx with a picture on every slide (restyle), median of 5",
    run: benchPptxImport,
    server: true,
  },
  analytics: {
    title: "Analytics: events ingested, and get_deck_analytics over 1,000,000 events (in-process, no server)",
    run: () => benchAnalytics(),
    server: false,
  },
  ai: {
    title: "AI authoring: offline generator and edit token cost (mock model)",
    run: () => benchAi(),
    server: false,
  },
};

async function main() {
  const wanted = process.argv.slice(2);
  const selected = Object.entries(suites).filter(([name]) => wanted.length === 0 || wanted.includes(name));
  const server = selected.some(([, suite]) => suite.server) ? await startBenchServer() : null;
  try {
    console.log(
      `\nDeckhand benchmarks — ${os.cpus().length} cores, Node ${process.version}, ${process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "PGlite"}, next start`,
    );
    for (const [, suite] of selected) {
      const result = await suite.run(server!);
      if (typeof result === "string") console.log(`\n${suite.title}\n\n${result}`);
      else printTable(suite.title, result);
    }
  } finally {
    await server?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
