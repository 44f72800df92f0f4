import { ProFormDigit, ProFormSelect } from '@ant-design/pro-components';
import type { T0EventList, VariableAnchor } from '@crdp/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { Space } from 'antd';
import { useLabelOptions } from '../../app/labels';

/**
 * When a lab value counts: from the first visit or a T0 event (then which one), within N days.
 * Shared by a variable's lab derivation and a variable template; the T0 events are the page's
 * query, whose error the page shows.
 */
export function LabWindowFields({
  anchor,
  t0,
  labels,
}: {
  anchor?: VariableAnchor;
  t0: UseQueryResult<T0EventList, Error>;
  labels: { anchor: string; t0Event: string; withinDays: string; required: string };
}) {
  const anchors = useLabelOptions('variableAnchor');
  const required = [{ required: true, message: labels.required }];
  return (
    <Space wrap align="start">
      <ProFormSelect
        name="anchor"
        label={labels.anchor}
        allowClear={false}
        options={anchors}
        fieldProps={{ style: { width: 160 } }}
      />
      {anchor === 't0' && (
        <ProFormSelect
          name="t0EventId"
          label={labels.t0Event}
          rules={required}
          fieldProps={{ loading: t0.isLoading, style: { minWidth: 180 } }}
          options={(t0.data?.items ?? []).map((e) => ({ value: e.id, label: e.name }))}
        />
      )}
      <ProFormDigit
        name="withinDays"
        label={labels.withinDays}
        min={0}
        max={36500}
        fieldProps={{ precision: 0 }}
        rules={required}
      />
    </Space>
  );
}
