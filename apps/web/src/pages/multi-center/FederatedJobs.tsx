import type {
  FederatedJob,
  FederatedJobBody,
  FederatedJobList,
  FederatedModel,
  StartedJob,
} from '@crdp/core';
import { FEDERATED_MODELS } from '@crdp/core';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Card, InputNumber, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rest } from '../../api/client';
import { useLabel } from '../../app/labels';
import { useHasAction } from '../../components/Authorized';
import { RunStatusStack } from '../../components/jobs/JobStatusTag';
import { isUnderWay, useJobPoll } from '../../components/jobs/useJobPoll';
import { TwoLines } from '../../components/TwoLines';
import type { TopicDetail } from './api';
import { FEDERATED_NS } from './federated-i18n';

const federatedApi = {
  list: (id: number) => rest<FederatedJobList>({ url: `mc/topics/${id}/federated` }),
  run: (id: number, b: FederatedJobBody) =>
    rest<StartedJob>({
      url: `mc/topics/${id}/federated`,
      method: 'POST',
      data: b,
      silent: true,
    }),
};
const f4 = (x: unknown) => (typeof x === 'number' ? x.toFixed(4) : '-');

type Result = {
  coefficients?: Array<{ name: string; estimate: number; oddsRatio: number }>;
  importance?: Array<{ key: string; share: number }>;
  variables?: Array<{
    key: string;
    iv: number;
    bins: Array<{
      lower: number | null;
      upper: number | null;
      count: number | null;
      events: number | null;
      woe: number | null;
    }>;
  }>;
  perCenter?: Array<{
    appId: number;
    name: string;
    cases: number | null;
    metrics: Record<string, number | null> | null;
  }>;
};

/** A job's aggregates: coefficients, importance, bins or each center's metrics. */
function Details({ job, labelOf }: { job: FederatedJob; labelOf: (k: string) => string }) {
  const { t } = useTranslation(FEDERATED_NS);
  const word = useLabel();
  const r = (job.result ?? {}) as Result;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {r.coefficients && (
        <Table
          size="small"
          rowKey="name"
          pagination={false}
          dataSource={r.coefficients}
          columns={[
            { title: t('predictors'), dataIndex: 'name', render: (n: string) => labelOf(n) },
            { title: t('coefficient'), dataIndex: 'estimate', render: f4 },
            { title: t('oddsRatio'), dataIndex: 'oddsRatio', render: f4 },
          ]}
        />
      )}
      {r.importance && (
        <Space wrap>
          {r.importance.map((i) => (
            <Tag key={i.key}>
              {labelOf(i.key)} · {t('importance')} {(i.share * 100).toFixed(1)}%
            </Tag>
          ))}
        </Space>
      )}
      {r.variables?.map((v) => (
        <Table
          key={v.key}
          size="small"
          rowKey={(b) => String(b.upper)}
          pagination={false}
          title={() => `${labelOf(v.key)} · IV ${f4(v.iv)}`}
          dataSource={v.bins}
          columns={[
            {
              title: t('bin'),
              key: 'bin',
              render: (_, b) =>
                `${b.lower === null ? '(-∞' : `(${b.lower}`}, ${b.upper === null ? '+∞)' : `${b.upper}]`}`,
            },
            { title: t('count'), dataIndex: 'count', render: (x: number | null) => x ?? '-' },
            { title: t('events'), dataIndex: 'events', render: (x: number | null) => x ?? '-' },
            { title: 'WOE', dataIndex: 'woe', render: f4 },
          ]}
        />
      ))}
      {r.perCenter && (
        <Table
          size="small"
          rowKey="appId"
          pagination={false}
          dataSource={r.perCenter}
          columns={[
            { title: t('center'), dataIndex: 'name' },
            { title: t('cases'), dataIndex: 'cases', render: (x: number | null) => x ?? '-' },
            ...['auc', 'ks', 'accuracy'].map((k) => ({
              title: word('federatedMetric', k),
              key: k,
              render: (_: unknown, c: NonNullable<Result['perCenter']>[number]) => f4(c.metrics?.[k]),
            })),
          ]}
        />
      )}
    </Space>
  );
}

/** 联邦学习: the topic's federated jobs with spec 000 §3's model and metric names (a card of the topic screen). */
export function FederatedJobs({ topic }: { topic: TopicDetail }) {
  const { t } = useTranslation(FEDERATED_NS);
  const { message } = App.useApp();
  const can = useHasAction();
  const word = useLabel();
  const lead = topic.role === 'lead';
  const [model, setModel] = useState<FederatedModel>('homoLR');
  const [outcome, setOutcome] = useState<string>();
  const [predictors, setPredictors] = useState<string[]>([]);
  const [bins, setBins] = useState(5);
  const [rounds, setRounds] = useState(30);
  const list = useJobPoll({
    queryKey: ['federated', topic.id],
    queryFn: () => federatedApi.list(topic.id),
    underWay: (d) => d.items.some((j) => isUnderWay(j.status)),
  });
  const run = useMutation({
    mutationFn: () => federatedApi.run(topic.id, { model, outcome: outcome!, predictors, bins, rounds }),
    onSuccess: () => {
      message.success(t('started'));
      return list.refetch();
    },
    onError: (e: Error) => message.error(e.message),
  });
  const options = topic.variables.map((v) => ({ value: v.key, label: v.label }));
  const labelOf = (k: string) => topic.variables.find((v) => v.key === k)?.label ?? k;
  return (
    <Card title={t('title')} data-testid="federated">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('hint')}</Typography.Text>
        {lead && can('MultiCenterTopicDescription', 'edit') ? (
          <Space wrap>
            <Select
              data-testid="federated-model"
              style={{ width: 200 }}
              value={model}
              onChange={setModel}
              options={FEDERATED_MODELS.map((m) => ({
                value: m,
                label: `${word('federatedModel', m)} (${m})`,
              }))}
            />
            <Select
              data-testid="federated-outcome"
              style={{ width: 200 }}
              placeholder={t('outcome')}
              value={outcome}
              onChange={setOutcome}
              options={options}
            />
            <Select
              data-testid="federated-predictors"
              mode="multiple"
              style={{ minWidth: 220 }}
              placeholder={t('predictors')}
              value={predictors}
              onChange={setPredictors}
              options={options.filter((o) => o.value !== outcome)}
            />
            {model === 'binning' && (
              <InputNumber
                min={2}
                max={20}
                value={bins}
                onChange={(v) => setBins(v ?? 5)}
                addonBefore={t('bins')}
              />
            )}
            {model === 'boost' && (
              <InputNumber
                min={1}
                max={200}
                value={rounds}
                onChange={(v) => setRounds(v ?? 30)}
                addonBefore={t('rounds')}
              />
            )}
            <Button
              type="primary"
              data-testid="federated-run"
              disabled={!outcome || !predictors.length}
              loading={run.isPending}
              onClick={() => run.mutate()}
            >
              {t('run')}
            </Button>
          </Space>
        ) : (
          <Alert type="info" showIcon message={t('leadOnly')} />
        )}
        {list.isError ? (
          <Alert type="error" showIcon message={list.error.message} />
        ) : (
          <Table<FederatedJob>
            rowKey="id"
            size="small"
            loading={list.isLoading}
            pagination={false}
            locale={{ emptyText: t('empty') }}
            dataSource={list.data?.items ?? []}
            expandable={{
              rowExpandable: (j) => j.status === 'succeeded',
              expandedRowRender: (j) => <Details job={j} labelOf={labelOf} />,
            }}
            columns={[
              { title: '#', dataIndex: 'id', width: 50 },
              {
                title: t('model'),
                key: 'model',
                render: (_, j) => <TwoLines sub={j.model}>{word('federatedModel', j.model)}</TwoLines>,
              },
              {
                title: t('predictors'),
                key: 'vars',
                render: (_, j) =>
                  `${labelOf(j.params.outcome)} ~ ${j.params.predictors.map(labelOf).join(' + ')}`,
              },
              {
                title: t('status'),
                key: 'status',
                render: (_, j) => <RunStatusStack status={j.status} error={j.error} />,
              },
              { title: t('centers'), dataIndex: 'centers' },
              { title: t('cases'), dataIndex: 'cases' },
              {
                title: t('metrics'),
                key: 'metrics',
                render: (_, j) => (
                  <Space size={[0, 4]} wrap>
                    {Object.entries(j.metrics).map(([k, v]) => (
                      <Tag key={k} color="blue">
                        {word('federatedMetric', k)} {f4(v)}
                      </Tag>
                    ))}
                  </Space>
                ),
              },
              {
                title: t('createdAt'),
                key: 'createdAt',
                render: (_, j) => new Date(j.createdAt).toLocaleString(),
              },
            ]}
          />
        )}
      </Space>
    </Card>
  );
}
