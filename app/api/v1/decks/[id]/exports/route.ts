import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

// POST create_export — described and implemented in lib/api/operations.ts

export const POST = route(operations.create_export);
