import { describe, expect, it } from "vitest";
import { hashPassword, PASSWORD_LINE, PASSWORD_SLOTS, verifyPassword } from "@/lib/auth/passwords";
import { AppError } from "@/lib/core/errors";

// Password hashing takes a CPU core per check (argon2id), so only PASSWORD_SLOTS checks run at once and at most
// PASSWORD_LINE wait; past that a check is refused at once as rate_limited, not queued for ever.
describe("password checks", () => {
  it("run a few at once, keep a bounded line and refuse the rest at once", async () => {
    const encoded = await hashPassword("correct horse");
    let entered = 0;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // Each check holds its slot until the gate opens: what enters shows how many run at once.
    const hold = async () => {
      entered += 1;
      await gate;
    };
    const admitted = Array.from({ length: PASSWORD_SLOTS + PASSWORD_LINE }, (_, index) =>
      verifyPassword(encoded, index === 0 ? "correct horse" : "wrong", hold),
    );
    await expect.poll(() => entered).toBe(PASSWORD_SLOTS);
    const refused = await Promise.allSettled(Array.from({ length: 5 }, () => verifyPassword(encoded, "wrong", hold)));
    for (const result of refused) {
      expect(result.status).toBe("rejected");
      const error = (result as PromiseRejectedResult).reason;
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: "rate_limited", retryAfterSeconds: 1 });
    }
    expect(entered).toBe(PASSWORD_SLOTS);
    open();
    const results = await Promise.all(admitted);
    expect(results[0]).toBe(true);
    expect(results.slice(1).every((right) => right === false)).toBe(true);
    expect(entered).toBe(PASSWORD_SLOTS + PASSWORD_LINE);
    // The line is empty again: a check runs at once.
    expect(await verifyPassword(encoded, "correct horse")).toBe(true);
  }, 60_000);

  it("checks nothing when the hook refuses", async () => {
    const refusal = new Error("link locked");
    await expect(
      verifyPassword(await hashPassword("x"), "x", async () => {
        throw refusal;
      }),
    ).rejects.toBe(refusal);
  });
});
