import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

// GET list_slides, POST insert_slide — described and implemented in lib/api/operations.ts

export const GET = route(operations.list_slides);
export const POST = route(operations.insert_slide);
