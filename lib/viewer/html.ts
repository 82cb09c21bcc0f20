import { escapeHtml } from "@/lib/contract/text";

// The few HTML documents the server writes by hand (the viewer, presenter and frame pages).

// JSON inside <script type="application/json">: "<" escaped so no "</script>" can end the element early.
export function jsonScript(id: string, value: unknown): string {
  const json = JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
  return `<script type="application/json" id="${id}">${json}</script>`;
}

export function htmlResponse(html: string, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(html, {
    status: init.status ?? 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
      ...init.headers,
    },
  });
}

// The boilerplate every hand-written page shares; `head` and `body` are trusted HTML built by the caller.
export function htmlDocument(page: { title: string; head?: string; body: string; index?: boolean }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${page.index ? "" : '<meta name="robots" content="noindex">\n'}<title>${escapeHtml(page.title)}</title>
${page.head ?? ""}
</head>
<body>
${page.body}
</body>
</html>
`;
}
