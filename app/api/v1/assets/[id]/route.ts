import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

// DELETE delete_asset — described and implemented in lib/api/operations.ts

export const DELETE = route(operations.delete_asset);
