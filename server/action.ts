import { randomUUID } from "node:crypto";
import { unstable_rethrow } from "next/navigation";
import { z } from "zod";
import { toAppError } from "@/lib/api/handler";
import { withRequestId } from "@/lib/core/log";
import { describeIssues, parseInput } from "@/lib/api/input";
import type { Ctx } from "@/lib/auth/caller";
import { AppError, type ErrorCode } from "@/lib/core/errors";
import { type LimitClass, rateLimitError, takeRateLimit } from "@/lib/limits/rate-limit";
import { getAppContext } from "./context";

// The one wrapper of the app's server actions, what `route(operations.x)` is to the API: the session
// becomes the API's Ctx (the user and their current organization), the user takes one request from their
// rate limit, the input is validated with the API's zod schemas (a NUL character refused first, then each
// field by its schema, limits included), and whatever goes wrong comes back as one result type a component
// can show. Next.js's own control flow (`redirect()`, `notFound()`) passes through untouched.
//
//   export const revokeKeyAction = defineAction({
//     input: z.strictObject({ id: uuid }),
//     run: (ctx, { id }) => revokeKey(ctx, id),
//     onSuccess: () => revalidatePath("/settings/keys"),
//   });
//
// An action is called with its input (`revokeKeyAction({ id })`) or by a form through `useActionState`
// (`(previous, formData)`: the form's fields are the input). `runAs(ctx, input)` runs it as the caller of
// `ctx` without the session lookup and without `onSuccess`, which is how tests call it.

export type ActionError = { code: ErrorCode; message: string };
export type ActionResult<T> = { ok: true; value: T } | { ok: false; error: ActionError };

/** An action as a form calls it through `useActionState`. */
export type FormAction<T> = (previous: ActionResult<T> | null, form: FormData) => Promise<ActionResult<T>>;

export type ServerAction<I, T> = {
  (input: I): Promise<ActionResult<T>>;
  (previous: ActionResult<T> | null, form: FormData): Promise<ActionResult<T>>;
};

export type SessionAction<I, T> = ServerAction<I, T> & {
  /** The action as the caller of `ctx`: rate limit, validation, run; no session lookup, no `onSuccess`. */
  runAs(ctx: Ctx, input: unknown): Promise<ActionResult<T>>;
};

type Common<S extends z.ZodType, T> = {
  /** The input's schema: the API's, so the app accepts exactly what the API accepts. */
  input: S;
  /** What the page does after a success: revalidate, set cookies, `redirect()`. Next.js code goes here. */
  onSuccess?: (value: T, input: z.output<S>) => void | Promise<void>;
};

export type ActionSpec<S extends z.ZodType, T> = Common<S, T> & {
  /** The rate-limit class the user's request counts against, as for an operation ("slow" for AI, brands). */
  rateLimit?: LimitClass;
  /** The domain call, with the same Ctx an API key gets. */
  run: (ctx: Ctx, input: z.output<S>) => Promise<T>;
};

/** A server action of a signed-in person. */
export function defineAction<S extends z.ZodType, T>(spec: ActionSpec<S, T>): SessionAction<z.input<S>, T> {
  const attempt = (session: () => Promise<Ctx>, raw: unknown, followUp: boolean) =>
    settle(async () => {
      const ctx = await session();
      const rate = await takeRateLimit(ctx.db, `user:${ctx.caller.userId}`, spec.rateLimit ?? "default");
      if (rate.exceeded) throw rateLimitError(rate);
      const input = parseInput(spec.input, raw, "");
      const value = await spec.run(ctx, input);
      if (followUp) await spec.onSuccess?.(value, input);
      return value;
    });
  const action = (...args: unknown[]) => attempt(sessionCtx, inputOf(args), true);
  return Object.assign(action, { runAs: (ctx: Ctx, input: unknown) => attempt(async () => ctx, input, false) });
}

/** A server action of the sign-in pages, where there is no session yet (sign in, sign up, sign out). */
export function definePublicAction<S extends z.ZodType, T>(
  spec: Common<S, T> & { run: (input: z.output<S>) => Promise<T> },
): ServerAction<z.input<S>, T> {
  return (...args: unknown[]) =>
    settle(async () => {
      const input = parseInput(spec.input, inputOf(args), "");
      const value = await spec.run(input);
      await spec.onSuccess?.(value, input);
      return value;
    });
}

async function sessionCtx(): Promise<Ctx> {
  const context = await getAppContext();
  if (!context) throw new AppError("unauthorized", "Your session has ended. Sign in again.");
  return context.ctx;
}

// Runs an action as one request: the lines it logs name its id (lib/core/log.ts).
async function settle<T>(work: () => Promise<T>): Promise<ActionResult<T>> {
  const requestId = `action-${randomUUID()}`;
  return withRequestId(requestId, async (): Promise<ActionResult<T>> => {
    try {
      return { ok: true, value: await work() };
    } catch (error) {
      // A redirect (after creating a deck, signing in) is how the action ends, not a failure.
      unstable_rethrow(error);
      return { ok: false, error: toActionError(error, requestId) };
    }
  });
}

/** A refusal as the person sees it: the AppError's code and message, the API's validation messages. */
function toActionError(error: unknown, requestId: string): ActionError {
  if (error instanceof z.ZodError) return { code: "invalid_request", message: describeIssues(error, "") };
  // The NUL character PostgreSQL refused is invalid_request; anything else unknown is logged with a
  // reference and answered as "internal" without its internals (lib/api/handler.ts, as for the API).
  const { code, message } = toAppError(error, requestId);
  return { code, message };
}

// The input of a call: the object given, or the fields of a form (`(formData)` or, from useActionState,
// `(previous, formData)`); a call without one is `{}`, as an empty request body is.
function inputOf(args: unknown[]): unknown {
  const form = args.find((arg): arg is FormData => arg instanceof FormData);
  if (!form) return args[0] ?? {};
  const fields = new Map<string, unknown>();
  for (const [name, value] of form) {
    if (name.startsWith("$ACTION")) continue; // React's own fields, should any be left
    fields.set(name, fields.has(name) ? [fields.get(name), value].flat() : value);
  }
  return Object.fromEntries(fields);
}
