// Runs once when the server starts (see instrumentation-node.ts for what it does). The Node.js part is
// imported only in that runtime, as Next.js asks, so the Edge build does not bundle it.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { registerNode } = await import("./instrumentation-node");
  await registerNode();
}
