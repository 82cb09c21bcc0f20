import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

// POST move_slide — described and implemented in lib/api/operations.ts

export const POST = route(operations.move_slide);
