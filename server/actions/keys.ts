"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/server/action";
import { createKey, keyNameInput, revokeKey } from "@/lib/auth/key-management";
import { uuid } from "@/lib/core/fields";

// Settings → API keys: issue a key (shown once), revoke one.

export const createKeyAction = defineAction({
  input: z.strictObject({ name: keyNameInput }),
  run: async (ctx, { name }) => ({ key: (await createKey(ctx, name)).key, name }),
  onSuccess: () => revalidatePath("/settings/keys"),
});

export const revokeKeyAction = defineAction({
  input: z.strictObject({ id: uuid }),
  run: (ctx, { id }) => revokeKey(ctx, id),
  onSuccess: () => revalidatePath("/settings/keys"),
});
