// A fresh, empty database on a PostgreSQL server for one test run (npm run test:pg, test:neon): made on the
// server named by TEST_PG_ADMIN_URL (default: the local server), handed to `run` as a URL, dropped after.
import pg from "pg";

const adminUrl = process.env.TEST_PG_ADMIN_URL || "postgres://postgres@127.0.0.1:5432/postgres";

async function admin(sql) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function withFreshDatabase(prefix, run) {
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await run(url.toString());
  } finally {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}
