import { type LabelFamily, label, labelOptions, setUnknownLabelReporter } from '@crdp/core';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from './i18n';

// A code without words is a bug to hear about while developing; a production build stays quiet
// (the person still reads the family's name with the code, never the bare code).
if (!import.meta.env.DEV) setUnknownLabelReporter(null);

/**
 * The labelling layer of @crdp/core in the screen's language: `const word = useLabel();
 * word('jobStatus', job.status)`. Re-renders when the language changes.
 */
export function useLabel() {
  const { i18n } = useTranslation();
  const locale = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  // The same function while the language stays: tables whose columns use it keep them.
  return useCallback(
    (family: LabelFamily, code: string | number | null | undefined) => label(family, code, locale),
    [locale],
  );
}

/**
 * A family's codes as select options in the screen's language. The same array while the
 * language stays (a table's columns that change on every render make it fetch again).
 */
export function useLabelOptions(family: LabelFamily) {
  const { i18n } = useTranslation();
  const locale = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  return useMemo(() => labelOptions(family, locale), [family, locale]);
}

/** Outside React (table renderers built once): the current language. */
export const labelNow = (family: LabelFamily, code: string | number | null | undefined) =>
  label(family, code, currentLocale());
