/**
 * Text shortening. A full-width character (CJK and anything outside Latin-1) takes the room
 * of two Latin letters on screen, so limits are counted in that width, not in characters.
 */

export const ELLIPSIS = '...';

const charWidth = (ch: string) => (ch.codePointAt(0)! > 0xff ? 2 : 1);

/** Display width of a text as the ellipsis rule measures it: full-width characters count 2. */
export function ellipsisLength(text: string | null | undefined): number {
  let width = 0;
  for (const ch of text ?? '') width += charWidth(ch);
  return width;
}

/**
 * Keeps as many whole characters as fit in `limit` and adds '...' when something was cut.
 * Iterates by code point so an emoji or rare CJK character is never split in half.
 */
export function truncateText(text: string | null | undefined, limit: number): string {
  const value = text ?? '';
  if (ellipsisLength(value) <= limit) return value;
  let width = 0;
  let out = '';
  for (const ch of value) {
    const w = charWidth(ch);
    if (width + w > limit) break;
    width += w;
    out += ch;
  }
  return out + ELLIPSIS;
}

/** Vital-sign chart event text (spec 001 section 9): over 20 characters shows the first 17 plus '...'. */
export function shortenEventText(text: string | null | undefined): string {
  const chars = Array.from(text ?? '');
  return chars.length > 20 ? chars.slice(0, 17).join('') + ELLIPSIS : chars.join('');
}

/**
 * Walks an expression token by token for a hand-written lexer: white space between tokens is
 * skipped; `read` takes the token that starts at `at` (`rest` is the text from there, `c` its
 * first character) and answers how many characters it took, or 0 when nothing there is a token.
 * Answers false at the first place no token starts, true when the whole text was read.
 */
export function scanTokens(src: string, read: (rest: string, at: number, c: string) => number): boolean {
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const took = read(src.slice(i), i, c);
    if (took <= 0) return false;
    i += took;
  }
  return true;
}
