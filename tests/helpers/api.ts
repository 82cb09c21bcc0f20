import { randomUUID } from "node:crypto";
import { createKeyForEmail } from "@/lib/auth/accounts";
import { getDb } from "@/lib/db/client";

// Calls the real route handlers with real Request objects, routed the way Next routes app/api/v1.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route declares its own params
type Handler = (req: Request, ctx: { params: Promise<any> }) => Response | Promise<Response>;
type RouteModule = Partial<Record<string, Handler>>;

const routes: [RegExp, string[], () => Promise<RouteModule>][] = [
  [/^\/instructions$/, [], () => import("@/app/api/v1/instructions/route")],
  [/^\/decks$/, [], () => import("@/app/api/v1/decks/route")],
  [/^\/decks\/([^/]+)$/, ["id"], () => import("@/app/api/v1/decks/[id]/route")],
  [/^\/decks\/([^/]+)\/content$/, ["id"], () => import("@/app/api/v1/decks/[id]/content/route")],
  [/^\/decks\/([^/]+)\/versions$/, ["id"], () => import("@/app/api/v1/decks/[id]/versions/route")],
  [
    /^\/decks\/([^/]+)\/versions\/([^/]+)$/,
    ["id", "version"],
    () => import("@/app/api/v1/decks/[id]/versions/[version]/route"),
  ],
  [
    /^\/decks\/([^/]+)\/versions\/([^/]+)\/revert$/,
    ["id", "version"],
    () => import("@/app/api/v1/decks/[id]/versions/[version]/revert/route"),
  ],
  // Next.js falls back to the catch-all when nothing more specific matches.
  [/^\/(.*)$/, ["path"], () => import("@/app/api/v1/[...path]/route")],
];

export type ApiResponse<T = any> = { status: number; body: T; headers: Headers }; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function call(
  method: string,
  path: string,
  options: { key?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const url = new URL(`http://localhost/api/v1${path}`);
  const route = routes.find(([pattern]) => pattern.test(url.pathname.slice("/api/v1".length)));
  if (!route) throw new Error(`No route for ${path}`);
  const match = route[0].exec(url.pathname.slice("/api/v1".length))!;
  const params = Object.fromEntries(route[1].map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
  const handler = (await route[2]())[method];
  if (!handler) return { status: 405, body: null, headers: new Headers() };

  const headers = new Headers(options.headers);
  if (options.key) headers.set("authorization", `Bearer ${options.key}`);
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers.set("content-type", "application/json");
  }
  const response = await handler(new Request(url, { method, headers, body }), { params: Promise.resolve(params) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

export type TestUser = { key: string; userId: string; organizationId: string; email: string };

// A fresh user with a key; pass an organization name to put several users in one organization.
export async function createUser(options: { org?: string } = {}): Promise<TestUser> {
  const email = `user-${randomUUID()}@example.test`;
  const result = await createKeyForEmail(await getDb(), { email, orgName: options.org ?? `org-${randomUUID()}` });
  return { key: result.key, userId: result.userId, organizationId: result.organizationId, email };
}
