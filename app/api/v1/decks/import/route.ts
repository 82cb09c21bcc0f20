import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

// POST import_deck — described and implemented in lib/api/operations.ts

// A megabyte of Markdown takes seconds to turn into a deck.
export const maxDuration = 60;

export const POST = route(operations.import_deck);
