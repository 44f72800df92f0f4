/** Items typed one a line as `code=中文=English`; the line number of the first without a code. */
export function parseItems(text: string): {
  items: Array<{ code: string; labelZh: string; labelEn: string }>;
  bad: number | null;
} {
  const items: Array<{ code: string; labelZh: string; labelEn: string }> = [];
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    if (!raw.trim()) continue;
    const [code = '', labelZh = '', labelEn = ''] = raw.split('=').map((x) => x.trim());
    if (!code) return { items, bad: i + 1 };
    items.push({ code, labelZh, labelEn });
  }
  return { items, bad: null };
}
