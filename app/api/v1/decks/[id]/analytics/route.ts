import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

// GET get_deck_analytics — described and implemented in lib/api/operations.ts

export const GET = route(operations.get_deck_analytics);
