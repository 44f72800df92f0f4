import { findTextFault, type Locale, textFaultMessage } from '@crdp/core';

/**
 * The form rule of the server's text rule (`@crdp/core` findTextFault): no control characters
 * or lone surrogates; tab and line breaks only in multi-line text. Shown under the field before
 * anything is sent, in the words the server would use: `rules={[textRule(currentLocale())]}`.
 */
export const textRule = (locale: Locale, opts: { multiline?: boolean } = {}) => ({
  validator: async (_rule: unknown, value: unknown) => {
    if (typeof value !== 'string') return;
    const fault = findTextFault(value.trim(), opts);
    if (fault) throw new Error(textFaultMessage(fault, locale));
  },
});
