import { useQuery } from '@tanstack/react-query';
import { currentLocale } from '../../app/i18n';
import { variablesApi } from './api';

/** Every variable of the library, read once a dialog that picks them opens (`enabled`). */
export function useAllVariables(enabled: boolean) {
  return useQuery({ queryKey: ['variables', 'all'], queryFn: () => variablesApi.list({}), enabled });
}

/** A variable as its pickers and tags name it: its code and its label in the reader's language. */
export function variableLabel(v: { code: string; labelZh: string; labelEn: string }) {
  return `${v.code} · ${currentLocale() === 'en-US' ? v.labelEn || v.labelZh : v.labelZh}`;
}
