import type { SampleBody, SampleResult } from '@crdp/core';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Collapse, Form, InputNumber, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cleaningApi } from './api';
import { DATA_CLEAN_NS } from './i18n';
import { Highlighted, Qualifiers, RulesAndKindsItems, valueText } from './shared';

/**
 * Batch test (批量测试): rules run on a sample of the app's documents; a person marks each
 * extraction right or wrong and reads each rule's precision (marks are kept, audited).
 */
export default function ManyTest() {
  const { t } = useTranslation(DATA_CLEAN_NS);
  const [form] = Form.useForm<SampleBody>();
  const [data, setData] = useState<SampleResult | null>(null);
  const run = useMutation({
    mutationFn: (v: SampleBody) => cleaningApi.sample(v),
    onSuccess: setData,
  });
  const mark = useMutation({
    mutationFn: cleaningApi.mark,
    onSuccess: () => run.mutate(form.getFieldsValue()),
  });
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <Card title={t('sample.title')}>
        <Typography.Paragraph type="secondary">{t('sample.hint')}</Typography.Paragraph>
        <Form
          form={form}
          layout="inline"
          initialValues={{ rules: [], kinds: [], size: 10, seed: 1 }}
          onFinish={(v) => run.mutate(v)}
        >
          <RulesAndKindsItems />
          <Form.Item name="size" label={t('sample.size')}>
            <InputNumber min={1} max={50} />
          </Form.Item>
          <Form.Item name="seed" label={t('sample.seed')}>
            <InputNumber min={0} max={1_000_000} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={run.isPending}>
            {t('common.run')}
          </Button>
        </Form>
        {(run.error || mark.error) && (
          <Alert
            type="error"
            showIcon
            message={(run.error ?? mark.error)!.message}
            style={{ marginTop: 16 }}
          />
        )}
      </Card>
      {data && (
        <>
          <Card title={t('sample.precision')}>
            <Table
              size="small"
              pagination={false}
              rowKey="ruleRef"
              dataSource={data.precision}
              columns={[
                { title: t('common.rule'), dataIndex: 'ruleName' },
                { title: t('sample.extracted'), dataIndex: 'extracted' },
                { title: t('sample.marked'), dataIndex: 'marked' },
                { title: t('sample.correct'), dataIndex: 'correct' },
                {
                  title: t('sample.precision'),
                  render: (_, p) => (p.precision === null ? '—' : `${(p.precision * 100).toFixed(1)}%`),
                },
              ]}
            />
          </Card>
          <Collapse
            items={data.documents.map((d) => ({
              key: d.documentId,
              label: `${d.title} · ${d.writtenAt.slice(0, 10)} · ${d.extractions.length}`,
              children: (
                <>
                  <Typography.Paragraph>
                    <Highlighted text={d.text} extractions={d.extractions} />
                  </Typography.Paragraph>
                  <Table
                    size="small"
                    pagination={false}
                    rowKey={(e) => `${e.ruleRef}|${e.code}|${e.start}`}
                    dataSource={d.extractions}
                    columns={[
                      { title: t('common.name'), dataIndex: 'name' },
                      { title: t('common.value'), render: (_, e) => `${valueText(e)} ${e.unit}` },
                      {
                        title: t('common.why'),
                        render: (_, e) => <Typography.Text code>{e.raw}</Typography.Text>,
                      },
                      { title: '', render: (_, e) => <Qualifiers e={e} /> },
                      {
                        title: t('sample.marked'),
                        render: (_, e) => {
                          const send = (correct: boolean | null) =>
                            mark.mutate({
                              documentId: d.documentId,
                              ruleRef: e.ruleRef,
                              code: e.code,
                              start: e.start,
                              correct,
                            });
                          return (
                            <Space>
                              <Button
                                size="small"
                                type={e.mark === true ? 'primary' : 'default'}
                                onClick={() => send(true)}
                              >
                                {t('sample.right')}
                              </Button>
                              <Button
                                size="small"
                                danger
                                type={e.mark === false ? 'primary' : 'default'}
                                onClick={() => send(false)}
                              >
                                {t('sample.wrong')}
                              </Button>
                              {e.mark !== null && (
                                <Button size="small" type="link" onClick={() => send(null)}>
                                  {t('sample.clear')}
                                </Button>
                              )}
                            </Space>
                          );
                        },
                      },
                    ]}
                  />
                </>
              ),
            }))}
          />
        </>
      )}
    </Space>
  );
}
