import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

// GET list_brands, POST create_brand_from_url — described and implemented in lib/api/operations.ts

export const GET = route(operations.list_brands);
export const POST = route(operations.create_brand_from_url);
