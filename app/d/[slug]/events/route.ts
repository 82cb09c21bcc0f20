import { collectEvents } from "@/lib/api/collect-events";

// POST /d/{slug}/events — the share page's analytics beacon (batched records of time on each slide)
export async function POST(req: Request, { params }: { params: Promise<{ slug: string }> }) {
  return collectEvents(req, (await params).slug);
}
