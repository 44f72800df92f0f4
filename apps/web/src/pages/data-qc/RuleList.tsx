import { type ActionType, ProTable } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import { Button, Space, Tag, Typography } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { proPage } from '../../components/table/paging';
import { enabledColumn, updatedColumn } from '../../components/table-columns';
import { type Catalogue, qcApi, type Rule, useCan } from './api';
import { EditLink } from './forms';
import { QC_NS } from './i18n';
import { ToggleDeleteActions } from './RowActions';
import { RuleDrawer } from './RuleDrawer';

/** What a rule checks, in the reader's words (labels from the server's catalogue). */
export function ruleCondition(c: Catalogue, r: Rule, rangeText: (min: string, max: string) => string) {
  const table = c.tables.find((x) => x.key === r.table);
  const col = (k: string | null) => table?.columns.find((x) => x.key === k)?.label ?? k ?? '';
  let what = '';
  if (r.kind === 'range') what = rangeText(String(r.min ?? '-∞'), String(r.max ?? '+∞'));
  if (r.kind === 'pattern') what = `/${r.pattern}/`;
  if (r.kind === 'allowed') what = (r.values ?? []).join(', ');
  if (r.kind === 'date_order') what = `≤ ${col(r.otherColumn ?? null)}`;
  const filter = r.filterColumn ? ` [${col(r.filterColumn)} = ${r.filterValue}]` : '';
  return `${col(r.column)} ${what}${filter}`.trim();
}

export function SeverityTag({ severity }: { severity: string }) {
  const { t } = useTranslation(QC_NS);
  return <Tag color={severity === 'error' ? 'red' : 'orange'}>{t(`severity.${severity}`)}</Tag>;
}

/** 质控规则: the app's rules, with a drawer to create and edit them. */
export default function RuleList() {
  const { t, i18n } = useTranslation(QC_NS);
  const can = useCan();
  const table = useRef<ActionType>(null);
  const catalogue = useQuery({
    queryKey: ['dataQc', 'catalogue', i18n.language],
    queryFn: qcApi.catalogue,
    staleTime: Infinity,
  });
  const c = catalogue.data;
  const reload = () => table.current?.reload();
  const labelOf = (r: Rule) => c?.tables.find((x) => x.key === r.table)?.label ?? r.table;
  const kindOf = (k: string) => c?.kinds.find((x) => x.key === k)?.label ?? k;

  return (
    <ProTable<Rule, { keyword?: string; enabled?: string }>
      rowKey="id"
      actionRef={table}
      headerTitle={t('rules.title')}
      search={false}
      options={{
        search: { placeholder: t('common.search'), name: 'keyword', allowClear: true },
        reload: true,
      }}
      request={async (p) => {
        const r = await qcApi.rules({
          ...proPage(p),
          keyword: p.keyword || undefined,
        });
        return { data: r.items, total: r.total, success: true };
      }}
      pagination={{ defaultPageSize: 20 }}
      toolBarRender={() =>
        c && can('DataQcRule.add')
          ? [
              <RuleDrawer
                key="create"
                catalogue={c}
                onSaved={reload}
                trigger={<Button type="primary">{t('rules.create')}</Button>}
              />,
            ]
          : []
      }
      columns={[
        { title: t('common.name'), dataIndex: 'name', width: 200 },
        {
          title: t('rules.kind'),
          key: 'kind',
          render: (_, r) => <Tag color="blue">{kindOf(r.kind)}</Tag>,
          width: 120,
        },
        {
          title: t('rules.condition'),
          key: 'condition',
          render: (_, r) =>
            c ? (
              <span>
                <Typography.Text type="secondary">{labelOf(r)} · </Typography.Text>
                {ruleCondition(c, r, (min, max) => t('rules.rangeText', { min, max }))}
              </span>
            ) : (
              ''
            ),
        },
        {
          title: t('severity.label'),
          dataIndex: 'severity',
          width: 90,
          render: (_, r) => <SeverityTag severity={r.severity} />,
        },
        enabledColumn<Rule>({ title: t('common.enabled'), on: t('common.on'), off: t('common.off') }, 80),
        updatedColumn<Rule>(t('common.updated')),
        {
          title: t('common.actions'),
          valueType: 'option',
          width: 170,
          render: (_, r) => (
            <Space size={0}>
              {c && can('DataQcRule.edit') && (
                <RuleDrawer catalogue={c} rule={r} onSaved={reload} trigger={<EditLink />} />
              )}
              <ToggleDeleteActions
                area="DataQcRule"
                name={r.name}
                enabled={r.enabled}
                setEnabled={(on) => qcApi.setRuleEnabled(r.id, on)}
                remove={() => qcApi.deleteRule(r.id)}
                onDone={reload}
              />
            </Space>
          ),
        },
      ]}
    />
  );
}
