import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Select, Space, Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isUnderWay, useJobPoll } from '../../components/jobs/useJobPoll';
import { AnalysisResult } from './AnalysisResult';
import { researchApi } from './api';
import { RESEARCH_NS } from './i18n';
import { columnLabel } from './labels';
import SubjectList from './SubjectList';
import { useSubjectId } from './useSubjectId';

export const METHODS = [
  'descriptive',
  'ttest',
  'mannWhitney',
  'chiSquare',
  'linear',
  'logistic',
  'kaplanMeier',
] as const;
export type Method = (typeof METHODS)[number];

export function paramsOf(
  m: Method,
  v: { vars: string[]; outcome?: string; group?: string; time?: string; event?: string },
) {
  if (m === 'descriptive') return { method: m, variables: v.vars };
  if (m === 'ttest' || m === 'mannWhitney' || m === 'chiSquare')
    return { method: 'groupCompare', test: m, outcome: v.outcome, group: v.group };
  if (m === 'linear' || m === 'logistic') return { method: m, outcome: v.outcome, predictors: v.vars };
  return { method: m, time: v.time, event: v.event, ...(v.group ? { group: v.group } : {}) };
}

/** analysis-mining: run an analysis of a dataset as a task and read it with get_value_task_result. */
export default function AnalysisMining() {
  const { t } = useTranslation(RESEARCH_NS);
  const { message } = App.useApp();
  const id = useSubjectId();
  const datasets = useQuery({
    queryKey: ['research', 'datasets', id],
    queryFn: () => researchApi.datasets(id!),
    enabled: id !== null,
  });
  const [datasetId, setDatasetId] = useState<number | null>(null);
  const [method, setMethod] = useState<Method>('descriptive');
  const [vars, setVars] = useState<string[]>([]);
  const [outcome, setOutcome] = useState<string>();
  const [group, setGroup] = useState<string>();
  const [time, setTime] = useState<string>();
  const [event, setEvent] = useState<string>();
  const [taskId, setTaskId] = useState<number | null>(null);
  const ready = (datasets.data ?? []).filter((d) => d.status === 'ready');
  const ds = ready.find((d) => d.id === datasetId) ?? ready[0];
  const options = (ds?.columns ?? []).map((c) => ({ value: c.key, label: columnLabel(t, c) }));
  const task = useJobPoll({
    queryKey: ['research', 'task', taskId],
    queryFn: () => researchApi.taskResult(taskId!),
    enabled: taskId !== null,
    underWay: (r) => isUnderWay(r.status),
  });
  const run = useMutation({
    mutationFn: () =>
      researchApi.analyse(id!, ds!.id, paramsOf(method, { vars, outcome, group, time, event })),
    onSuccess: (r) => setTaskId(r.task_id),
    onError: (e: Error) => message.error(e.message),
  });
  if (id === null) return <SubjectList target="analysis-mining/index" />;
  const needs = {
    vars: method === 'descriptive' || method === 'linear' || method === 'logistic',
    outcome: method !== 'descriptive' && method !== 'kaplanMeier',
    group: ['ttest', 'mannWhitney', 'chiSquare', 'kaplanMeier'].includes(method),
    survival: method === 'kaplanMeier',
  };
  const result = task.data;
  const asked = result?.params as
    | { datasetId?: number; analysis?: { method?: string } & Record<string, unknown> }
    | undefined;
  const shownMethod = asked?.analysis?.method ?? 'descriptive';
  const shownColumns = (datasets.data ?? []).find((d) => d.id === asked?.datasetId)?.columns ?? [];
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Card title={t('analysis.title')}>
        <Space wrap>
          <Select
            style={{ width: 200 }}
            placeholder={t('analysis.dataset')}
            value={ds?.id}
            onChange={setDatasetId}
            options={ready.map((d) => ({ value: d.id, label: d.name }))}
          />
          <Select
            data-testid="method"
            style={{ width: 220 }}
            value={method}
            onChange={setMethod}
            options={METHODS.map((m) => ({ value: m, label: t(`analysis.${m}`) }))}
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
          {needs.outcome && (
            <Select
              data-testid="outcome"
              style={{ width: 180 }}
              placeholder={t('analysis.outcome')}
              value={outcome}
              onChange={setOutcome}
              options={options}
            />
          )}
          {needs.survival && (
            <Select
              data-testid="time"
              style={{ width: 160 }}
              placeholder={t('analysis.time')}
              value={time}
              onChange={setTime}
              options={options}
            />
          )}
          {needs.survival && (
            <Select
              data-testid="event"
              style={{ width: 160 }}
              placeholder={t('analysis.event')}
              value={event}
              onChange={setEvent}
              options={options}
            />
          )}
          {needs.group && (
            <Select
              data-testid="group"
              allowClear
              style={{ width: 160 }}
              placeholder={t('analysis.group')}
              value={group}
              onChange={setGroup}
              options={options}
            />
          )}
          <Button
            type="primary"
            data-testid="run-analysis"
            disabled={!ds}
            loading={run.isPending}
            onClick={() => run.mutate()}
          >
            {t('analysis.run')}
          </Button>
        </Space>
      </Card>
      {taskId !== null && (
        <Card title={`${t('analysis.result')} #${taskId}`} data-testid="analysis-result">
          {task.isError ? (
            <Alert type="error" message={task.error.message} />
          ) : !result || isUnderWay(result.status) ? (
            <Spin tip={t('analysis.waiting')} />
          ) : result.status === 'failed' ? (
            <Alert type="error" message={result.error} />
          ) : (
            <AnalysisResult
              method={shownMethod}
              result={result.result as Record<string, unknown>}
              params={asked?.analysis ?? {}}
              columns={shownColumns}
            />
          )}
        </Card>
      )}
    </Space>
  );
}
