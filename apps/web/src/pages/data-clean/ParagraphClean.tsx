import { Card, Col, Input, Row, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { cleaningApi } from './api';
import { DATA_CLEAN_NS } from './i18n';
import { ExtractionTable, Highlighted, RuleTextCard, useRuleTextTest } from './shared';

/** Paragraph cleaning (段落清洗): a pasted document split into its sections, each cleaned. */
export default function ParagraphClean() {
  const { t } = useTranslation(DATA_CLEAN_NS);
  const word = useLabel();
  const test = useRuleTextTest((rules, text) => cleaningApi.paragraph({ rules, text }));
  const r = test.run.data;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <RuleTextCard
        title={t('paragraph.title')}
        textLabel={t('paragraph.text')}
        input={
          <Input.TextArea
            data-testid="paragraph-input"
            rows={10}
            value={test.text}
            onChange={(e) => test.setText(e.target.value)}
          />
        }
        {...test.card}
      />
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
