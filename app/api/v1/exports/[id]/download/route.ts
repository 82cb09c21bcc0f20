import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

// GET download_export — described and implemented in lib/api/operations.ts

export const GET = route(operations.download_export);
