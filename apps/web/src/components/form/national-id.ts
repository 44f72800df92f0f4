import { nationalIdProblem } from '@crdp/core';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';

/**
 * The national ID check of spec 001 (`checkNationalId` of @crdp/core, the server's own check)
 * as an antd form rule, its tips in the screen's language. Every form field declared as a
 * national ID (身份证号) uses it; an empty field passes (a `required` rule decides that).
 */
export function useNationalIdRule(): Rule {
  const { i18n } = useTranslation();
  const locale = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  return {
    validator: (_rule, value: unknown) => {
      const problem = nationalIdProblem(value, locale);
      return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
    },
  };
}
