// What a viewer page (share, /embedded, presenter) hands its analytics beacon: the events URL with the page
// token POST /d/{slug}/events requires (lib/viewer/link-access.ts), read from the page as its script reads it.

/** The events URL (a path) in a share or embedded page's HTML. */
export function eventsUrlIn(html: string): string {
  const config = /<script type="application\/json" id="dh-viewer">(.*?)<\/script>/.exec(html);
  if (!config) throw new Error("not a viewer page");
  return JSON.parse(config[1]!).eventsUrl as string;
}

/** The absolute events URL of the viewer page at `pageUrl`. */
export async function viewerEventsUrl(pageUrl: string): Promise<string> {
  return new URL(eventsUrlIn(await (await fetch(pageUrl)).text()), pageUrl).toString();
}
