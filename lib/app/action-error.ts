import { z } from "zod";
import { ApiError } from "@/lib/api/errors";

// What a server action tells the person when a domain function refuses: the ApiError's message (the same
// text the API sends) or the first validation message. Anything else is a bug and is rethrown.
export function actionErrorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof z.ZodError) return error.issues[0]?.message ?? "Check the form and try again.";
  throw error;
}
