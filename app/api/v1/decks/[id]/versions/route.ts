import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

// GET list_deck_versions — described and implemented in lib/api/operations.ts

export const GET = route(operations.list_deck_versions);
