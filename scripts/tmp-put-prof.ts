import { call, createUser } from "@/tests/helpers/api";
import { twentySlideModule } from "@/tests/bench/api";
const user = await createUser();
const deck = (await call("POST", "/decks", { key: user.key, body: { title: "P" } })).body;
const bodies = Array.from({ length: 8 }, (_, i) => twentySlideModule(100 + i));
for (let i = 0; i < 30; i++) await call("PUT", `/decks/${deck.id}/content`, { key: user.key, body: { source: bodies[i % 8] } });
const n = 150; const c = process.cpuUsage(); const t = performance.now();
for (let i = 0; i < n; i++) {
  const r = await call("PUT", `/decks/${deck.id}/content`, { key: user.key, body: { source: bodies[i % 8] } });
  if (r.status !== 200) throw new Error(String(r.status) + JSON.stringify(r.body));
}
const u = process.cpuUsage(c);
console.log("PUT /content: node cpu ms/op", ((u.user + u.system) / 1000 / n).toFixed(2), "wall", ((performance.now() - t) / n).toFixed(2), "chars", bodies[0]!.length);
const m = 300; const c2 = process.cpuUsage(); const t2 = performance.now();
for (let i = 0; i < m; i++) { const r = await call("GET", `/decks/${deck.id}`, { key: user.key }); if (r.status !== 200) throw new Error("get"); }
const u2 = process.cpuUsage(c2);
console.log("GET deck: node cpu ms/op", ((u2.user + u2.system) / 1000 / m).toFixed(2), "wall", ((performance.now() - t2) / m).toFixed(2));
process.exit(0);
