import { pinyin } from 'pinyin-pro';

/**
 * Pinyin initials of a name, for search by the letters hospital staff type (消化内科 → xhnk,
 * 重庆 → cq: pinyin-pro reads polyphones in their words). Letters and digits of the name stay
 * as they are (CT室 → cts); everything else is dropped. Lower case.
 */
export function pinyinInitials(name: string): string {
  const initials = pinyin(name, { pattern: 'first', toneType: 'none', type: 'array', nonZh: 'consecutive' });
  return initials
    .join('')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 50);
}
