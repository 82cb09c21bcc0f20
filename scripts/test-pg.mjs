// npm run test:pg — the same suite on a PostgreSQL server: makes a fresh database on the server named by
// TEST_PG_ADMIN_URL (default: the local server), runs vitest against it, and drops it afterwards.
import { spawnSync } from "node:child_process";
import pg from "pg";

const adminUrl = process.env.TEST_PG_ADMIN_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const name = `deckhand_test_${process.pid}_${Date.now()}`;

async function admin(sql) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

await admin(`CREATE DATABASE ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
let status;
try {
  const result = spawnSync("npx", ["vitest", "run", ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, TEST_DATABASE_URL: url.toString() },
  });
  status = result.status ?? 1;
} finally {
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
process.exit(status);
