import { DrizzleQueryError } from "drizzle-orm/errors";
import { describe, expect, it } from "vitest";
import { describeError, faultError, faultOf } from "@/lib/core/faults";
import { statusOf } from "@/lib/api/status";

// The one place that tells failures of what the service stands on from bugs (issue 34, items 9 and 12).
const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
const failedQuery = (cause: unknown) =>
  new DrizzleQueryError(
    "insert into deck_versions (source) values ($1)",
    ["S".repeat(4991) + "\n    at X"],
    cause as Error,
  );

describe("faults", () => {
  it.each([
    [withCode("terminating connection due to administrator command", "57P01"), "connection"],
    [withCode("the database system is starting up", "57P03"), "connection"],
    [withCode("connection failure", "08006"), "connection"],
    [withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"), "connection"],
    [new Error("Connection terminated unexpectedly"), "connection"],
    [new Error("Connection terminated due to connection timeout"), "connection"],
    [new Error("Client has encountered a connection error and is not queryable"), "connection"],
    [new Error("Query read timeout"), "connection"],
    [withCode("sorry, too many clients already", "53300"), "unavailable"],
    [withCode("canceling statement due to statement timeout", "57014"), "unavailable"],
    [new Error("timeout exceeded when trying to connect"), "unavailable"],
    [withCode('could not extend file "base/5/16965": No space left on device', "53100"), "disk_full"],
    [withCode("ENOSPC: no space left on device, write", "ENOSPC"), "disk_full"],
    [withCode("EDQUOT: disk quota exceeded, write", "EDQUOT"), "disk_full"],
  ])("classifies %s as %s, inside a failed query too", (error, kind) => {
    expect(faultOf(error)?.kind).toBe(kind);
    expect(faultOf(failedQuery(error))?.kind).toBe(kind);
  });

  it("leaves everything else to be a bug", () => {
    expect(faultOf(withCode("duplicate key value violates unique constraint", "23505"))).toBeNull();
    expect(faultOf(new TypeError("Cannot read properties of undefined"))).toBeNull();
    expect(faultError(new Error("boom"))).toBeNull();
  });

  it("answers 503 and 507 with Retry-After", () => {
    const lost = faultError(failedQuery(new Error("Connection terminated unexpectedly")))!;
    expect([lost.code, statusOf(lost), lost.retryAfterSeconds]).toEqual(["service_unavailable", 503, 2]);
    const full = faultError(failedQuery(withCode("No space left on device", "53100")))!;
    expect([full.code, statusOf(full), full.retryAfterSeconds]).toEqual(["insufficient_storage", 507, 60]);
  });

  it("describes a failed query by its SQL and its cause, never its parameters", () => {
    const described = describeError(failedQuery(withCode("could not extend file: No space left on device", "53100")));
    expect(described.message).toBe(
      "Error: Failed query: insert into deck_versions (source) values ($1) (1 parameters, 5000 characters, not logged)",
    );
    expect(described.causes).toEqual(["Error [53100]: could not extend file: No space left on device"]);
    expect(JSON.stringify(described)).not.toContain("SSSS");
    expect(described.stack).toMatch(/^\s+at /);
    expect(described.stack).not.toContain("at X");
  });
});
