// A WebSocket-to-Postgres proxy like the one Neon documents for local development: each WebSocket
// connection to /v1?address=host:port is piped, byte for byte, to a TCP connection to that address. Only
// loopback PostgreSQL addresses are accepted (tests never reach anywhere else). Plain JavaScript, so the
// test:neon script and TypeScript tests can both start it.
import net from "node:net";
import { WebSocketServer } from "ws";

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

/** Starts the proxy on a free loopback port: `{ address: "127.0.0.1:PORT", connections, close }`. */
export async function startNeonWsProxy() {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const stats = { connections: 0 };
  server.on("connection", (socket, request) => {
    const target = new URL(request.url ?? "/", "ws://proxy").searchParams.get("address") ?? "";
    const match = /^(.+):(\d+)$/.exec(target);
    if (!match || !LOOPBACK.has(match[1].replace(/^\[|\]$/g, ""))) {
      socket.close(1008, "only loopback addresses");
      return;
    }
    stats.connections += 1;
    const upstream = net.connect(Number(match[2]), match[1].replace(/^\[|\]$/g, ""));
    const pending = [];
    upstream.on("connect", () => {
      for (const chunk of pending.splice(0)) upstream.write(chunk);
    });
    socket.on("message", (data) => {
      const chunk = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
      if (upstream.connecting) pending.push(chunk);
      else upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      if (socket.readyState === socket.OPEN) socket.send(chunk);
    });
    const end = () => {
      upstream.destroy();
      if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close();
    };
    socket.on("close", end);
    socket.on("error", end);
    upstream.on("close", end);
    upstream.on("error", end);
  });
  const { port } = server.address();
  return {
    address: `127.0.0.1:${port}`,
    stats,
    close: () =>
      new Promise((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
