import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

// GET get_authoring_instructions — described and implemented in lib/api/operations.ts

export const GET = route(operations.get_authoring_instructions);
