import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

// POST revert_deck_version — described and implemented in lib/api/operations.ts

export const POST = route(operations.revert_deck_version);
