import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

// GET get_slide_image — described and implemented in lib/api/operations.ts

// Drawing a deck in Chromium: about a second warm, longer when the browser starts cold on Vercel.
export const maxDuration = 60;

export const GET = route(operations.get_slide_image);
