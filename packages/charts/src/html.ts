const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * A text made safe to put into HTML: `& < > " '` become entities (the same five ECharts' own
 * `encodeHTML` replaces). Every ECharts formatter that returns HTML (tooltip `formatter`
 * functions; ECharts renders their result with innerHTML) passes each piece of data, label
 * and formatted number through this before joining them with markup such as `<br/>`.
 * Formatters of things drawn on the canvas (labels, axis labels, legends, visual maps) and
 * tooltip `valueFormatter`s (ECharts escapes those itself) return plain text and must not use it.
 */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** Lines of text as the HTML of a tooltip: each line escaped, joined by `<br/>`. */
export const htmlLines = (lines: readonly unknown[]): string => lines.map(escapeHtml).join('<br/>');
