import { ProFormDependency, ProFormRadio, ProFormSelect, ProFormTextArea } from '@ant-design/pro-components';
import type { SciTask } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useHasAction } from '../../components/Authorized';
import { DefinitionNameField, DefinitionsScreen, definitionTexts } from '../../components/DefinitionsScreen';
import { PickManyField } from '../../components/form/PickManyField';
import { sciApi } from './api';
import { SnapshotStatus } from './common';
import { SCI_NS } from './i18n';

const MENU = 'DatabasesTransformTask';

type TaskForm = {
  name: string;
  description?: string;
  subjectId: number;
  cohort: 'subject' | 'library';
  libraryId?: number;
  from: 'group' | 'list';
  variableGroupId?: number;
  variableIds?: number[];
};

/** 转换任务 (`/scientific-database/transform-task`): what a snapshot is built from, and its runs. */
export default function TransformTasks() {
  const { t, i18n } = useTranslation(SCI_NS);
  const { message } = App.useApp();
  const can = useHasAction();
  const [editing, setEditing] = useState<SciTask | 'new' | null>(null);
  const list = useQuery({ queryKey: ['sci', 'tasks'], queryFn: sciApi.tasks });
  const choices = useQuery({ queryKey: ['sci', 'choices'], queryFn: sciApi.choices, enabled: !!editing });
  const en = i18n.language === 'en-US';
  const run = async (task: SciTask) => {
    const r = await sciApi.run(task.id);
    message.success(t('tasks.queued', { version: r.version }));
    await list.refetch();
  };

  return (
    <DefinitionsScreen<SciTask, TaskForm, Parameters<typeof sciApi.addTask>[0]>
      {...definitionTexts(t, 'tasks')}
      testId="sci-tasks"
      menu={MENU}
      list={list}
      columns={[
        { title: t('tasks.name'), dataIndex: 'name' },
        { title: t('tasks.subject'), dataIndex: 'subjectName' },
        {
          title: t('tasks.cohort'),
          key: 'cohort',
          render: (_, r) =>
            r.cohort === 'library'
              ? `${t('tasks.cohortLibrary')} · ${r.libraryName ?? ''}`
              : t('tasks.cohortSubject'),
        },
        {
          title: t('tasks.variables'),
          key: 'variables',
          render: (_, r) => (
            <Space size={4}>
              {r.variableGroupName && <Tag>{r.variableGroupName}</Tag>}
              <Typography.Text type="secondary">
                {t('tasks.variableCount', { count: r.variableCount })}
              </Typography.Text>
            </Space>
          ),
        },
        {
          title: t('tasks.latest'),
          key: 'latest',
          render: (_, r) =>
            r.latest ? (
              <Space>
                <span>v{r.latest.version}</span>
                <SnapshotStatus s={{ status: r.latest.status }} />
              </Space>
            ) : (
              <Typography.Text type="secondary">{t('tasks.none')}</Typography.Text>
            ),
        },
      ]}
      actionsTitle={t('actions')}
      editText={t('editLink')}
      rowLinks={(r) => (
        <>
          {can('DatabasesDataTransformTask', 'add') && (
            <Button type="link" size="small" onClick={() => run(r)} data-testid={`run-task-${r.id}`}>
              {t('tasks.run')}
            </Button>
          )}
          <Link to={`/scientific-database/data-transform-task?task=${r.id}`}>{t('tasks.builds')}</Link>
        </>
      )}
      api={{ add: sciApi.addTask, edit: sciApi.editTask, remove: sciApi.removeTask }}
      editing={editing}
      onEditing={setEditing}
      form={{
        editTitle: t('tasks.edit'),
        width: 640,
        valuesOf: (existing) => ({
          subjectId: existing.subjectId,
          cohort: existing.cohort,
          libraryId: existing.libraryId ?? undefined,
          from: existing.variableGroupId !== null ? 'group' : 'list',
          variableGroupId: existing.variableGroupId ?? undefined,
          variableIds: existing.variableIds,
        }),
        newValues: { cohort: 'subject', from: 'group' },
        bodyOf: (v) => ({
          subjectId: v.subjectId,
          cohort: v.cohort,
          libraryId: v.cohort === 'library' ? (v.libraryId ?? null) : null,
          variableGroupId: v.from === 'group' ? (v.variableGroupId ?? null) : null,
          variableIds: v.from === 'list' ? (v.variableIds ?? []) : [],
        }),
        savedText: t('saved'),
      }}
      fields={
        <>
          {choices.isError && <Alert type="error" showIcon message={choices.error.message} />}
          <DefinitionNameField label={t('tasks.name')} requiredText={t('required')} />
          <ProFormTextArea name="description" label={t('tasks.description')} fieldProps={{ rows: 2 }} />
          <ProFormSelect
            name="subjectId"
            label={t('tasks.subject')}
            showSearch
            rules={[{ required: true, message: t('required') }]}
            fieldProps={{ loading: choices.isLoading, optionFilterProp: 'label' }}
            options={(choices.data?.subjects ?? []).map((s) => ({ value: s.id, label: s.name }))}
          />
          <ProFormRadio.Group
            name="cohort"
            label={t('tasks.cohort')}
            options={[
              { value: 'subject', label: t('tasks.cohortSubject') },
              { value: 'library', label: t('tasks.cohortLibrary') },
            ]}
          />
          <ProFormDependency name={['cohort']}>
            {({ cohort }) =>
              cohort === 'library' && (
                <ProFormSelect
                  name="libraryId"
                  label={t('tasks.library')}
                  rules={[{ required: true, message: t('required') }]}
                  fieldProps={{ loading: choices.isLoading }}
                  options={(choices.data?.libraries ?? []).map((l) => ({ value: l.id, label: l.name }))}
                />
              )
            }
          </ProFormDependency>
          <ProFormRadio.Group
            name="from"
            label={t('tasks.variablesFrom')}
            options={[
              { value: 'group', label: t('tasks.fromGroup') },
              { value: 'list', label: t('tasks.fromList') },
            ]}
          />
          <ProFormDependency name={['from']}>
            {({ from }) =>
              from === 'group' ? (
                <ProFormSelect
                  name="variableGroupId"
                  label={t('tasks.group')}
                  rules={[{ required: true, message: t('required') }]}
                  fieldProps={{ loading: choices.isLoading }}
                  options={(choices.data?.groups ?? []).map((g) => ({
                    value: g.id,
                    label: `${g.name} (${t('tasks.variableCount', { count: g.variables })})`,
                  }))}
                />
              ) : (
                <PickManyField
                  loading={choices.isLoading}
                  name="variableIds"
                  label={t('tasks.variables')}
                  placeholder={t('tasks.pickVariables')}
                  rules={[{ required: true, message: t('required') }]}
                  options={(choices.data?.variables ?? []).map((x) => ({
                    value: x.id,
                    label: `${x.code} · ${en ? x.labelEn || x.labelZh : x.labelZh}`,
                  }))}
                />
              )
            }
          </ProFormDependency>
        </>
      }
    />
  );
}
