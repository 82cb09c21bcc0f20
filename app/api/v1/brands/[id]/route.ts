import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

// GET get_brand, DELETE delete_brand — described and implemented in lib/api/operations.ts

export const GET = route(operations.get_brand);
export const DELETE = route(operations.delete_brand);
