import type { SentenceTestResult } from '@crdp/core';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, List, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cleaningApi } from './api';
import { DATA_CLEAN_NS } from './i18n';
import { ExtractionTable, Highlighted, RulePicker } from './shared';

/**
 * Sentence test (句子测试) and batch sentence test (批量句子测试): rules run on typed or pasted
 * sentences; each sentence shows its highlighted spans and what each rule extracted.
 */
export function SentenceTestScreen({ many }: { many: boolean }) {
  const { t } = useTranslation(DATA_CLEAN_NS);
  const [rules, setRules] = useState<string[]>([]);
  const [text, setText] = useState('');
  const run = useMutation({
    mutationFn: () =>
      cleaningApi.testSentences({
        rules,
        sentences: many ? text.split('\n').filter((l) => l.trim()) : [text],
      }),
  });
  const result: SentenceTestResult | undefined = run.data;
  const values = result?.items.reduce((n, i) => n + i.extractions.length, 0) ?? 0;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <Card title={t(many ? 'many.title' : 'sentence.title')}>
        <Form layout="vertical" onFinish={() => run.mutate()}>
          <Form.Item label={t('common.rules')}>
            <RulePicker value={rules} onChange={setRules} />
          </Form.Item>
          <Form.Item label={t(many ? 'many.text' : 'sentence.text')}>
            <Input.TextArea
              data-testid="sentence-input"
              rows={many ? 8 : 3}
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder={t('sentence.placeholder')}
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={run.isPending} disabled={!text.trim()}>
            {t('common.run')}
          </Button>
        </Form>
        {run.error && <Alert type="error" showIcon message={run.error.message} style={{ marginTop: 16 }} />}
      </Card>
      {result && (
        <Card
          title={t('common.result')}
          extra={many ? t('many.count', { count: result.items.length, values }) : null}
          data-testid="sentence-result"
        >
          <List
            dataSource={result.items}
            renderItem={(item, i) => (
              <List.Item key={i} style={{ display: 'block' }}>
                <Typography.Paragraph style={{ fontSize: 15 }}>
                  <Highlighted text={item.text} extractions={item.extractions} />
                </Typography.Paragraph>
                <ExtractionTable extractions={item.extractions} />
              </List.Item>
            )}
          />
        </Card>
      )}
    </Space>
  );
}

export default function SentenceTest() {
  return <SentenceTestScreen many={false} />;
}
