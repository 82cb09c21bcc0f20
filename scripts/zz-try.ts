import fs from "node:fs";
import { readPptx } from "@/lib/import/pptx/read-pptx";
const f = process.argv[2];
const d = readPptx(fs.readFileSync("/work/shared/samples/pptx/" + f));
const strip = (k: string, v: any) => (v instanceof Uint8Array ? `<${v.length} bytes>` : v);
console.log(JSON.stringify({ ...d, slides: d.slides.slice(0, Number(process.argv[3] ?? 99)) }, strip).slice(0, Number(process.argv[4] ?? 3000)));
