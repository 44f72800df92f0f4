import { type ProColumns, ProTable } from '@ant-design/pro-components';
import { Button, Tag } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLabel, useLabelOptions } from '../../app/labels';
import { useHasAction } from '../../components/Authorized';
import { proPage } from '../../components/table/paging';
import { type AuditLogRow, auditApi } from './api';
import { ADMIN_NS } from './i18n';

/** The action filter is a list of hundred-odd actions: typing narrows it. */
const SEARCHABLE = { showSearch: true } as const;

const OUTCOME_COLOR = { success: 'success', failure: 'warning', denied: 'error' } as const;

/** The audit trail of the current app: sign-ins, failures, lockouts and every write, filterable. */
export default function ActivationLog() {
  const { t } = useTranslation(ADMIN_NS);
  const navigate = useNavigate();
  const can = useHasAction();
  const word = useLabel();
  const actions = useLabelOptions('auditAction');
  const actionEnum = useMemo(
    () => Object.fromEntries(actions.map((o) => [o.value, { text: o.label }])),
    [actions],
  );
  // Built once per language and permission set: a ProTable given new columns on every render
  // may rebuild its search form; suspected in CI runs where the 查询 button stayed 'loading'.
  const columns = useMemo<ProColumns<AuditLogRow>[]>(
    () => [
      { title: t('audit.at'), dataIndex: 'at', valueType: 'dateTimeRange', hideInTable: true },
      { title: t('audit.at'), dataIndex: 'at', valueType: 'dateTime', search: false, width: 180 },
      { title: t('audit.user'), dataIndex: 'userName' },
      {
        title: t('audit.action'),
        dataIndex: 'action',
        valueType: 'select',
        valueEnum: actionEnum,
        fieldProps: SEARCHABLE,
        render: (_, r) => word('auditAction', r.action),
      },
      {
        title: t('audit.entity'),
        dataIndex: 'entity',
        render: (_, r) => word('auditEntity', r.entity),
      },
      { title: t('audit.entityId'), dataIndex: 'entityId' },
      {
        title: t('audit.outcome'),
        dataIndex: 'outcome',
        valueType: 'select',
        valueEnum: {
          success: { text: t('audit.success') },
          failure: { text: t('audit.failure') },
          denied: { text: t('audit.denied') },
        },
        render: (_, r) => <Tag color={OUTCOME_COLOR[r.outcome]}>{t(`audit.${r.outcome}`)}</Tag>,
      },
      { title: t('audit.ip'), dataIndex: 'ip', search: false },
      {
        title: t('common.actions'),
        valueType: 'option',
        render: (_, r) =>
          can('LogActivationDetails', 'get') && (
            <Button
              type="link"
              size="small"
              onClick={() => navigate(`/log-management/activation-details?id=${r.id}`)}
              data-testid={`audit-${r.action}`}
            >
              {t('audit.detail')}
            </Button>
          ),
      },
    ],
    [t, word, actionEnum, can, navigate],
  );
  return (
    <ProTable<AuditLogRow>
      rowKey="id"
      headerTitle={t('audit.title')}
      search={{ labelWidth: 'auto' }}
      pagination={{ defaultPageSize: 20, showSizeChanger: true }}
      request={async (p) => {
        const range = p.at as [string, string] | undefined;
        const r = await auditApi.list({
          ...proPage(p),
          user: (p.userName as string | undefined) || undefined,
          action: (p.action as string | undefined) || undefined,
          entity: (p.entity as string | undefined) || undefined,
          entity_id: (p.entityId as string | undefined) || undefined,
          outcome: (p.outcome as string | undefined) || undefined,
          from: range?.[0] ? new Date(range[0]).toISOString() : undefined,
          to: range?.[1] ? new Date(range[1]).toISOString() : undefined,
        });
        return { data: r.items, total: r.total, success: true };
      }}
      columns={columns}
    />
  );
}
