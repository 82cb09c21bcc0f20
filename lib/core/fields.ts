import { z } from "zod";

// Field schemas shared by the resources' request and response schemas.

// Any 8-4-4-4-12 hex id: a well-formed id that names nothing is a 404, not a validation error.
export const uuid = z.guid({ message: "must be a UUID" });

// Database times go out as ISO 8601 strings; the pipe documents the output as a date-time string.
export const timestamp = z
  .date()
  .transform((d) => d.toISOString())
  .pipe(z.iso.datetime());

// PostgreSQL cannot store U+0000 in text or jsonb, so a NUL character in any input is refused as invalid
// input (422) before it reaches the database. `parseInput` checks every string and field name of a request;
// string fields also carry this refinement so that code parsing with the schemas directly (the app's server
// actions, the editor's drafts) refuses it too, with a message naming the field.
export const NUL = "\u0000";
export const hasNoNul = (value: string) => !value.includes(NUL);
export const nulMessage = (field: string) => `${field} must not contain a NUL character (\\u0000)`;
