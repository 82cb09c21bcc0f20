import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { nulRefusedByDatabase } from "@/lib/api/input";

// What a server action tells the person when a domain function refuses: the AppError's message (the same
// text the API sends), the first validation message, or the database's refusal of a NUL character that
// got past the forms. Anything else is a bug and is rethrown.
export function actionErrorMessage(error: unknown): string {
  if (error instanceof AppError) return error.message;
  if (error instanceof z.ZodError) return error.issues[0]?.message ?? "Check the form and try again.";
  const nul = nulRefusedByDatabase(error);
  if (nul) return nul.message;
  throw error;
}
