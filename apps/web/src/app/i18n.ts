import type { Locale } from '@crdp/core';
import { DEFAULT_LOCALE } from '@crdp/core';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { enUS } from './locales/en-US';
import { zhCN } from './locales/zh-CN';
import { readStored, STORED, writeStored } from './storage';

export const LANGUAGES: Array<{ value: Locale; label: string }> = [
  { value: 'zh-CN', label: '简体中文' },
  { value: 'en-US', label: 'English' },
];

const stored = readStored<string>(STORED.language, DEFAULT_LOCALE);
const initial: Locale = stored === 'en-US' ? 'en-US' : 'zh-CN';

void i18next.use(initReactI18next).init({
  resources: { 'zh-CN': { translation: zhCN }, 'en-US': { translation: enUS } },
  lng: initial,
  fallbackLng: 'zh-CN',
  interpolation: { escapeValue: false },
  returnNull: false,
});
// dayjs follows the language in ./dates.ts, loaded with the signed-in shell.
document.documentElement.lang = initial;

export const currentLocale = (): Locale => (i18next.language === 'en-US' ? 'en-US' : 'zh-CN');

export async function changeLanguage(locale: Locale) {
  writeStored(STORED.language, locale);
  document.documentElement.lang = locale;
  await i18next.changeLanguage(locale);
}

/**
 * Adds an area's screen texts as namespace `ns`, once (a module may be evaluated by two lazy
 * chunks). Declare the English texts as `typeof` the Chinese ones so the keys match, unless
 * English needs plural keys (`rows_one`, `rows_other`) that Chinese does not.
 */
export function addScreenTexts(ns: string, zhCN: object, enUS: object): string {
  if (!i18next.hasResourceBundle('zh-CN', ns)) {
    i18next.addResourceBundle('zh-CN', ns, zhCN);
    i18next.addResourceBundle('en-US', ns, enUS);
  }
  return ns;
}

export { i18next };
