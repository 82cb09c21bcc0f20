import { config } from "@/lib/config";

export const dynamic = "force-dynamic";

const endpoints: [string, string, string][] = [
  ["GET", "/instructions", "The authoring brief a model (or you) reads before writing a deck"],
  ["GET", "/decks", "Your decks, or the organization's with ?scope=org"],
  ["POST", "/decks", "Create an empty slides deck"],
  ["GET", "/decks/{id}", "A deck with its newest version"],
  ["PATCH", "/decks/{id}", "Rename, publish, make a template, archive"],
  ["DELETE", "/decks/{id}", "Delete a deck and its history"],
  ["PUT", "/decks/{id}/content", "Write a new version (a deck-tsx module)"],
  ["GET", "/decks/{id}/versions", "Version history, newest first"],
  ["GET", "/decks/{id}/versions/{n}", "One version with its source and compiled module"],
  ["POST", "/decks/{id}/versions/{n}/revert", "Copy an old version forward"],
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
      <table style={{ borderCollapse: "collapse", width: "100%" }}>
        <tbody>
          {endpoints.map(([method, path, what]) => (
            <tr key={method + path} style={{ borderTop: "1px solid var(--line)" }}>
              <td style={{ padding: "8px 12px 8px 0", fontWeight: 600 }}>{method}</td>
              <td style={{ padding: "8px 12px 8px 0" }}>
                <code>{path}</code>
              </td>
              <td style={{ padding: "8px 0", color: "var(--muted)" }}>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
