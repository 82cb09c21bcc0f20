// npm run bench [-- api|viewer|exports|brands] — benchmarks against a production build on the embedded database.
import os from "node:os";
import { benchApi } from "./api";
import { benchBrands } from "./brands";
import { benchExports } from "./exports";
import { printTable, startBenchServer } from "./server";
import { benchViewer } from "./viewer";

const suites = {
  api: { title: "API latency (sequential requests)", run: benchApi },
  viewer: { title: "Viewer: player bundle and first paint", run: benchViewer },
  exports: { title: "Exports: 20 slides, warm renderer, median of 5", run: benchExports },
  brands: { title: "Brand extraction from the fixture sites (no model)", run: benchBrands },
} as const;

async function main() {
  const wanted = process.argv.slice(2);
  const selected = Object.entries(suites).filter(([name]) => wanted.length === 0 || wanted.includes(name));
  const server = await startBenchServer();
  try {
    console.log(`\nDeckhand benchmarks — ${os.cpus().length} cores, Node ${process.version}, PGlite, next start`);
    for (const [, suite] of selected) printTable(suite.title, await suite.run(server));
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
