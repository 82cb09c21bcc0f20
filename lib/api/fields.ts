import { z } from "zod";

// Field schemas shared by the resources' request and response schemas.

// Any 8-4-4-4-12 hex id: a well-formed id that names nothing is a 404, not a validation error.
export const uuid = z.guid({ message: "must be a UUID" });

// Database times go out as ISO 8601 strings; the pipe documents the output as a date-time string.
export const timestamp = z
  .date()
  .transform((d) => d.toISOString())
  .pipe(z.iso.datetime());
