import type { Locale } from './messages.js';

/**
 * The texts a new site starts with (titles, environment names). They are data: an administrator
 * replaces them in the system configuration and the stored text is then shown as written. Until
 * then the defaults read in the reader's language, not only in the language they were stored in.
 */
export const SITE_DEFAULT_TEXT = {
  documentTitle: { 'zh-CN': 'CRDP 临床科研数据平台', 'en-US': 'CRDP clinical research data platform' },
  loginTitle: { 'zh-CN': '临床科研数据平台', 'en-US': 'Clinical research data platform' },
  environment: { 'zh-CN': '本地环境', 'en-US': 'Local environment' },
  hiddenEnvironment: { 'zh-CN': '实验室环境', 'en-US': 'Laboratory environment' },
} as const satisfies Record<string, Record<Locale, string>>;

export type SiteDefaultField = keyof typeof SITE_DEFAULT_TEXT;

/** A stored site text in `locale`: the default in that language while it is unchanged. */
export function siteText(field: SiteDefaultField, stored: string, locale: string): string {
  const texts = SITE_DEFAULT_TEXT[field];
  if (stored !== texts['zh-CN']) return stored;
  return locale.startsWith('en') ? texts['en-US'] : stored;
}
