import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Card, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isUnderWay, useJobPoll } from '../../components/jobs/useJobPoll';
import { AnalysisFields, AnalysisOutcome, useAnalysisChoice } from './AnalysisChoice';
import { researchApi } from './api';
import { RESEARCH_NS } from './i18n';
import { columnLabel } from './labels';
import SubjectList from './SubjectList';
import { useSubjectId } from './useSubjectId';

/** The single columns' pickers: the outcome a little wider, the group can be cleared. */
const PICKERS = {
  outcome: { width: 180 },
  time: { width: 160 },
  event: { width: 160 },
  group: { width: 160, allowClear: true },
};

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
  const choice = useAnalysisChoice();
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
    mutationFn: () => researchApi.analyse(id!, ds!.id, choice.params()),
    onSuccess: (r) => setTaskId(r.task_id),
    onError: (e: Error) => message.error(e.message),
  });
  if (id === null) return <SubjectList target="analysis-mining/index" />;
  const result = task.data;
  const asked = result?.params as { datasetId?: number } | undefined;
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
          <AnalysisFields
            choice={choice}
            options={options}
            pickers={PICKERS}
            running={run.isPending}
            disabled={!ds}
            onRun={() => run.mutate()}
          />
        </Space>
      </Card>
      {taskId !== null && (
        <Card title={`${t('analysis.result')} #${taskId}`} data-testid="analysis-result">
          {task.isError ? (
            <Alert type="error" message={task.error.message} />
          ) : (
            <AnalysisOutcome task={result} columns={shownColumns} />
          )}
        </Card>
      )}
    </Space>
  );
}
