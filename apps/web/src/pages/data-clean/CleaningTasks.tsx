import type { CLEANING_DOCUMENT_KINDS } from '@crdp/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Form, Input, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Authorized } from '../../components/Authorized';
import { showServerFieldError } from '../../components/form/server-errors';
import { cleaningApi } from './api';
import { DATA_CLEAN_NS } from './i18n';
import { RulesAndKindsItems } from './shared';
import { TaskTable } from './TaskTable';

interface TaskForm {
  name: string;
  rules: string[];
  kinds: string[];
  from?: Dayjs | null;
  to?: Dayjs | null;
}

/** 清洗任务: queue a rule set over a scope of the CDR's documents, and follow the tasks. */
export default function CleaningTasks() {
  const { t } = useTranslation(DATA_CLEAN_NS);
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<TaskForm>();
  const create = useMutation({
    mutationFn: (v: TaskForm) =>
      cleaningApi.createTask({
        name: v.name,
        rules: v.rules,
        scope: {
          kinds: (v.kinds ?? []) as (typeof CLEANING_DOCUMENT_KINDS)[number][],
          from: v.from ? v.from.format('YYYY-MM-DD') : null,
          to: v.to ? v.to.format('YYYY-MM-DD') : null,
        },
      }),
    onSuccess: async () => {
      message.success(t('tasks.created'));
      await qc.invalidateQueries({ queryKey: ['cleaning', 'tasks'] });
    },
    onError: (e) => {
      if (!showServerFieldError(form, e, ['name', 'rules', 'kinds', 'from', 'to'])) message.error(e.message);
    },
  });
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <Card title={t('tasks.title')}>
        <Typography.Paragraph type="secondary">{t('tasks.hint')}</Typography.Paragraph>
        <Authorized apiId="DataCleanCleaningTasks.add">
          <Form
            form={form}
            layout="inline"
            initialValues={{ rules: [], kinds: [] }}
            onFinish={(v) => create.mutate(v)}
          >
            <Form.Item name="name" label={t('tasks.name')} rules={[{ required: true }]}>
              <Input maxLength={60} data-testid="task-name" />
            </Form.Item>
            <RulesAndKindsItems />
            <Form.Item name="from" label={t('tasks.from')}>
              <DatePicker />
            </Form.Item>
            <Form.Item name="to" label={t('tasks.to')}>
              <DatePicker />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={create.isPending} data-testid="task-create">
              {t('tasks.create')}
            </Button>
          </Form>
        </Authorized>
      </Card>
      <Card title={t('tasks.list')}>
        <TaskTable />
      </Card>
    </Space>
  );
}
