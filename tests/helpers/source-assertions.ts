import { expect } from "vitest";
import { AppError } from "@/lib/core/errors";

// Assertions of the source transformations' tests (lib/source/transform).

/** The AppError `run` throws, checked to be a refusal (`invalid_request`). */
export function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("invalid_request");
    return error as AppError;
  }
  throw new Error("expected a refusal");
}

/** `after` is `before` with [start, end) replaced by `text`: every other byte is identical. */
export function expectSplice(before: string, after: string, start: number, end: number, text: string): void {
  expect(after.slice(0, start)).toBe(before.slice(0, start));
  expect(after.slice(start, after.length - (before.length - end))).toBe(text);
  expect(after.slice(after.length - (before.length - end))).toBe(before.slice(end));
}
