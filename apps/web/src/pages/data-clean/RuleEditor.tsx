import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import {
  CLEANING_SECTIONS,
  type CleaningRuleDefinitionInput,
  type CleaningRuleInput,
  SYNTACTIC_VALUE_KINDS,
} from '@crdp/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Space,
  Switch,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useLabel, useLabelOptions } from '../../app/labels';
import { showServerFieldError } from '../../components/form/server-errors';
import { cleaningApi } from './api';
import { DATA_CLEAN_NS } from './i18n';
import { ExtractionTable, Highlighted } from './shared';

interface OutputRow {
  code: string;
  name: string;
  unit?: string;
  min?: number | null;
  max?: number | null;
  group?: string;
}
interface EditorValues {
  name: string;
  description?: string;
  triggers?: string[];
  window?: number;
  value?: 'number' | 'pair' | 'presence';
  requireUnit?: boolean;
  pattern?: string;
  ignoreCase?: boolean;
  unitGroup?: string;
  sections?: string[];
  outputs: OutputRow[];
}

const toDefinition = (kind: 'regex' | 'syntactic', v: EditorValues): CleaningRuleDefinitionInput => {
  const outputs = (v.outputs ?? []).map((o) => ({
    code: o.code,
    name: o.name,
    unit: o.unit ?? '',
    min: o.min ?? null,
    max: o.max ?? null,
    ...(kind === 'regex' ? { group: o.group } : {}),
  }));
  const sections = (v.sections ?? []) as CleaningRuleDefinitionInput['sections'];
  return kind === 'regex'
    ? {
        kind,
        pattern: v.pattern ?? '',
        ignoreCase: v.ignoreCase ?? true,
        unitGroup: v.unitGroup || null,
        outputs,
        sections,
      }
    : {
        kind,
        triggers: v.triggers ?? [],
        window: v.window ?? 12,
        value: v.value ?? 'number',
        requireUnit: v.requireUnit ?? false,
        outputs,
        sections,
      };
};

/** Form values of a stored or built-in definition. */
const fromDefinition = (name: string, description: string, d: CleaningRuleDefinitionInput): EditorValues => ({
  name,
  description,
  sections: d.sections ?? [],
  outputs: d.outputs.map((o) => ({ ...o, unit: o.unit ?? '', min: o.min ?? null, max: o.max ?? null })),
  ...(d.kind === 'regex'
    ? { pattern: d.pattern, ignoreCase: d.ignoreCase ?? true, unitGroup: d.unitGroup ?? '' }
    : { triggers: d.triggers, window: d.window ?? 12, value: d.value, requireUnit: d.requireUnit ?? false }),
});

/**
 * The editor of one kind of rule (句法规则 / 正则文本): a new rule, `?id=` to change one, or
 * `?copy=builtin:…` to start from a built-in one; a try-out sentence runs the draft as it is
 * (a bad pattern shows the server's reason under the field).
 */
export function RuleEditor({ kind }: { kind: 'regex' | 'syntactic' }) {
  const { t } = useTranslation(DATA_CLEAN_NS);
  const word = useLabel();
  const valueKinds = useLabelOptions('cleaningValueKind');
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [form] = Form.useForm<EditorValues>();
  const id = Number(params.get('id')) || null;
  const copy = params.get('copy');
  const rules = useQuery({ queryKey: ['cleaning', 'rules'], queryFn: cleaningApi.rules });
  const [sample, setSample] = useState('');
  const valueKind = Form.useWatch('value', form);

  useEffect(() => {
    const source = rules.data?.items.find((r) => (id ? r.id === id : copy ? r.ref === copy : false));
    if (source && source.definition.kind === kind)
      form.setFieldsValue(
        fromDefinition(copy ? `${source.name}（副本）` : source.name, source.description, source.definition),
      );
  }, [rules.data, id, copy, kind, form]);

  const draft = (): CleaningRuleInput => {
    const v = form.getFieldsValue(true) as EditorValues;
    return { name: v.name || 'draft', description: v.description ?? '', definition: toDefinition(kind, v) };
  };
  const fields = ['pattern', 'triggers', 'name', 'outputs', 'unitGroup', 'window'];
  const tryIt = useMutation({
    mutationFn: () => cleaningApi.testSentences({ draft: draft(), sentences: [sample] }),
    onError: (e) => showServerFieldError(form, e, fields),
  });
  const save = useMutation({
    mutationFn: async () => {
      await form.validateFields();
      const body = draft();
      return id ? cleaningApi.updateRule(id, body) : cleaningApi.createRule(body);
    },
    onSuccess: async (r) => {
      message.success(t('common.saved'));
      await qc.invalidateQueries({ queryKey: ['cleaning', 'rules'] });
      setParams({ id: String(r.id) }, { replace: true });
    },
    onError: (e) => {
      if (!showServerFieldError(form, e, fields) && e instanceof Error && !('errorFields' in e))
        message.error(e.message);
    },
  });

  const initial: EditorValues =
    kind === 'regex'
      ? {
          name: '',
          pattern: '',
          ignoreCase: true,
          outputs: [{ code: '', name: '', group: 'value', unit: '' }],
        }
      : {
          name: '',
          triggers: [],
          window: 12,
          value: 'number',
          requireUnit: false,
          outputs: [{ code: '', name: '', unit: '' }],
        };
  const result = tryIt.data?.items[0];

  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <Card
        title={t(kind === 'regex' ? 'regex.title' : 'syntactic.title')}
        extra={
          <Button
            type="primary"
            loading={save.isPending}
            onClick={() => save.mutate()}
            data-testid="rule-save"
          >
            {t('common.save')}
          </Button>
        }
      >
        <Typography.Paragraph type="secondary">
          {t(kind === 'regex' ? 'regex.hint' : 'syntactic.hint')}
        </Typography.Paragraph>
        <Form form={form} layout="vertical" initialValues={initial}>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name="name" label={t('common.rule')} rules={[{ required: true }]}>
                <Input maxLength={60} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="description" label={t('common.description')}>
                <Input maxLength={500} />
              </Form.Item>
            </Col>
          </Row>
          {kind === 'regex' ? (
            <Row gutter={16}>
              <Col xs={24} md={16}>
                <Form.Item name="pattern" label={t('regex.pattern')} rules={[{ required: true }]}>
                  <Input.TextArea rows={2} maxLength={300} style={{ fontFamily: 'monospace' }} />
                </Form.Item>
              </Col>
              <Col xs={12} md={4}>
                <Form.Item name="unitGroup" label={t('regex.unitGroup')}>
                  <Input />
                </Form.Item>
              </Col>
              <Col xs={12} md={4}>
                <Form.Item name="ignoreCase" label={t('regex.ignoreCase')} valuePropName="checked">
                  <Switch />
                </Form.Item>
              </Col>
            </Row>
          ) : (
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item
                  name="triggers"
                  label={t('syntactic.triggers')}
                  extra={t('syntactic.triggersHint')}
                  rules={[{ required: true }]}
                >
                  <Select mode="tags" open={false} />
                </Form.Item>
              </Col>
              <Col xs={8} md={4}>
                <Form.Item name="window" label={t('syntactic.window')}>
                  <InputNumber min={1} max={40} />
                </Form.Item>
              </Col>
              <Col xs={8} md={5}>
                <Form.Item name="value" label={t('syntactic.valueKind')}>
                  <Select
                    options={valueKinds.filter((o) =>
                      (SYNTACTIC_VALUE_KINDS as readonly string[]).includes(String(o.value)),
                    )}
                  />
                </Form.Item>
              </Col>
              <Col xs={8} md={3}>
                <Form.Item name="requireUnit" label={t('syntactic.requireUnit')} valuePropName="checked">
                  <Switch />
                </Form.Item>
              </Col>
            </Row>
          )}
          <Form.Item name="sections" label={t('common.section')}>
            <Select
              mode="multiple"
              options={CLEANING_SECTIONS.map((s) => ({ value: s, label: word('cleaningSection', s) }))}
            />
          </Form.Item>
          <Typography.Text strong>{t('rules.outputs')}</Typography.Text>
          <Form.List name="outputs">
            {(items, { add, remove }) => (
              <>
                {items.map((item) => (
                  <Space key={item.key} align="baseline" wrap>
                    {kind === 'regex' && (
                      <Form.Item
                        name={[item.name, 'group']}
                        label={t('regex.valueGroup')}
                        rules={[{ required: true }]}
                      >
                        <Input style={{ width: 110 }} />
                      </Form.Item>
                    )}
                    <Form.Item
                      name={[item.name, 'code']}
                      label={t('syntactic.outputCode')}
                      rules={[{ required: true }]}
                    >
                      <Input style={{ width: 110 }} />
                    </Form.Item>
                    <Form.Item
                      name={[item.name, 'name']}
                      label={t('syntactic.outputName')}
                      rules={[{ required: true }]}
                    >
                      <Input style={{ width: 120 }} />
                    </Form.Item>
                    <Form.Item name={[item.name, 'unit']} label={t('syntactic.outputUnit')}>
                      <Input style={{ width: 90 }} />
                    </Form.Item>
                    <Form.Item name={[item.name, 'min']} label={t('syntactic.min')}>
                      <InputNumber style={{ width: 100 }} />
                    </Form.Item>
                    <Form.Item name={[item.name, 'max']} label={t('syntactic.max')}>
                      <InputNumber style={{ width: 100 }} />
                    </Form.Item>
                    {items.length > 1 && <MinusCircleOutlined onClick={() => remove(item.name)} />}
                  </Space>
                ))}
                {(kind === 'regex' ? items.length < 6 : valueKind === 'pair' && items.length < 2) && (
                  <Button
                    type="dashed"
                    icon={<PlusOutlined />}
                    onClick={() => add({ code: '', name: '', unit: '' })}
                  >
                    {t('syntactic.second')}
                  </Button>
                )}
              </>
            )}
          </Form.List>
        </Form>
      </Card>
      <Card title={t('syntactic.sample')}>
        <Space.Compact style={{ width: '100%' }}>
          <Input
            data-testid="draft-sentence"
            value={sample}
            onChange={(e) => setSample(e.target.value)}
            placeholder={t('sentence.placeholder')}
          />
          <Button
            type="primary"
            loading={tryIt.isPending}
            disabled={!sample.trim()}
            onClick={() => tryIt.mutate()}
          >
            {t('common.run')}
          </Button>
        </Space.Compact>
        {tryIt.error && (
          <Alert type="error" showIcon message={tryIt.error.message} style={{ marginTop: 12 }} />
        )}
        {result && (
          <div style={{ marginTop: 12 }}>
            <Typography.Paragraph>
              <Highlighted text={result.text} extractions={result.extractions} />
            </Typography.Paragraph>
            <ExtractionTable extractions={result.extractions} />
          </div>
        )}
      </Card>
    </Space>
  );
}
