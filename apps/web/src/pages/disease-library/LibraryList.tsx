import {
  type ActionType,
  ModalForm,
  ProFormDigit,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
  ProTable,
} from '@ant-design/pro-components';
import { App, Button, Space } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type Library, libraryApi, waitForJob } from './api';
import { LIBRARY_NS } from './i18n';

interface CreateValues {
  name: string;
  description?: string;
  crfFormId: number;
  include?: string;
  exclude?: string;
  filingRule: string;
  rules?: string;
  pushEveryHours?: number;
}

const codes = (s?: string) =>
  (s ?? '')
    .split(/[,，\s]+/)
    .map((c) => c.trim())
    .filter(Boolean);

/** Turns the form's text fields into the library call's criteria and source rules. */
export function toLibraryInput(v: CreateValues) {
  const inc = codes(v.include);
  const exc = codes(v.exclude);
  const sourceRules: Record<string, string> = {};
  for (const line of (v.rules ?? '').split('\n')) {
    const i = line.indexOf('=');
    if (i > 0) sourceRules[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return {
    name: v.name,
    description: v.description ?? '',
    crfFormId: v.crfFormId,
    filingRule: v.filingRule,
    pushEveryHours: v.pushEveryHours ?? 0,
    criteria: {
      match: 'all',
      inclusion: inc.length ? [{ kind: 'diagnosis', codes: inc }] : [],
      exclusion: exc.length ? [{ kind: 'diagnosis', codes: exc }] : [],
    },
    sourceRules,
  };
}

/** library-list: every library of the app, with create, push, fill and the way to its patients. */
export default function LibraryList() {
  const { t } = useTranslation(LIBRARY_NS);
  const { message } = App.useApp();
  const navigate = useNavigate();
  const table = useRef<ActionType>(null);

  const run = async (kind: 'push' | 'fill', lib: Library) => {
    const { jobId } = await (kind === 'push' ? libraryApi.push(lib.id) : libraryApi.fill(lib.id));
    const hide = message.loading(`${t(`list.${kind}`)}…`, 0);
    try {
      const job = await waitForJob(jobId);
      if (job.status === 'failed') message.error(t('list.failed', { error: job.error ?? '' }));
      else if (kind === 'push') message.success(t('list.pushed', job.result as Record<string, number>));
      else message.success(t('list.filled', (job.result as { counts: Record<string, number> }).counts));
    } finally {
      hide();
      table.current?.reload();
    }
  };

  return (
    <ProTable<Library>
      rowKey="id"
      actionRef={table}
      headerTitle={t('list.title')}
      search={false}
      request={async (p) => {
        const r = await libraryApi.list({ page: p.current ?? 1, size: p.pageSize ?? 20 });
        return { data: r.items, total: r.total, success: true };
      }}
      toolBarRender={() => [
        <ModalForm<CreateValues>
          key="create"
          title={t('list.create')}
          trigger={<Button type="primary">{t('list.create')}</Button>}
          initialValues={{ filingRule: 'firstVisit', pushEveryHours: 0 }}
          modalProps={{ destroyOnHidden: true }}
          onFinish={async (v) => {
            try {
              await libraryApi.create(toLibraryInput(v));
              table.current?.reload();
              return true;
            } catch (e) {
              message.error((e as Error).message);
              return false;
            }
          }}
        >
          <ProFormText name="name" label={t('create.name')} rules={[{ required: true }]} />
          <ProFormSelect
            name="crfFormId"
            label={t('create.form')}
            rules={[{ required: true }]}
            request={async () =>
              (await libraryApi.forms()).items
                .filter((f) => f.latestVersion > 0)
                .map((f) => ({ label: f.name, value: f.id }))
            }
          />
          <ProFormText name="include" label={t('create.include')} placeholder="B18" />
          <ProFormText name="exclude" label={t('create.exclude')} placeholder="C22" />
          <ProFormSelect
            name="filingRule"
            label={t('create.filing')}
            options={[
              { value: 'push', label: t('create.filingPush') },
              { value: 'firstVisit', label: t('create.filingFirstVisit') },
              { value: 'firstDiagnosis', label: t('create.filingFirstDiagnosis') },
            ]}
          />
          <ProFormTextArea
            name="rules"
            label={t('create.rules')}
            fieldProps={{ rows: 5 }}
            placeholder={
              'alt = latest lab.value where code = "ALT" before first_visit\nadmissions = count visit where kind = "inpatient"'
            }
          />
          <ProFormDigit name="pushEveryHours" label={t('create.every')} min={0} max={2160} />
          <ProFormTextArea name="description" label={t('create.description')} />
        </ModalForm>,
      ]}
      columns={[
        { title: t('list.name'), dataIndex: 'name' },
        { title: t('list.disease'), dataIndex: 'diseaseName' },
        { title: t('list.crf'), dataIndex: 'crfFormName' },
        { title: t('list.patients'), dataIndex: 'patients' },
        { title: t('list.lastPush'), dataIndex: 'lastPushAt', valueType: 'dateTime' },
        { title: t('list.lastFill'), dataIndex: 'lastFillAt', valueType: 'dateTime' },
        {
          title: '',
          valueType: 'option',
          render: (_, r) => (
            <Space>
              <Button size="small" onClick={() => run('push', r)}>
                {t('list.push')}
              </Button>
              <Button size="small" onClick={() => run('fill', r)}>
                {t('list.fill')}
              </Button>
              <Button
                size="small"
                type="link"
                onClick={() => navigate(`/zhuanbing-library/patients-list?libraryId=${r.id}`)}
              >
                {t('list.open')}
              </Button>
              <Button
                size="small"
                type="link"
                onClick={() => navigate(`/zhuanbing-library/fill_log?libraryId=${r.id}`)}
              >
                {t('list.log')}
              </Button>
            </Space>
          ),
        },
      ]}
    />
  );
}
