import { CLEANING_SECTIONS, type RecordQcParams, type RecordQcRule } from '@crdp/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, InputNumber, Modal, Select, Switch, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { useCan } from '../data-qc/api';
import { recordQcApi } from './api';
import { RQC_NS } from './i18n';

/** 病历质控规则: the built-in checks, switched on or off and given parameters for this app. */
export default function RuleList() {
  const { t } = useTranslation(RQC_NS);
  const word = useLabel();
  const can = useCan();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const rules = useQuery({ queryKey: ['recordQc', 'rules'], queryFn: recordQcApi.rules });
  const [editing, setEditing] = useState<RecordQcRule | null>(null);
  const [form] = Form.useForm<RecordQcParams>();
  const canEdit = can('RecordQcRule.edit');

  const save = async (rule: RecordQcRule, enabled: boolean, params: RecordQcParams) => {
    try {
      await recordQcApi.saveRule({ code: rule.code, enabled, params });
      message.success(t('common.saved'));
      await qc.invalidateQueries({ queryKey: ['recordQc', 'rules'] });
      return true;
    } catch (e) {
      message.error((e as Error).message);
      return false;
    }
  };
  const paramsText = (p: RecordQcParams) =>
    [
      p.hours !== undefined ? t('rules.hoursText', { hours: p.hours }) : null,
      p.sections ? p.sections.map((s) => word('cleaningSection', s)).join('、') : null,
      t('rules.pointsText', { points: p.points }),
    ]
      .filter(Boolean)
      .join('；');

  return (
    <Card title={t('rules.title')}>
      <Table<RecordQcRule>
        rowKey="code"
        data-testid="record-qc-rules"
        loading={rules.isLoading}
        dataSource={rules.data?.items ?? []}
        pagination={false}
        columns={[
          { title: t('rules.check'), dataIndex: 'code', render: (c) => word('recordQcCheck', c) },
          { title: t('rules.category'), dataIndex: 'category', render: (c) => word('recordQcCategory', c) },
          {
            title: t('rules.severity'),
            dataIndex: 'severity',
            render: (s) => <Tag color={s === 'error' ? 'red' : 'orange'}>{word('recordQcSeverity', s)}</Tag>,
          },
          { title: t('rules.params'), dataIndex: 'params', render: (p) => paramsText(p) },
          {
            title: t('rules.enabled'),
            dataIndex: 'enabled',
            render: (on: boolean, r) => (
              <Switch
                checked={on}
                disabled={!canEdit}
                aria-label={word('recordQcCheck', r.code)}
                onChange={(v) => save(r, v, r.params)}
              />
            ),
          },
          {
            title: t('common.updated'),
            dataIndex: 'updatedAt',
            render: (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm') : '-'),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, r) =>
              canEdit ? (
                <Button
                  type="link"
                  onClick={() => {
                    setEditing(r);
                    form.setFieldsValue(r.params);
                  }}
                >
                  {t('common.edit')}
                </Button>
              ) : null,
          },
        ]}
      />
      <Modal
        open={!!editing}
        title={editing ? t('rules.editTitle', { name: word('recordQcCheck', editing.code) }) : ''}
        destroyOnHidden
        onCancel={() => setEditing(null)}
        onOk={async () => {
          if (!editing) return;
          const v = await form.validateFields();
          if (await save(editing, editing.enabled, v)) setEditing(null);
        }}
      >
        <Form form={form} layout="vertical" preserve={false}>
          {editing?.params.hours !== undefined && (
            <Form.Item name="hours" label={t('rules.hours')} rules={[{ required: true }]}>
              <InputNumber min={1} max={720} precision={0} />
            </Form.Item>
          )}
          {editing?.params.sections !== undefined && (
            <Form.Item name="sections" label={t('rules.sections')} rules={[{ required: true }]}>
              <Select
                mode="multiple"
                options={CLEANING_SECTIONS.filter((s) => s !== 'header').map((s) => ({
                  value: s,
                  label: word('cleaningSection', s),
                }))}
              />
            </Form.Item>
          )}
          <Form.Item name="points" label={t('rules.points')} rules={[{ required: true }]}>
            <InputNumber min={0} max={100} precision={0} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
