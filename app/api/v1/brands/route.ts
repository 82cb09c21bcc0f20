import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

// GET list_brands, POST create_brand_from_url — described and implemented in lib/api/operations.ts

// Fetching a site, its stylesheets and logo and extracting the brand takes up to ~90 s (a worker's 20 s
// budget per extraction, plus the fetches); on Vercel the function may run this long.
export const maxDuration = 120;

export const GET = route(operations.list_brands);
export const POST = route(operations.create_brand_from_url);
