import type { Page } from "playwright-core";
import { createDeckhandClient } from "@/lib/client";

// A person of the browser app's tests and benchmarks: signed up through the sign-up page, and an API key
// made on the keys page for a typed client of their own.

export type Person = { name: string; email: string; password: string };

export const person = (name: string): Person => ({
  name,
  email: `${name.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@example.test`,
  password: "correct horse battery staple",
});

export async function signUp(page: Page, origin: string, who: Person): Promise<void> {
  await page.goto(`${origin}/sign-up`);
  await page.getByLabel("Name").fill(who.name);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Create account" }).click();
  // Signed in once the library's document is there; its template pictures may still be loading.
  await page.waitForURL(`${origin}/decks`, { waitUntil: "domcontentloaded" });
}

/** A new key from the keys page (signed in), and the typed client that uses it. */
export async function apiOf(page: Page, origin: string, keyName = "e2e") {
  await page.goto(`${origin}/settings/keys`);
  await page.getByLabel("Name").fill(keyName);
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-key").textContent())!.trim();
  return createDeckhandClient({ baseUrl: `${origin}/api/v1`, apiKey: key });
}
