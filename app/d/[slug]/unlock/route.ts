import { unlockLink } from "@/lib/viewer/unlock";

// POST /d/{slug}/unlock — the password form of a protected share link
export async function POST(req: Request, { params }: { params: Promise<{ slug: string }> }) {
  return unlockLink(req, (await params).slug);
}
