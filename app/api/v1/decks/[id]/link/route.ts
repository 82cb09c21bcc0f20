import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

// GET get_share_link, PATCH set_share_link — described and implemented in lib/api/operations.ts

export const GET = route(operations.get_share_link);
export const PATCH = route(operations.set_share_link);
