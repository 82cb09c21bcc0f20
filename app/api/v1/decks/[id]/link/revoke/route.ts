import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

// POST revoke_share_link — described and implemented in lib/api/operations.ts

export const POST = route(operations.revoke_share_link);
