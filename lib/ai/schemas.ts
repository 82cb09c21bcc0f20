import { z } from "zod";
import { hasNoNul, nulMessage } from "@/lib/core/fields";

// Request schemas of generate_deck and edit_deck (SPEC.md: 1 to 10000 characters).

const text = (field: string, what: string) =>
  z
    .string({ message: `is required: ${what}` })
    .min(1, "must be 1 to 10000 characters")
    .max(10_000, "must be 1 to 10000 characters")
    .refine((value) => value.trim().length > 0, "must not be blank")
    .refine(hasNoNul, nulMessage(field));

export const generateDeckBody = z.strictObject({
  brief: text("brief", "what the deck should contain or how to change it").describe(
    "What the deck should contain (create) or how to change it (revise): 1 to 10000 characters.",
  ),
  mode: z
    .enum(["create", "revise"], { message: "must be 'create' or 'revise'" })
    .default("revise")
    .describe("'create' writes the deck from the brief; 'revise' rewrites the latest version following it."),
});

export const editDeckBody = z.strictObject({
  instruction: text(
    "instruction",
    "the change to make, naming slides by label or number and quoting the copy to change",
  ).describe(
    "Precise, self-contained edit instructions that name each slide by outline label or number and quote the exact copy being changed: 1 to 10000 characters.",
  ),
});
