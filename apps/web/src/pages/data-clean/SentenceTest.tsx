import type { SentenceTestResult } from '@crdp/core';
import { Card, Input, List, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { cleaningApi } from './api';
import { DATA_CLEAN_NS } from './i18n';
import { ExtractionTable, Highlighted, RuleTextCard, useRuleTextTest } from './shared';

/**
 * Sentence test (句子测试) and batch sentence test (批量句子测试): rules run on typed or pasted
 * sentences; each sentence shows its highlighted spans and what each rule extracted.
 */
export function SentenceTestScreen({ many }: { many: boolean }) {
  const { t } = useTranslation(DATA_CLEAN_NS);
  const test = useRuleTextTest((rules, text) =>
    cleaningApi.testSentences({
      rules,
      sentences: many ? text.split('\n').filter((l) => l.trim()) : [text],
    }),
  );
  const result: SentenceTestResult | undefined = test.run.data;
  const values = result?.items.reduce((n, i) => n + i.extractions.length, 0) ?? 0;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <RuleTextCard
        title={t(many ? 'many.title' : 'sentence.title')}
        textLabel={t(many ? 'many.text' : 'sentence.text')}
        input={
          <Input.TextArea
            data-testid="sentence-input"
            rows={many ? 8 : 3}
            value={test.text}
            onChange={(e) => test.setText(e.target.value)}
            placeholder={t('sentence.placeholder')}
          />
        }
        {...test.card}
      />
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
