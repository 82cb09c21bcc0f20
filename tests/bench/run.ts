// npm run bench [-- api|viewer|exports|brands|ai] — benchmarks against a production build on the embedded database.
import os from "node:os";
import { benchAi } from "./ai";
import { benchApi } from "./api";
import { benchBrands } from "./brands";
import { benchExports } from "./exports";
import { type BenchRow, type BenchServer, printTable, startBenchServer } from "./server";
import { benchViewer } from "./viewer";

type Suite = { title: string; run: (server: BenchServer) => Promise<BenchRow[]>; server: boolean };

const suites: Record<string, Suite> = {
  api: { title: "API latency (sequential requests)", run: benchApi, server: true },
  viewer: { title: "Viewer: player bundle and first paint", run: benchViewer, server: true },
  exports: { title: "Exports: 20 slides, warm renderer, median of 5", run: benchExports, server: true },
  brands: { title: "Brand extraction from the fixture sites (no model)", run: benchBrands, server: true },
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
    console.log(`\nDeckhand benchmarks — ${os.cpus().length} cores, Node ${process.version}, PGlite, next start`);
    for (const [, suite] of selected) printTable(suite.title, await suite.run(server!));
  } finally {
    await server?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
