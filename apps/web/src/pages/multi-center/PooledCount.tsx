import type { PooledCount } from '@crdp/core';
import { Tooltip } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { MC_NS } from './i18n';

/** A pooled count as text: the number, "< n" below the topic's minimum, or "hidden" (complementary). */
export function countText(t: TFunction, value: PooledCount, min: number): string {
  if (typeof value === 'number') return String(value);
  return value.hidden === 'small' ? t('below', { n: min }) : t('hidden');
}

/** The same with a tooltip saying why a cell is hidden. */
export function Count({ value, min }: { value: PooledCount; min: number }) {
  const { t } = useTranslation(MC_NS);
  if (typeof value === 'number') return <>{value}</>;
  return (
    <Tooltip title={value.hidden === 'small' ? t('belowHelp', { n: min }) : t('hiddenHelp')}>
      <span data-testid={`count-${value.hidden}`}>{countText(t, value, min)}</span>
    </Tooltip>
  );
}
