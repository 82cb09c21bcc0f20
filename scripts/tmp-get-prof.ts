import { call, createUser } from "@/tests/helpers/api";
import { twentySlideModule } from "@/tests/bench/api";
const user = await createUser();
const ids: string[] = [];
for (let i = 0; i < 5; i++) {
  const deck = (await call("POST", "/decks", { key: user.key, body: { title: "P" + i } })).body;
  await call("PUT", `/decks/${deck.id}/content`, { key: user.key, body: { source: twentySlideModule(i) } });
  ids.push(deck.id);
}
for (let i = 0; i < 300; i++) await call("GET", i % 2 ? `/decks/${ids[i % 5]}` : "/decks", { key: user.key });
const m = 2000; const c2 = process.cpuUsage(); const t2 = performance.now();
for (let i = 0; i < m; i++) { const r = await call("GET", i % 2 ? `/decks/${ids[i % 5]}` : "/decks", { key: user.key }); if (r.status !== 200) throw new Error("get"); }
const u2 = process.cpuUsage(c2);
console.log("GET deck/list: node cpu ms/op", ((u2.user + u2.system) / 1000 / m).toFixed(3), "wall", ((performance.now() - t2) / m).toFixed(3));
process.exit(0);
