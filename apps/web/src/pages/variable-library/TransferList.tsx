import type { VariableTransferRun } from '@crdp/core';
import { Button, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useHasAction } from '../../components/Authorized';
import { DefinitionsCard } from '../../components/DefinitionsCard';
import { DeleteLink } from '../../components/DeleteLink';
import { RunStatusStack } from '../../components/jobs/JobStatusTag';
import { isUnderWay, useJobPoll } from '../../components/jobs/useJobPoll';
import { TwoLines } from '../../components/TwoLines';
import { downloadWithSession } from '../crf/download';
import { transfersApi } from './api';
import { VARIABLES_MORE_NS } from './i18n-more';

const MENU = 'VariableTransferList';

/** 转换列表 (`/variable-library/transfer-list`): the runs of transfer rules, as jobs. */
export default function TransferList() {
  const { t } = useTranslation(VARIABLES_MORE_NS);
  const can = useHasAction();
  const list = useJobPoll({
    queryKey: ['variable-transfer-runs'],
    queryFn: transfersApi.runs,
    underWay: (d) => d.items.some((r) => isUnderWay(r.status)),
  });
  return (
    <DefinitionsCard<VariableTransferRun>
      title={t('runs.title')}
      testId="transfer-runs"
      addApiId={`${MENU}.add`}
      actions={null}
      hint={t('runs.hint')}
      list={list}
      empty={t('runs.empty')}
      columns={[
        { title: '#', dataIndex: 'id', width: 60 },
        {
          title: t('runs.rule'),
          key: 'rule',
          render: (_, r) => <TwoLines sub={r.targetModel}>{r.ruleName}</TwoLines>,
        },
        {
          title: t('runs.status'),
          key: 'status',
          render: (_, r) => <RunStatusStack status={r.status} progress={r.progress} error={r.error} />,
        },
        { title: t('runs.patients'), dataIndex: 'patients' },
        { title: t('runs.values'), dataIndex: 'values' },
        {
          title: t('runs.summary'),
          key: 'summary',
          render: (_, r) => (
            <Space size={[0, 4]} wrap>
              {r.summary.map((s) => (
                <Tag key={s.targetCode} color={s.unmapped ? 'orange' : 'blue'}>
                  {s.targetCode}: {s.converted} / {s.unmapped}
                </Tag>
              ))}
            </Space>
          ),
        },
        {
          title: t('runs.createdAt'),
          dataIndex: 'createdAt',
          render: (_, r) => new Date(r.createdAt).toLocaleString(),
        },
        {
          title: t('actions'),
          key: 'actions',
          render: (_, r) => (
            <Space size={0}>
              {can(MENU, 'get') && r.status === 'succeeded' && (
                <Button
                  type="link"
                  size="small"
                  onClick={() => downloadWithSession(transfersApi.csvUrl(r.id), `transfer-${r.id}.csv`)}
                >
                  {t('runs.download')}
                </Button>
              )}
              {can(MENU, 'delete') && !isUnderWay(r.status) && (
                <DeleteLink
                  name={`#${r.id} ${r.ruleName}`}
                  onDelete={() => transfersApi.removeRun(r.id)}
                  onDeleted={() => list.refetch()}
                />
              )}
            </Space>
          ),
        },
      ]}
    />
  );
}
