import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

// POST generate_deck — described and implemented in lib/api/operations.ts

// A model call can take minutes; on Vercel the function may run this long.
export const maxDuration = 300;

export const POST = route(operations.generate_deck);
