import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

// GET list_decks, POST create_deck — described and implemented in lib/api/operations.ts

export const GET = route(operations.list_decks);
export const POST = route(operations.create_deck);
