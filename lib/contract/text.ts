// String helpers the server and the player both use. Pure: no DOM, no Node.

/** Text made safe for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** The first character in upper case ("revenue" → "Revenue"), the rest as written. */
export function capitalize(text: string): string {
  return text.charAt(0).toLocaleUpperCase("en") + text.slice(1);
}
