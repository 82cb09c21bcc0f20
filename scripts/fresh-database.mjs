// Databases on a PostgreSQL server for test runs (npm run test:pg, test:neon), made on the server named by
// TEST_PG_ADMIN_URL (default: the local server): a fresh one for the run, clones of it for each test file
// (tests/helpers/postgres-per-file.ts), all dropped afterwards.
import pg from "pg";

const adminUrl = process.env.TEST_PG_ADMIN_URL || "postgres://postgres@127.0.0.1:5432/postgres";

async function admin(sql) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

function urlOf(name) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const identifier = (name) => {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a database name: ${name}`);
  return name;
};

/** Runs `run` with the URL of a new empty database, dropped after it, with every clone made of it. */
export async function withFreshDatabase(prefix, run) {
  const name = identifier(`${prefix}_${process.pid}_${Date.now()}`);
  await admin(`CREATE DATABASE ${name}`);
  try {
    return await run(urlOf(name));
  } finally {
    const clones = await admin(`SELECT datname FROM pg_database WHERE datname LIKE '${name}\\_%'`);
    for (const { datname } of clones.rows) await dropDatabase(urlOf(datname));
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

/** Copies the database at `templateUrl` (nobody may be connected to it) into a new one; returns its URL. */
export async function cloneDatabase(templateUrl, name) {
  const template = identifier(new URL(templateUrl).pathname.slice(1));
  await admin(`CREATE DATABASE ${identifier(name)} TEMPLATE ${template}`);
  const url = new URL(templateUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropDatabase(url) {
  await admin(`DROP DATABASE IF EXISTS ${identifier(new URL(url).pathname.slice(1))} WITH (FORCE)`);
}
