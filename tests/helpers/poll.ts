import { call, type TestUser } from "./api";

// Polls GET /exports/{id} until the export leaves pending/running.
export async function waitForExport(user: TestUser, exportId: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call("GET", `/exports/${exportId}`, { key: user.key });
    if (res.status !== 200) throw new Error(`get_export answered ${res.status}: ${JSON.stringify(res.body)}`);
    if (res.body.status === "completed" || res.body.status === "failed") return res.body;
    if (Date.now() > deadline) throw new Error(`export ${exportId} still ${res.body.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
