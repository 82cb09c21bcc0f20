import { probeDatabase } from "@/lib/db/client";
import { probeDataFolder } from "@/lib/storage/storage";
import { logger } from "@/lib/core/log";

// GET /api/health/ready — readiness: whether this instance can serve requests now. It runs a trivial
// statement on the database (at most 2 s) and writes a small file in DATA_DIR when the embedded database or
// the local file store keeps its files there; 503 with Retry-After when either fails, so a load balancer
// sends requests elsewhere until the database answers again or the disk has room. `/api/health` (liveness)
// stays 200 meanwhile: restarting the process would not bring the database back or free the disk.
// The answer names which check failed, not why (the causes are in the failed requests' log lines); each
// change of the answer is logged once.

export const dynamic = "force-dynamic";

const PROBE_TIMEOUT_MS = 2000;
const RETRY_AFTER_SECONDS = 5;
const log = logger("readiness");

let last: string | undefined;

export async function GET(): Promise<Response> {
  const [database, storage] = await Promise.all([probeDatabase(PROBE_TIMEOUT_MS), probeDataFolder()]);
  const ready = database === "ok" && storage !== "full" && storage !== "unwritable";
  const body = { status: ready ? "ok" : "unavailable", database, storage };
  const state = JSON.stringify(body);
  if (state !== last) {
    last = state;
    log[ready ? "info" : "warn"](ready ? "ready" : "not ready", body);
  }
  return Response.json(body, {
    status: ready ? 200 : 503,
    headers: { "Cache-Control": "no-store", ...(ready ? {} : { "Retry-After": String(RETRY_AFTER_SECONDS) }) },
  });
}
