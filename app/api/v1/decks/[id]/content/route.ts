import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

// PUT set_deck_content — described and implemented in lib/api/operations.ts

export const PUT = route(operations.set_deck_content);
