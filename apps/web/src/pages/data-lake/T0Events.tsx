import { ProFormDependency, ProFormDigit, ProFormSelect, ProFormText } from '@ant-design/pro-components';
import {
  T0_COMPARATORS,
  T0_DESCRIPTION_MAX,
  T0_NAME_MAX,
  T0_RULE_KINDS,
  type T0Event,
  type T0RuleBody,
  type T0State,
} from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Drawer, Empty, Space, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { useHasAction } from '../../components/Authorized';
import { DefinitionsCard } from '../../components/DefinitionsCard';
import { DeleteLink } from '../../components/DeleteLink';
import { DefinitionForm } from '../../components/form/DefinitionForm';
import { NameDescriptionFields } from '../../components/form/NameDescriptionFields';
import { isUnderWay, useJobPoll } from '../../components/jobs/useJobPoll';
import { t0Api } from './reference-api';
import { REFERENCE_NS } from './reference-i18n';

const MENU = 'DataLakeT0Event';
const STATE_COLOR: Record<T0State, string> = {
  new: 'default',
  stale: 'warning',
  queued: 'processing',
  running: 'processing',
  ready: 'success',
  failed: 'error',
};
/** Source tables of a T0 as the labelling layer's table keys. */
const SOURCE_KEY: Record<string, string> = {
  diagnoses: 'diagnoses',
  operations: 'operations',
  lab_results: 'labResults',
  visits: 'visits',
};

type RuleForm = {
  name: string;
  description?: string;
  kind: T0RuleBody['kind'];
  icd10Prefix?: string;
  keyword?: string;
  itemCode?: string;
  comparator?: string;
  threshold?: number;
  department?: string;
};

function ruleOf(v: RuleForm): T0RuleBody {
  switch (v.kind) {
    case 'firstDiagnosis':
      return { kind: v.kind, icd10Prefix: v.icd10Prefix ?? '' };
    case 'firstOperation':
      return { kind: v.kind, keyword: v.keyword ?? '' };
    case 'firstLab':
      return {
        kind: v.kind,
        itemCode: v.itemCode ?? '',
        comparator: (v.comparator ?? '>') as (typeof T0_COMPARATORS)[number],
        threshold: Number(v.threshold),
      };
    case 'firstAdmission':
      return { kind: v.kind, department: v.department ?? '' };
  }
}

/** The rule in words: 首次诊断编码以 B18.1 开头. */
function useRuleText() {
  const { t } = useTranslation(REFERENCE_NS);
  return (r: T0Event['rule']) =>
    r.kind === 'firstAdmission' && r.department
      ? t('t0.ruleText.firstAdmissionIn', { department: r.department })
      : t(`t0.ruleText.${r.kind}`, { ...r, interpolation: { escapeValue: false } });
}

/** One event's patients and their T0, newest first, with the count per year. */
function PatientsDrawer({ event, onClose }: { event: T0Event | null; onClose: () => void }) {
  const { t } = useTranslation(REFERENCE_NS);
  const word = useLabel();
  const [page, setPage] = useState({ page: 1, size: 20 });
  const q = useQuery({
    queryKey: ['t0-patients', event?.id, page],
    queryFn: () => t0Api.patients(event!.id, page),
    enabled: !!event,
  });
  return (
    <Drawer
      open={!!event}
      onClose={onClose}
      width={720}
      title={event && t('t0.patientsTitle', { name: event.name })}
      destroyOnHidden
      data-testid="t0-patients"
    >
      {q.isError ? (
        <Alert type="error" showIcon message={q.error.message} />
      ) : (
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          {!!q.data?.byYear.length && (
            <Space wrap data-testid="t0-by-year">
              <Typography.Text type="secondary">{t('t0.byYear')}</Typography.Text>
              {q.data.byYear.map((y) => (
                <Tag key={y.year}>
                  {y.year}: {y.n}
                </Tag>
              ))}
            </Space>
          )}
          <Table
            size="small"
            rowKey="patientId"
            loading={q.isLoading}
            dataSource={q.data?.items ?? []}
            locale={{ emptyText: <Empty description={t('t0.noPatients')} /> }}
            pagination={{
              current: page.page,
              pageSize: page.size,
              total: q.data?.total ?? 0,
              onChange: (p, s) => setPage({ page: p, size: s }),
            }}
            columns={[
              { title: t('t0.mrn'), dataIndex: 'mrn' },
              {
                title: t('t0.t0'),
                dataIndex: 't0',
                render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
              },
              {
                title: t('t0.source'),
                dataIndex: 'sourceTable',
                render: (v: string) => word('cdrTable', SOURCE_KEY[v] ?? v),
              },
            ]}
          />
        </Space>
      )}
    </Drawer>
  );
}

/**
 * T0 事件 (`/data-lake/t0-event`): the app's index-date rules, their calculation as a job (the
 * list follows it while it runs), and each patient's T0.
 */
export default function T0Events() {
  const { t } = useTranslation(REFERENCE_NS);
  const { message } = App.useApp();
  const can = useHasAction();
  const ruleText = useRuleText();
  const [editing, setEditing] = useState<T0Event | 'new' | null>(null);
  const [viewing, setViewing] = useState<T0Event | null>(null);
  const list = useJobPoll({
    queryKey: ['t0-events'],
    queryFn: t0Api.list,
    underWay: (d) => d.items.some((e) => isUnderWay(e.state)),
  });
  const run = async (e: T0Event) => {
    await t0Api.run(e.id);
    message.info(t('t0.started'));
    await list.refetch();
  };
  const why = async (e: T0Event) => {
    if (!e.jobId) return;
    const job = await t0Api.job(e.jobId);
    message.error(job.error ?? t('t0.states.failed'));
  };

  return (
    <DefinitionsCard<T0Event>
      title={t('t0.title')}
      testId="t0-events"
      addApiId={`${MENU}.add`}
      actions={
        <Button type="primary" onClick={() => setEditing('new')}>
          {t('t0.add')}
        </Button>
      }
      hint={t('t0.hint')}
      list={list}
      empty={t('t0.empty')}
      columns={[
        { title: t('common.name'), dataIndex: 'name' },
        { title: t('t0.rule'), key: 'rule', render: (_, e) => ruleText(e.rule) },
        {
          title: t('t0.state'),
          dataIndex: 'state',
          render: (_, e) => <Tag color={STATE_COLOR[e.state]}>{t(`t0.states.${e.state}`)}</Tag>,
        },
        {
          title: t('t0.patients'),
          dataIndex: 'patients',
          align: 'right',
          render: (_, e) => (e.materializedAt ? e.patients.toLocaleString() : '—'),
        },
        {
          title: t('t0.materializedAt'),
          dataIndex: 'materializedAt',
          render: (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm') : '—'),
        },
        {
          title: t('common.actions'),
          key: 'actions',
          render: (_, e) => (
            <Space size={0} wrap>
              {can(MENU, 'edit') && (
                <Button type="link" size="small" disabled={isUnderWay(e.state)} onClick={() => run(e)}>
                  {e.materializedAt ? t('t0.rerun') : t('t0.run')}
                </Button>
              )}
              {e.state === 'failed' && (
                <Button type="link" size="small" danger onClick={() => why(e)}>
                  {t('t0.failedReason')}
                </Button>
              )}
              {can(MENU, 'get') && e.materializedAt && (
                <Button type="link" size="small" onClick={() => setViewing(e)}>
                  {t('t0.view')}
                </Button>
              )}
              {can(MENU, 'edit') && (
                <Button type="link" size="small" onClick={() => setEditing(e)}>
                  {t('common.edit')}
                </Button>
              )}
              {can(MENU, 'delete') && (
                <DeleteLink
                  name={e.name}
                  onDelete={() => t0Api.remove(e.id)}
                  onDeleted={() => list.refetch()}
                />
              )}
            </Space>
          ),
        },
      ]}
    >
      <DefinitionForm<T0Event, RuleForm, Parameters<typeof t0Api.add>[0]>
        editing={editing}
        onClose={() => setEditing(null)}
        title={{ add: t('t0.add'), edit: t('t0.edit') }}
        initialValues={(existing) =>
          existing
            ? { name: existing.name, description: existing.description, ...existing.rule }
            : { kind: 'firstDiagnosis', comparator: '>' }
        }
        toBody={(v) => ({ name: v.name, description: v.description ?? '', rule: ruleOf(v) })}
        add={t0Api.add}
        edit={t0Api.edit}
        savedText={t('common.saved')}
        onSaved={() => list.refetch()}
      >
        <NameDescriptionFields
          nameLabel={t('common.name')}
          nameRequired={t('t0.nameRequired')}
          nameMax={T0_NAME_MAX}
          descriptionLabel={t('t0.description')}
          descriptionMax={T0_DESCRIPTION_MAX}
        />
        <ProFormSelect
          name="kind"
          label={t('t0.kind')}
          allowClear={false}
          options={T0_RULE_KINDS.map((k) => ({ value: k, label: t(`t0.kinds.${k}`) }))}
        />
        <ProFormDependency name={['kind']}>
          {({ kind }) => {
            const required = [{ required: true, whitespace: true, message: t('t0.required') }];
            if (kind === 'firstDiagnosis')
              return (
                <ProFormText
                  name="icd10Prefix"
                  label={t('t0.icd10Prefix')}
                  rules={required}
                  placeholder="B18.1"
                />
              );
            if (kind === 'firstOperation')
              return <ProFormText name="keyword" label={t('t0.keyword')} rules={required} />;
            if (kind === 'firstAdmission')
              return <ProFormText name="department" label={t('t0.department')} />;
            return (
              <Space wrap align="start">
                <ProFormText name="itemCode" label={t('t0.itemCode')} rules={required} placeholder="ALT" />
                <ProFormSelect
                  name="comparator"
                  label={t('t0.comparator')}
                  allowClear={false}
                  options={T0_COMPARATORS.map((c) => ({ value: c, label: c }))}
                  fieldProps={{ style: { width: 90 } }}
                />
                <ProFormDigit
                  name="threshold"
                  label={t('t0.threshold')}
                  rules={[{ required: true, message: t('t0.required') }]}
                  fieldProps={{ precision: undefined }}
                  min={-1e12}
                  max={1e12}
                />
              </Space>
            );
          }}
        </ProFormDependency>
      </DefinitionForm>
      <PatientsDrawer event={viewing} onClose={() => setViewing(null)} />
    </DefinitionsCard>
  );
}
