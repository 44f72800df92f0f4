/** Source rules written as text, one per line: `item key = template`. */
export function parseRules(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of (text ?? '').split('\n')) {
    const i = line.indexOf('=');
    if (i > 0) {
      const key = line.slice(0, i).trim();
      const rule = line.slice(i + 1).trim();
      if (key && rule) out[key] = rule;
    }
  }
  return out;
}

export const rulesText = (rules: Record<string, string>) =>
  Object.entries(rules)
    .map(([k, r]) => `${k} = ${r}`)
    .join('\n');
