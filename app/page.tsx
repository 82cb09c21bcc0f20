import { type Endpoint, EndpointTable } from "@/components/endpoint-table";
import { config } from "@/lib/config";

export const dynamic = "force-dynamic";

const endpoints: Endpoint[] = [
  { method: "GET", path: "/instructions", summary: "The authoring brief a model (or you) reads before writing a deck" },
  { method: "GET", path: "/decks", summary: "Your decks, or the organization's with ?scope=org" },
  { method: "POST", path: "/decks", summary: "Create an empty slides deck" },
  { method: "GET", path: "/decks/{id}", summary: "A deck with its newest version" },
  { method: "PATCH", path: "/decks/{id}", summary: "Rename, publish, make a template, archive" },
  { method: "DELETE", path: "/decks/{id}", summary: "Delete a deck and its history" },
  { method: "PUT", path: "/decks/{id}/content", summary: "Write a new version (a deck-tsx module)" },
  { method: "GET", path: "/decks/{id}/versions", summary: "Version history, newest first" },
  { method: "GET", path: "/decks/{id}/versions/{n}", summary: "One version with its source and compiled module" },
  { method: "POST", path: "/decks/{id}/versions/{n}/revert", summary: "Copy an old version forward" },
];

export default function HomePage() {
  const base = `${config.appUrl}/api/v1`;
  return (
    <main style={{ maxWidth: 820, margin: "0 auto", padding: "64px 24px" }}>
      <h1 style={{ fontSize: 40, marginBottom: 8 }}>Deckhand</h1>
      <p style={{ color: "var(--muted)", fontSize: 18, marginTop: 0 }}>
        Presentations as versioned TSX modules: write them yourself or with a model, publish them to a share link,
        export them to PDF and PPTX.
      </p>
      <h2>Get a key</h2>
      <pre>npm run --silent keys:create -- --email you@example.com --org &quot;Acme&quot;</pre>
      <h2>Use the API</h2>
      <pre>{`curl -H "Authorization: Bearer $DECKHAND_KEY" ${base}/instructions`}</pre>
      <EndpointTable endpoints={endpoints} />
    </main>
  );
}
