import type { ExternalDataset, ResearchAnalysisParams } from '@crdp/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input, Select, Space, Spin, Table, Tag, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { useHasAction } from '../../components/Authorized';
import { DeleteLink } from '../../components/DeleteLink';
import { saveOrShow } from '../../components/form/server-errors';
import { isUnderWay, useJobPoll } from '../../components/jobs/useJobPoll';
import { METHODS, type Method, paramsOf } from './AnalysisMining';
import { AnalysisResult } from './AnalysisResult';
import { externalApi } from './external-api';
import { RESEARCH_NS } from './i18n';
import { MIMIC_NS } from './mimic-i18n';

const MENU = 'ResearchAnalysisMimic';

function ImportCard({ onDone }: { onDone: (d: ExternalDataset) => void }) {
  const { t } = useTranslation(MIMIC_NS);
  const { message } = App.useApp();
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Space wrap>
      <Input
        data-testid="mimic-name"
        style={{ width: 200 }}
        placeholder={t('name')}
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <Upload
        accept=".csv,text/csv"
        maxCount={1}
        beforeUpload={(f) => {
          setFile(f);
          return false;
        }}
        onRemove={() => setFile(null)}
      >
        <Button data-testid="mimic-file">{t('chooseFile')}</Button>
      </Upload>
      <Button
        type="primary"
        data-testid="mimic-import"
        loading={busy}
        disabled={!name.trim()}
        onClick={async () => {
          if (!file) {
            message.error(t('noFile'));
            return;
          }
          setBusy(true);
          await saveOrShow(message, async () => {
            const d = await externalApi.import({ name: name.trim(), csv: await file.text() });
            message.success(t('imported', { n: d.rowCount }));
            setName('');
            onDone(d);
          }).finally(() => setBusy(false));
        }}
      >
        {t('import')}
      </Button>
    </Space>
  );
}

function Analyse({ ds }: { ds: ExternalDataset }) {
  const { t } = useTranslation(RESEARCH_NS);
  const m = useTranslation(MIMIC_NS).t;
  const { message } = App.useApp();
  const [method, setMethod] = useState<Method>('descriptive');
  const [vars, setVars] = useState<string[]>([]);
  const [outcome, setOutcome] = useState<string>();
  const [group, setGroup] = useState<string>();
  const [time, setTime] = useState<string>();
  const [event, setEvent] = useState<string>();
  const options = ds.columns.map((c) => ({
    value: c.key,
    label: c.label === c.key ? c.key : `${c.label} (${c.key})`,
  }));
  const history = useJobPoll({
    queryKey: ['external-analyses', ds.id],
    queryFn: () => externalApi.analyses(ds.id),
    underWay: (d) => d.items.some((r) => isUnderWay(r.status)),
  });
  const run = useMutation({
    mutationFn: () =>
      externalApi.analyse(
        ds.id,
        paramsOf(method, { vars, outcome, group, time, event }) as ResearchAnalysisParams,
      ),
    onSuccess: () => history.refetch(),
    onError: (e: Error) => message.error(e.message),
  });
  const needs = {
    vars: method === 'descriptive' || method === 'linear' || method === 'logistic',
    outcome: method !== 'descriptive' && method !== 'kaplanMeier',
    group: ['ttest', 'mannWhitney', 'chiSquare', 'kaplanMeier'].includes(method),
    survival: method === 'kaplanMeier',
  };
  const pick = (testId: string, placeholder: string, value: string | undefined, set: (v: string) => void) => (
    <Select
      data-testid={testId}
      style={{ width: 180 }}
      placeholder={placeholder}
      value={value}
      onChange={set}
      options={options}
      allowClear
    />
  );
  const latest = history.data?.items[0];
  const asked = latest?.params as { analysis?: { method?: string } & Record<string, unknown> } | undefined;
  return (
    <Card title={m('analyse')} data-testid="mimic-analyse">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <Select
            data-testid="method"
            style={{ width: 220 }}
            value={method}
            onChange={setMethod}
            options={METHODS.map((x) => ({ value: x, label: t(`analysis.${x}`) }))}
          />
          {needs.vars && (
            <Select
              data-testid="vars"
              mode="multiple"
              style={{ minWidth: 240 }}
              placeholder={method === 'descriptive' ? t('analysis.variables') : t('analysis.predictors')}
              value={vars}
              onChange={setVars}
              options={options}
            />
          )}
          {needs.outcome && pick('outcome', t('analysis.outcome'), outcome, setOutcome)}
          {needs.survival && pick('time', t('analysis.time'), time, setTime)}
          {needs.survival && pick('event', t('analysis.event'), event, setEvent)}
          {needs.group && pick('group', t('analysis.group'), group, setGroup)}
          <Button
            type="primary"
            data-testid="run-analysis"
            loading={run.isPending}
            onClick={() => run.mutate()}
          >
            {t('analysis.run')}
          </Button>
        </Space>
        {history.isError && <Alert type="error" showIcon message={history.error.message} />}
        {latest && (
          <Card
            type="inner"
            title={`${t('analysis.result')} #${latest.task_id}`}
            data-testid="analysis-result"
          >
            {isUnderWay(latest.status) ? (
              <Spin tip={t('analysis.waiting')} />
            ) : latest.status === 'failed' ? (
              <Alert type="error" message={latest.error} />
            ) : (
              <AnalysisResult
                method={asked?.analysis?.method ?? 'descriptive'}
                result={latest.result as Record<string, unknown>}
                params={asked?.analysis ?? {}}
                columns={ds.columns}
              />
            )}
          </Card>
        )}
      </Space>
    </Card>
  );
}

/** MIMIC 分析 (`/scientific-research-subject/analysis-mining/mimic`): analysis on an external dataset. */
export default function MimicAnalysis() {
  const { t } = useTranslation(MIMIC_NS);
  const can = useHasAction();
  const word = useLabel();
  const list = useQuery({ queryKey: ['external-datasets'], queryFn: externalApi.list });
  const [id, setId] = useState<number | null>(null);
  const ds = list.data?.items.find((d) => d.id === id) ?? list.data?.items[0];
  const preview = useQuery({
    queryKey: ['external-preview', ds?.id],
    queryFn: () => externalApi.preview(ds!.id),
    enabled: !!ds,
  });
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <Card title={t('title')} data-testid="mimic">
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text type="secondary">{t('hint')}</Typography.Text>
          {can(MENU, 'add') && (
            <ImportCard
              onDone={async (d) => {
                await list.refetch();
                setId(d.id);
              }}
            />
          )}
          {list.isError ? (
            <Alert type="error" showIcon message={list.error.message} />
          ) : (
            <Table<ExternalDataset>
              rowKey="id"
              size="small"
              pagination={false}
              loading={list.isLoading}
              locale={{ emptyText: t('empty') }}
              dataSource={list.data?.items ?? []}
              rowSelection={{
                type: 'radio',
                selectedRowKeys: ds ? [ds.id] : [],
                onChange: (keys) => setId(Number(keys[0])),
              }}
              columns={[
                { title: t('name'), dataIndex: 'name' },
                {
                  title: t('layout'),
                  key: 'layout',
                  render: (_, d) => <Tag>{word('externalLayout', d.layout)}</Tag>,
                },
                { title: t('rows'), dataIndex: 'rowCount' },
                { title: t('columns'), key: 'columns', render: (_, d) => d.columns.length },
                {
                  title: '',
                  key: 'actions',
                  render: (_, d) =>
                    can(MENU, 'delete') && (
                      <DeleteLink
                        name={d.name}
                        onDelete={() => externalApi.remove(d.id)}
                        onDeleted={() => list.refetch()}
                      />
                    ),
                },
              ]}
            />
          )}
        </Space>
      </Card>
      {ds && (
        <Card title={`${ds.name} · ${t('preview')}`} data-testid="mimic-preview">
          {preview.isError ? (
            <Alert type="error" showIcon message={preview.error.message} />
          ) : (
            <Table
              rowKey={(_, i) => String(i)}
              size="small"
              pagination={false}
              scroll={{ x: 'max-content', y: 320 }}
              loading={preview.isLoading}
              dataSource={preview.data?.rows ?? []}
              columns={[
                // The dataset's columns in their order, then the text columns kept for a look.
                ...new Set([...ds.columns.map((c) => c.key), ...Object.keys(preview.data?.rows[0] ?? {})]),
              ].map((k) => ({
                title: k,
                dataIndex: k,
                render: (v: unknown) => (v === null ? '-' : String(v)),
              }))}
            />
          )}
        </Card>
      )}
      {ds && <Analyse key={ds.id} ds={ds} />}
    </Space>
  );
}
