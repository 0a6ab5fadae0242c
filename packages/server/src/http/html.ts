/**
 * Text made safe for HTML, in element content and in quoted attribute values: `& < > " '` become
 * numeric character references. Every page and mail the server writes by hand goes through it.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
