import type { Db } from "@/lib/db/types";

// Who is acting: a user within one organization, through an API key (or, later, a browser session).
export type Caller = {
  userId: string;
  organizationId: string;
  apiKeyId: string | null;
};

// What every domain function receives besides its input.
export type Ctx = { db: Db; caller: Caller };
