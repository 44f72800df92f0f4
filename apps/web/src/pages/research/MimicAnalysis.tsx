import type { ExternalDataset, ResearchAnalysisParams } from '@crdp/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input, Space, Table, Tag, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { useHasAction } from '../../components/Authorized';
import { DeleteLink } from '../../components/DeleteLink';
import { saveOrShow } from '../../components/form/server-errors';
import { isUnderWay, useJobPoll } from '../../components/jobs/useJobPoll';
import { AnalysisFields, AnalysisOutcome, useAnalysisChoice } from './AnalysisChoice';
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

/** Every single column is picked in the same width and can be cleared. */
const PICKER = { width: 180, allowClear: true };
const PICKERS = { outcome: PICKER, time: PICKER, event: PICKER, group: PICKER };

function Analyse({ ds }: { ds: ExternalDataset }) {
  const { t } = useTranslation(RESEARCH_NS);
  const m = useTranslation(MIMIC_NS).t;
  const { message } = App.useApp();
  const choice = useAnalysisChoice();
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
    mutationFn: () => externalApi.analyse(ds.id, choice.params() as ResearchAnalysisParams),
    onSuccess: () => history.refetch(),
    onError: (e: Error) => message.error(e.message),
  });
  const latest = history.data?.items[0];
  return (
    <Card title={m('analyse')} data-testid="mimic-analyse">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <AnalysisFields
            choice={choice}
            options={options}
            pickers={PICKERS}
            running={run.isPending}
            onRun={() => run.mutate()}
          />
        </Space>
        {history.isError && <Alert type="error" showIcon message={history.error.message} />}
        {latest && (
          <Card
            type="inner"
            title={`${t('analysis.result')} #${latest.task_id}`}
            data-testid="analysis-result"
          >
            <AnalysisOutcome task={latest} columns={ds.columns} />
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
