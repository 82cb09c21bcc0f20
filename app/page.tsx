import { EndpointTable } from "@/components/endpoint-table";
import { operationList } from "@/lib/api/operations";
import { config } from "@/lib/core/config";

export const dynamic = "force-dynamic";

export default function HomePage() {
  const base = `${config.appUrl}/api/v1`;
  return (
    <main style={{ maxWidth: 820, margin: "0 auto", padding: "64px 24px" }}>
      <h1 style={{ fontSize: 40, marginBottom: 8 }}>Deckhand</h1>
      <p style={{ color: "var(--muted)", fontSize: 18, marginTop: 0 }}>
        Presentations as versioned TSX modules: write them yourself or with a model, publish them to a share link,
        export them to PDF and PPTX.
      </p>
      <p style={{ display: "flex", gap: 16, fontSize: 18 }}>
        <a href="/sign-up">Create an account</a>
        <a href="/sign-in">Sign in</a>
        <a href="/docs/api">API reference</a>
      </p>
      <h2>Get a key</h2>
      <p>
        In the app under API keys, or from the command line:{" "}
        <code>npm run --silent keys:create -- --email you@example.com --org &quot;Acme&quot;</code>
      </p>
      <h2>Use the API</h2>
      <pre>{`curl -H "Authorization: Bearer $DECKHAND_KEY" ${base}/instructions`}</pre>
      <EndpointTable
        endpoints={operationList.map((op) => ({ method: op.method, path: op.path, summary: op.summary }))}
      />
      <p>
        The full reference, with every field, limit and error, is at <a href="/docs/api">/docs/api</a>.
      </p>
    </main>
  );
}
