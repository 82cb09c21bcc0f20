import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NextServer, startNextServer } from "../helpers/next-server";

// Refusals that only the real server shows (`next start` of the production build): each must reach the client
// as a readable answer. A server action from another origin is a 403 and runs nothing (Next.js answered its own
// CSRF refusal with a 500); a request body over the API's 2 MB is the spec's JSON error, sent with a
// Content-Length or chunked, not a connection reset. Requests are raw HTTP (node:http) on loopback, which,
// unlike fetch, shows a reset for what it is.

let server: NextServer;
let key: string;

beforeAll(async () => {
  server = await startNextServer({ withApiKey: true });
  key = server.key;
}, 600_000);

afterAll(async () => {
  await server?.stop();
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/**
 * Sends a request with node:http and waits until both the answer has been read and the body sent (or the
 * connection failed). `chunked` sends the body without a Content-Length, in pieces. A reset before the answer
 * was read rejects; the error of sending the body after the answer is given back as `sendError`.
 */
function send(
  method: string,
  route: string,
  headers: Record<string, string>,
  body: Buffer = Buffer.alloc(0),
  options: { chunked?: boolean } = {},
): Promise<Answer & { sendError?: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(route, server.origin);
    const request = http.request(url, {
      method,
      agent: false,
      headers: options.chunked ? headers : { ...headers, "content-length": String(body.length) },
    });
    let answer: Answer | undefined;
    let sent = false;
    let sendError: string | undefined;
    const settle = () => {
      if (answer && (sent || sendError)) resolve({ ...answer, ...(sendError ? { sendError } : {}) });
    };
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        answer = { status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString() };
        settle();
      });
      response.on("error", (error) => reject(error));
    });
    request.on("error", (error: NodeJS.ErrnoException) => {
      if (!answer) reject(new Error(`no answer: ${error.code ?? error.message}`));
      sendError = error.code ?? error.message;
      settle();
    });
    request.on("finish", () => {
      sent = true;
      settle();
    });
    // In 64 KB pieces, each written when the connection takes it.
    let offset = 0;
    const writeMore = () => {
      while (offset < body.length) {
        const piece = body.subarray(offset, offset + 64 * 1024);
        offset += piece.length;
        if (!request.write(piece)) return void request.once("drain", writeMore);
      }
      request.end();
    };
    writeMore();
  });
}

describe("a request body over 2 MB", () => {
  // Far more than the kernel's socket buffers take in at once on loopback (a few MB), so that a server that
  // stops reading is seen: 3 MB fit in them whole.
  const oversized = Buffer.from(JSON.stringify({ title: "x".repeat(24 * 1024 * 1024) }));

  for (const chunked of [false, true]) {
    const how = chunked ? "sent chunked" : "with its Content-Length";
    it(`is answered with the spec's JSON error, not a connection reset: ${how}`, async () => {
      const res = await send(
        "POST",
        "/api/v1/decks",
        { authorization: `Bearer ${key}`, "content-type": "application/json" },
        oversized,
        { chunked },
      );
      expect(res.status, res.body).toBe(422);
      expect(res.headers["content-type"]).toMatch(/^application\/json/);
      expect(JSON.parse(res.body)).toEqual({
        error: { code: "payload_too_large", message: "The request body is larger than 2 MB." },
      });
      // The rest of the body was read and dropped: sending it did not fail either.
      expect(res.sendError, JSON.stringify(res.headers)).toBeUndefined();
    });

    it(`is answered readably when the request is refused before its body is read (no key): ${how}`, async () => {
      const res = await send("POST", "/api/v1/decks", { "content-type": "application/json" }, oversized, { chunked });
      expect(res.status, res.body).toBe(401);
      expect(JSON.parse(res.body).error.code).toBe("unauthorized");
      expect(res.sendError, JSON.stringify(res.headers)).toBeUndefined();
    });
  }

  // The MCP endpoint's transport has a limit of its own (4 MB) and its own refusal: a JSON-RPC error, 413.
  for (const chunked of [false, true]) {
    it(`is answered at the MCP endpoint with the transport's 413, over its 4 MB: ${chunked ? "sent chunked" : "with its Content-Length"}`, async () => {
      const message = { jsonrpc: "2.0", id: 1, method: "ping", params: { padding: "x".repeat(24 * 1024 * 1024) } };
      const res = await send(
        "POST",
        "/api/v1/mcp",
        {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        Buffer.from(JSON.stringify(message)),
        { chunked },
      );
      expect(res.status, res.body).toBe(413);
      expect(JSON.parse(res.body)).toMatchObject({
        jsonrpc: "2.0",
        error: { message: expect.stringMatching(/Payload Too Large/) },
      });
      expect(res.sendError, JSON.stringify(res.headers)).toBeUndefined();
    });
  }

  it("leaves the server answering: a body within the limit still creates a deck", async () => {
    const body = Buffer.from(JSON.stringify({ title: "Within the limit" }));
    const res = await send(
      "POST",
      "/api/v1/decks",
      { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body,
    );
    expect(res.status, res.body).toBe(201);
  });
});

describe("a server action sent from another origin", () => {
  // The sign-up action's id, from the build's manifest of server actions.
  function signUpActionId(): string {
    const manifest = JSON.parse(
      fs.readFileSync(path.resolve(".next/server/server-reference-manifest.json"), "utf8"),
    ) as { node: Record<string, { filename?: string; exportedName?: string }> };
    const found = Object.entries(manifest.node).find(
      ([, entry]) => entry.exportedName === "signUpAction" && entry.filename === "server/actions/auth.ts",
    );
    if (!found) throw new Error("signUpAction is not in the build's server-reference manifest");
    return found[0];
  }

  // The request the sign-up form's fetch action makes, with the given Origin.
  const signUp = (origin: string, email: string) =>
    send(
      "POST",
      "/sign-up",
      {
        origin,
        accept: "text/x-component",
        "next-action": signUpActionId(),
        "content-type": "text/plain;charset=UTF-8",
      },
      Buffer.from(JSON.stringify([{ name: "Mallory", email, password: "correct horse battery staple" }])),
    );

  it("is refused with a 403, and runs nothing; the same request from the app's own origin runs", async () => {
    const email = `csrf-${Date.now()}@example.test`;
    for (const origin of ["https://evil.example", "null"]) {
      const refused = await signUp(origin, email);
      expect(refused.status, refused.body).toBe(403);
      expect(refused.headers["content-type"]).toBe("text/plain; charset=utf-8");
      expect(refused.body).toMatch(/sent from another site/);
    }
    // Had a refused call run, the account would exist and this sign-up would be refused as a duplicate (no
    // redirect); it signs up and is sent on to the library.
    const own = await signUp(server.origin, email);
    expect(own.status, own.body).toBeLessThan(400);
    expect(own.headers["x-action-redirect"], own.body).toMatch(/\/decks\b/);
  });
});
