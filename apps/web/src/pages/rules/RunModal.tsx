import type { RuleSummary } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Modal, Space, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { JobStatusTag } from '../../components/jobs/JobStatusTag';
import { isUnderWay, useJobPoll } from '../../components/jobs/useJobPoll';
import { rulesApi } from './api';
import { RULES_NS } from './i18n';

/** Runs a rule over all the app's patients (a job) and shows the latest run's results. */
export function RunModal({ rule, onClose }: { rule: RuleSummary; onClose: () => void }) {
  const { t } = useTranslation(RULES_NS);
  const [page, setPage] = useState(1);
  const [error, setError] = useState<string | null>(null);
  const runs = useJobPoll({
    queryKey: ['rules', 'runs', rule.id],
    queryFn: () => rulesApi.runs(rule.id),
    underWay: (d) => d.items.some((r) => isUnderWay(r.status)),
  });
  const last = runs.data?.items[0];
  const results = useQuery({
    queryKey: ['rules', 'results', last?.id, last?.status, page],
    queryFn: () => rulesApi.results(last!.id, page, 10),
    enabled: last?.status === 'succeeded',
  });
  const start = async () => {
    setError(null);
    try {
      await rulesApi.run({ rule_ids: [rule.id], scope: { kind: 'all' } });
      setPage(1);
      await runs.refetch();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const busy = last?.status === 'queued' || last?.status === 'running';
  return (
    <Modal open width={860} title={t('runs.title', { name: rule.name })} onCancel={onClose} footer={null}>
      <Space direction="vertical" style={{ width: '100%' }} data-testid="rule-run">
        {(error || runs.error || results.error) && (
          <Alert type="error" showIcon message={error ?? runs.error?.message ?? results.error?.message} />
        )}
        <Space>
          <span>
            {t('runs.scope')}：{t('runs.all')}
          </span>
          <Button type="primary" loading={busy} onClick={start} data-testid="rule-run-start">
            {t('runs.start')}
          </Button>
        </Space>
        {last ? (
          <Descriptions size="small" column={3}>
            <Descriptions.Item label={t('runs.status')}>
              <JobStatusTag status={last.status} testId="rule-run-status" />
            </Descriptions.Item>
            <Descriptions.Item label={t('runs.patients')}>{last.patients}</Descriptions.Item>
            <Descriptions.Item label={t('runs.results')}>{last.results}</Descriptions.Item>
          </Descriptions>
        ) : (
          <span>{t('runs.none')}</span>
        )}
        {results.data && (
          <Table
            size="small"
            rowKey="id"
            dataSource={results.data.items}
            pagination={{ current: page, pageSize: 10, total: results.data.total, onChange: setPage }}
            columns={[
              { title: t('runs.patient'), dataIndex: 'patientName' },
              { title: t('runs.mrn'), dataIndex: 'mrn' },
              { title: t('runs.kind'), dataIndex: 'kind', render: (k: string) => t(`editor.${k}`) },
              {
                title: t('runs.detail'),
                key: 'detail',
                render: (_, r) =>
                  r.kind === 'fault'
                    ? `${t(`editor.${r.level}`)} ${r.value}`
                    : r.kind === 'derive'
                      ? `${r.name} = ${r.value}`
                      : r.kind === 'tag'
                        ? `#${r.name}`
                        : `${r.name}：${r.value}`,
              },
            ]}
          />
        )}
      </Space>
    </Modal>
  );
}
