import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

// GET get_deck, PATCH update_deck, DELETE delete_deck — described and implemented in lib/api/operations.ts

export const GET = route(operations.get_deck);
export const PATCH = route(operations.update_deck);
export const DELETE = route(operations.delete_deck);
