import { MC_CASE_TEXT_MAX } from '@crdp/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, InputNumber, Select, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { statusText } from '../research/StatusTag';
import { mcApi, type OwnCase, type TopicDetail, type TopicVariable } from './api';
import { MC_NS } from './i18n';

const numeric = (v: TopicVariable) => v.min !== undefined || v.max !== undefined;

/** Case entry of one center: one of its own patients, the topic's variables; and the center's own cases. */
export function CaseEntry({ topic }: { topic: TopicDetail }) {
  const { t, i18n } = useTranslation(MC_NS);
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm();
  const [keyword, setKeyword] = useState('');
  const [saving, setSaving] = useState(false);
  const patients = useQuery({
    queryKey: ['mc', 'patients', topic.id, keyword],
    queryFn: () => mcApi.patients(topic.id, keyword),
  });
  const cases = useQuery({ queryKey: ['mc', 'cases', topic.id], queryFn: () => mcApi.cases(topic.id) });
  const range = (v: TopicVariable) => ({ label: v.label, min: v.min ?? '−∞', max: v.max ?? '∞' });

  const save = async (values: { patientId: number } & Record<string, unknown>) => {
    setSaving(true);
    try {
      const out: Record<string, number | string | null> = {};
      for (const v of topic.variables) {
        const x = values[`v_${v.key}`];
        out[v.key] = x === undefined || x === '' ? null : (x as number | string);
      }
      await mcApi.enter(topic.id, { patientId: values.patientId, values: out });
      message.success(t('caseSaved'));
      form.resetFields();
      await Promise.all([
        qc.invalidateQueries({ queryKey: ['mc', 'cases', topic.id] }),
        qc.invalidateQueries({ queryKey: ['mc', 'pooled', topic.id] }),
      ]);
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={t('entry')} data-testid="case-entry">
      {topic.canEnter ? (
        <Form form={form} layout="inline" onFinish={save} style={{ rowGap: 8 }}>
          <Form.Item
            name="patientId"
            label={t('patient')}
            rules={[{ required: true, message: t('patientRequired') }]}
            tooltip={t('entryHelp')}
          >
            <Select
              data-testid="case-patient"
              showSearch
              filterOption={false}
              onSearch={setKeyword}
              placeholder={t('patientPlaceholder')}
              style={{ width: 280 }}
              loading={patients.isFetching}
              options={(patients.data ?? []).map((p) => ({ value: p.id, label: `${p.mrn} · ${p.name}` }))}
            />
          </Form.Item>
          {topic.variables.map((v) => (
            <Form.Item
              key={v.key}
              name={`v_${v.key}`}
              label={v.label}
              rules={[
                ...(v.required ? [{ required: true, message: t('required', { label: v.label }) }] : []),
                ...(numeric(v)
                  ? [
                      {
                        warningOnly: true,
                        validator: async (_: unknown, x: number | null | undefined) => {
                          if (x === null || x === undefined) return;
                          if ((v.min !== undefined && x < v.min) || (v.max !== undefined && x > v.max))
                            throw new Error(t('outOfRangeWarn', range(v)));
                        },
                      },
                    ]
                  : []),
              ]}
            >
              {numeric(v) ? (
                <InputNumber data-testid={`case-${v.key}`} style={{ width: 120 }} />
              ) : (
                <Input data-testid={`case-${v.key}`} style={{ width: 160 }} maxLength={MC_CASE_TEXT_MAX} />
              )}
            </Form.Item>
          ))}
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="save-case">
              {t('saveCase')}
            </Button>
          </Form.Item>
        </Form>
      ) : (
        <Alert
          type="info"
          showIcon
          message={t('frozen', { status: statusText(topic.status, i18n.language) })}
        />
      )}
      <Table<OwnCase>
        style={{ marginTop: 16 }}
        data-testid="own-cases"
        title={() => t('ownCases', { count: cases.data?.length ?? 0 })}
        rowKey="id"
        size="small"
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        loading={cases.isLoading}
        dataSource={cases.data ?? []}
        columns={[
          { title: t('mrn'), dataIndex: 'mrn' },
          ...topic.variables.map((v) => ({
            title: v.label,
            key: v.key,
            render: (_: unknown, r: OwnCase) => {
              const x = r.values[v.key];
              return x === null || x === undefined || x === '' ? '—' : String(x);
            },
          })),
          {
            title: t('enteredAt'),
            dataIndex: 'enteredAt',
            render: (_: unknown, r: OwnCase) => new Date(r.enteredAt).toLocaleString(i18n.language),
          },
        ]}
      />
    </Card>
  );
}
