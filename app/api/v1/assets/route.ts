import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

// GET list_assets, POST upload_asset — described and implemented in lib/api/operations.ts

export const GET = route(operations.list_assets);
export const POST = route(operations.upload_asset);
