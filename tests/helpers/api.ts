import { randomUUID } from "node:crypto";
import { createKeyForEmail } from "@/lib/auth/accounts";
import { getDb } from "@/lib/db/client";
import { dispatch } from "./app-router";

// Calls the real route handlers with real Request objects, routed the way Next routes app/api/v1.

export type ApiResponse<T = any> = { status: number; body: T; headers: Headers }; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function call(
  method: string,
  path: string,
  options: {
    key?: string | null;
    body?: unknown;
    rawBody?: string | Uint8Array<ArrayBuffer> | FormData;
    headers?: Record<string, string>;
  } = {},
): Promise<ApiResponse> {
  const url = new URL(`http://localhost/api/v1${path}`);
  const headers = new Headers(options.headers);
  if (options.key) headers.set("authorization", `Bearer ${options.key}`);
  let body: string | Uint8Array<ArrayBuffer> | FormData | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers.set("content-type", "application/json");
  }
  const response = await dispatch(new Request(url, { method, headers, body }));
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

/**
 * Rate-limit windows are aligned to multiples of their length (in the database's clock). Waits, if needed, for
 * the next window to begin so at least `roomSeconds` of the current one remain: a burst that takes less than
 * that fits in one window however slow the machine or the database driver is.
 */
export async function windowWithRoom(windowSeconds: number, roomSeconds: number): Promise<void> {
  const left = windowSeconds * 1000 - (Date.now() % (windowSeconds * 1000));
  if (left < roomSeconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
