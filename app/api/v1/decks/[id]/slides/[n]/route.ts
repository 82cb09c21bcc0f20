import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

// PUT replace_slide, DELETE delete_slide — described and implemented in lib/api/operations.ts

export const PUT = route(operations.replace_slide);
export const DELETE = route(operations.delete_slide);
