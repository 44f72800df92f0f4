import type { JobStatus } from '@crdp/core';
import { Alert, Button, Select, Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isUnderWay } from '../../components/jobs/useJobPoll';
import { AnalysisResult } from './AnalysisResult';
import type { DatasetColumn } from './api';
import { RESEARCH_NS } from './i18n';

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

/** The analysis being chosen: its method and the columns it is asked about. */
export function useAnalysisChoice() {
  const [method, setMethod] = useState<Method>('descriptive');
  const [vars, setVars] = useState<string[]>([]);
  const [outcome, setOutcome] = useState<string>();
  const [group, setGroup] = useState<string>();
  const [time, setTime] = useState<string>();
  const [event, setEvent] = useState<string>();
  return {
    method,
    setMethod,
    vars,
    setVars,
    outcome,
    setOutcome,
    group,
    setGroup,
    time,
    setTime,
    event,
    setEvent,
    /** The analysis' params as the server takes them. */
    params: () => paramsOf(method, { vars, outcome, group, time, event }),
  };
}
export type AnalysisChoice = ReturnType<typeof useAnalysisChoice>;

/** How each single column is picked: its width and whether it can be cleared. */
type Pickers = Record<'outcome' | 'time' | 'event' | 'group', { width: number; allowClear?: boolean }>;

/**
 * The method, the columns the method asks for (variables or predictors, outcome, time and event,
 * group) and the run button, for a row of choices.
 */
export function AnalysisFields({
  choice,
  options,
  pickers,
  running,
  disabled,
  onRun,
}: {
  choice: AnalysisChoice;
  options: { value: string; label: string }[];
  pickers: Pickers;
  running: boolean;
  disabled?: boolean;
  onRun: () => void;
}) {
  const { t } = useTranslation(RESEARCH_NS);
  const { method } = choice;
  const needs = {
    vars: method === 'descriptive' || method === 'linear' || method === 'logistic',
    outcome: method !== 'descriptive' && method !== 'kaplanMeier',
    group: ['ttest', 'mannWhitney', 'chiSquare', 'kaplanMeier'].includes(method),
    survival: method === 'kaplanMeier',
  };
  const pick = (
    key: keyof Pickers,
    placeholder: string,
    value: string | undefined,
    set: (v: string) => void,
  ) => (
    <Select
      data-testid={key}
      allowClear={pickers[key].allowClear}
      style={{ width: pickers[key].width }}
      placeholder={placeholder}
      value={value}
      onChange={set}
      options={options}
    />
  );
  return (
    <>
      <Select
        data-testid="method"
        style={{ width: 220 }}
        value={method}
        onChange={choice.setMethod}
        options={METHODS.map((m) => ({ value: m, label: t(`analysis.${m}`) }))}
      />
      {needs.vars && (
        <Select
          data-testid="vars"
          mode="multiple"
          style={{ minWidth: 240 }}
          placeholder={method === 'descriptive' ? t('analysis.variables') : t('analysis.predictors')}
          value={choice.vars}
          onChange={choice.setVars}
          options={options}
        />
      )}
      {needs.outcome && pick('outcome', t('analysis.outcome'), choice.outcome, choice.setOutcome)}
      {needs.survival && pick('time', t('analysis.time'), choice.time, choice.setTime)}
      {needs.survival && pick('event', t('analysis.event'), choice.event, choice.setEvent)}
      {needs.group && pick('group', t('analysis.group'), choice.group, choice.setGroup)}
      <Button type="primary" data-testid="run-analysis" disabled={disabled} loading={running} onClick={onRun}>
        {t('analysis.run')}
      </Button>
    </>
  );
}

/** An analysis task as it stands: waiting while it runs, the reason when it failed, else its result. */
export function AnalysisOutcome({
  task,
  columns,
}: {
  /** Nothing yet while the task is first read. */
  task: { status: JobStatus; error: string | null; result: unknown; params: unknown } | undefined;
  columns: DatasetColumn[];
}) {
  const { t } = useTranslation(RESEARCH_NS);
  if (!task || isUnderWay(task.status)) return <Spin tip={t('analysis.waiting')} />;
  const asked = task.params as { analysis?: { method?: string } & Record<string, unknown> } | undefined;
  if (task.status === 'failed') return <Alert type="error" message={task.error} />;
  return (
    <AnalysisResult
      method={asked?.analysis?.method ?? 'descriptive'}
      result={task.result as Record<string, unknown>}
      params={asked?.analysis ?? {}}
      columns={columns}
    />
  );
}
