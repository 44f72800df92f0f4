import { RECORD_QC_CHECKS, type RecordQcCheck, type RecordQcPlan } from '@crdp/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Form, Input, Modal, Popconfirm, Select, Space, Table } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLabel } from '../../app/labels';
import { useCan } from '../data-qc/api';
import { recordQcApi } from './api';
import { RQC_NS } from './i18n';

interface PlanForm {
  name: string;
  checks: RecordQcCheck[];
  departments: string[];
  range?: [Dayjs | null, Dayjs | null];
}

/** 病历质控方案: checks and a scope of inpatient stays (departments, admission dates); run one as a task. */
export default function PlanList() {
  const { t } = useTranslation(RQC_NS);
  const word = useLabel();
  const can = useCan();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const plans = useQuery({ queryKey: ['recordQc', 'plans'], queryFn: recordQcApi.plans });
  const [editing, setEditing] = useState<RecordQcPlan | 'new' | null>(null);
  const departments = useQuery({
    queryKey: ['recordQc', 'departments'],
    queryFn: recordQcApi.departments,
    enabled: !!editing,
  });
  const [form] = Form.useForm<PlanForm>();
  const refresh = () => qc.invalidateQueries({ queryKey: ['recordQc', 'plans'] });

  const open = (p: RecordQcPlan | 'new') => {
    setEditing(p);
    form.setFieldsValue(
      p === 'new'
        ? { name: '', checks: [...RECORD_QC_CHECKS], departments: [], range: undefined }
        : {
            name: p.name,
            checks: p.checks,
            departments: p.departments,
            range: [p.admitFrom ? dayjs(p.admitFrom) : null, p.admitTo ? dayjs(p.admitTo) : null],
          },
    );
  };
  const submit = async () => {
    const v = await form.validateFields();
    try {
      await recordQcApi.savePlan({
        id: editing && editing !== 'new' ? editing.id : undefined,
        name: v.name,
        checks: v.checks,
        departments: v.departments ?? [],
        admitFrom: v.range?.[0]?.format('YYYY-MM-DD') ?? null,
        admitTo: v.range?.[1]?.format('YYYY-MM-DD') ?? null,
      });
      message.success(t('common.saved'));
      setEditing(null);
      await refresh();
    } catch (e) {
      message.error((e as Error).message);
    }
  };
  const run = async (p: RecordQcPlan) => {
    try {
      const r = await recordQcApi.run(p.id);
      message.success(t('plans.started'));
      navigate(`/record-qc/task?task=${r.taskId}`);
    } catch (e) {
      message.error((e as Error).message);
    }
  };

  return (
    <Card
      title={t('plans.title')}
      extra={
        can('RecordQcPlan.add') && (
          <Button type="primary" onClick={() => open('new')}>
            {t('plans.create')}
          </Button>
        )
      }
    >
      <Table<RecordQcPlan>
        rowKey="id"
        data-testid="record-qc-plans"
        loading={plans.isLoading}
        dataSource={plans.data?.items ?? []}
        pagination={false}
        columns={[
          { title: t('plans.name'), dataIndex: 'name' },
          {
            title: t('plans.checks'),
            dataIndex: 'checks',
            render: (cs: RecordQcCheck[]) => cs.map((c) => word('recordQcCheck', c)).join('、'),
          },
          {
            title: t('plans.departments'),
            dataIndex: 'departments',
            render: (ds: string[]) => (ds.length ? ds.join('、') : t('plans.allDepartments')),
          },
          {
            title: t('plans.admitRange'),
            key: 'range',
            render: (_, p) => `${p.admitFrom ?? '…'} ~ ${p.admitTo ?? '…'}`,
          },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, p) => (
              <Space>
                {can('RecordQcTask.add') && (
                  <Button type="link" onClick={() => run(p)}>
                    {t('plans.run')}
                  </Button>
                )}
                {can('RecordQcPlan.edit') && (
                  <Button type="link" onClick={() => open(p)}>
                    {t('common.edit')}
                  </Button>
                )}
                {can('RecordQcPlan.delete') && (
                  <Popconfirm
                    title={t('common.deleteConfirm', { name: p.name })}
                    onConfirm={async () => {
                      try {
                        await recordQcApi.deletePlan(p.id);
                        message.success(t('common.deleted'));
                        await refresh();
                      } catch (e) {
                        message.error((e as Error).message);
                      }
                    }}
                  >
                    <Button type="link" danger>
                      {t('common.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={!!editing}
        title={editing === 'new' ? t('plans.create') : t('plans.editTitle')}
        destroyOnHidden
        width={640}
        onCancel={() => setEditing(null)}
        onOk={submit}
      >
        <Form form={form} layout="vertical" preserve={false}>
          <Form.Item name="name" label={t('plans.name')} rules={[{ required: true, max: 60 }]}>
            <Input />
          </Form.Item>
          <Form.Item name="checks" label={t('plans.checks')} rules={[{ required: true }]}>
            <Select
              mode="multiple"
              options={RECORD_QC_CHECKS.map((c) => ({ value: c, label: word('recordQcCheck', c) }))}
            />
          </Form.Item>
          <Form.Item name="departments" label={t('plans.departments')} extra={t('plans.departmentsHint')}>
            <Select
              mode="tags"
              options={(departments.data?.items ?? []).map((d) => ({ value: d, label: d }))}
            />
          </Form.Item>
          <Form.Item name="range" label={t('plans.admitRange')}>
            <DatePicker.RangePicker allowEmpty={[true, true]} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
