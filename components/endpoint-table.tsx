export type Endpoint = { method: string; path: string; summary: string };

export function EndpointTable({ endpoints }: { endpoints: Endpoint[] }) {
  return (
    <table style={{ borderCollapse: "collapse", width: "100%" }}>
      <tbody>
        {endpoints.map(({ method, path, summary }) => (
          <tr key={method + path} style={{ borderTop: "1px solid var(--line)" }}>
            <td style={{ padding: "8px 12px 8px 0", fontWeight: 600 }}>{method}</td>
            <td style={{ padding: "8px 12px 8px 0" }}>
              <code>{path}</code>
            </td>
            <td style={{ padding: "8px 0", color: "var(--muted)" }}>{summary}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
