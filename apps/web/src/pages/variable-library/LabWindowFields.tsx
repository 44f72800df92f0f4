import { ProFormDigit, ProFormSelect } from '@ant-design/pro-components';
import type { T0EventList, VariableAnchor } from '@crdp/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLabelOptions } from '../../app/labels';
import { VARIABLES_NS } from './i18n';

/**
 * When a lab value counts: from the first visit or a T0 event (then which one), within N days.
 * Shared by a variable's lab derivation and a variable template; the T0 events are the page's
 * query, whose error the page shows. Its words are the variable library's own.
 */
export function LabWindowFields({
  anchor,
  t0,
}: {
  anchor?: VariableAnchor;
  t0: UseQueryResult<T0EventList, Error>;
}) {
  const { t } = useTranslation(VARIABLES_NS);
  const anchors = useLabelOptions('variableAnchor');
  const required = [{ required: true, message: t('required') }];
  return (
    <Space wrap align="start">
      <ProFormSelect
        name="anchor"
        label={t('anchor')}
        allowClear={false}
        options={anchors}
        fieldProps={{ style: { width: 160 } }}
      />
      {anchor === 't0' && (
        <ProFormSelect
          name="t0EventId"
          label={t('t0Event')}
          rules={required}
          fieldProps={{ loading: t0.isLoading, style: { minWidth: 180 } }}
          options={(t0.data?.items ?? []).map((e) => ({ value: e.id, label: e.name }))}
        />
      )}
      <ProFormDigit
        name="withinDays"
        label={t('withinDays')}
        min={0}
        max={36500}
        fieldProps={{ precision: 0 }}
        rules={required}
      />
    </Space>
  );
}
