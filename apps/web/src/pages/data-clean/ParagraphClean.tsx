import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Form, Input, Row, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { cleaningApi } from './api';
import { DATA_CLEAN_NS } from './i18n';
import { ExtractionTable, Highlighted, RulePicker } from './shared';

/** Paragraph cleaning (段落清洗): a pasted document split into its sections, each cleaned. */
export default function ParagraphClean() {
  const { t } = useTranslation(DATA_CLEAN_NS);
  const word = useLabel();
  const [rules, setRules] = useState<string[]>([]);
  const [text, setText] = useState('');
  const run = useMutation({ mutationFn: () => cleaningApi.paragraph({ rules, text }) });
  const r = run.data;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <Card title={t('paragraph.title')}>
        <Form layout="vertical" onFinish={() => run.mutate()}>
          <Form.Item label={t('common.rules')}>
            <RulePicker value={rules} onChange={setRules} />
          </Form.Item>
          <Form.Item label={t('paragraph.text')}>
            <Input.TextArea
              data-testid="paragraph-input"
              rows={10}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={run.isPending} disabled={!text.trim()}>
            {t('common.run')}
          </Button>
        </Form>
        {run.error && <Alert type="error" showIcon message={run.error.message} style={{ marginTop: 16 }} />}
      </Card>
      {r && (
        <Row gutter={16}>
          <Col xs={24} xxl={12}>
            <Card title={t('paragraph.sections')} data-testid="paragraph-sections">
              {r.sections.map((s) => (
                <div key={s.start} style={{ marginBottom: 12 }}>
                  <Typography.Text strong>
                    {word('cleaningSection', s.key)}
                    {s.title && s.title !== word('cleaningSection', s.key) ? `（${s.title}）` : ''}
                  </Typography.Text>
                  <div>
                    <Highlighted
                      text={s.text}
                      offset={s.start}
                      extractions={r.extractions.filter((e) => e.start >= s.start && e.end <= s.end)}
                    />
                  </div>
                </div>
              ))}
            </Card>
          </Col>
          <Col xs={24} xxl={12}>
            <Card title={t('common.result')}>
              <ExtractionTable extractions={r.extractions} showSection />
            </Card>
          </Col>
        </Row>
      )}
    </Space>
  );
}
