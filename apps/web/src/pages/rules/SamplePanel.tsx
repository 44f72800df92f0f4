import type {
  RuleActionInput,
  RuleAttribute,
  RuleRegression,
  RuleSample,
  RuleTestResult,
  RuleWhenInput,
} from '@crdp/core';
import {
  Alert,
  App,
  Button,
  Card,
  Input,
  InputNumber,
  Popconfirm,
  Radio,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PatientSelect } from '../data-lake/PatientSelect';
import { rulesApi } from './api';
import { kindOf } from './ConditionEditor';
import { RULES_NS } from './i18n';

/** The attribute keys a draft names (the inputs of a hand-made sample). */
function attributeKeys(when: RuleWhenInput) {
  const all = [...(when.conditions ?? []), ...(when.groups ?? []).flatMap((g) => g.conditions)];
  return [...new Set(all.flatMap((c) => (c.kind === 'attribute' && c.attribute ? [c.attribute] : [])))];
}

/** How a run on one sample came out, condition by condition. */
export function TestResultView({ result }: { result: RuleTestResult }) {
  const { t } = useTranslation(RULES_NS);
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="rule-test-result">
      <Space>
        <Tag color={result.fired ? 'red' : 'green'}>
          {result.fired ? t('sample.fired') : t('sample.notFired')}
        </Tag>
        {result.expectedFired !== null && (
          <Tag color={result.expectedFired === result.fired ? 'blue' : 'orange'}>
            {result.expectedFired === result.fired ? t('sample.agrees') : t('sample.disagrees')}
          </Tag>
        )}
      </Space>
      <Table
        size="small"
        rowKey="path"
        pagination={false}
        dataSource={result.conditions}
        columns={[
          { title: '#', dataIndex: 'path', width: 70 },
          { title: t('sample.condition'), dataIndex: 'text' },
          {
            title: t('sample.actual'),
            dataIndex: 'actual',
            width: 110,
            render: (v) =>
              v === null ? <Typography.Text type="secondary">{t('sample.none')}</Typography.Text> : String(v),
          },
          {
            title: t('sample.holds'),
            dataIndex: 'holds',
            width: 90,
            render: (v: boolean, r) => (
              <span title={r.note ?? undefined}>
                <Tag color={v ? 'green' : 'default'}>{v ? t('sample.yes') : t('sample.no')}</Tag>
                {r.note && <Typography.Text type="secondary">{r.note}</Typography.Text>}
              </span>
            ),
          },
        ]}
      />
      {result.actions.length > 0 && (
        <Typography.Text>
          {t('sample.wouldDo')}
          {result.actions
            .map((a) =>
              a.kind === 'fault'
                ? `${t(`editor.${a.level}`)} ${a.message}`
                : a.kind === 'derive'
                  ? `${a.name} = ${a.value}`
                  : a.kind === 'tag'
                    ? `#${a.tag}`
                    : `→ ${a.role}`,
            )
            .join('；')}
        </Typography.Text>
      )}
    </Space>
  );
}

/**
 * The sample panel of the rule editor: try the draft on a patient or on hand-made values, keep a
 * sample with the outcome it should give, rerun every saved sample against the draft.
 */
export function SamplePanel({
  ruleId,
  when,
  actions,
  attrs,
  samples,
  onChanged,
}: {
  ruleId: number | null;
  when: RuleWhenInput;
  actions: RuleActionInput[];
  attrs: RuleAttribute[];
  samples: RuleSample[];
  onChanged: () => void;
}) {
  const { t } = useTranslation(RULES_NS);
  const { message } = App.useApp();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'patient' | 'hand'>('patient');
  const [patientId, setPatientId] = useState<number | undefined>();
  const [values, setValues] = useState<Record<string, string | number | null>>({});
  const [expected, setExpected] = useState(true);
  const [result, setResult] = useState<RuleTestResult | null>(null);
  const [regression, setRegression] = useState<RuleRegression | null>(null);
  const [error, setError] = useState<string | null>(null);
  const keys = attributeKeys(when);
  const sampleBody = () =>
    kind === 'patient'
      ? { patient_id: patientId }
      : { attributes: Object.fromEntries(keys.map((k) => [k, values[k] ?? null])) };
  const guard = async (f: () => Promise<void>) => {
    setError(null);
    try {
      await f();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const tryIt = () =>
    guard(async () =>
      setResult(
        await rulesApi.test({ ...(ruleId ? { rule_id: ruleId } : {}), when, actions, ...sampleBody() }),
      ),
    );
  const runSaved = (s: RuleSample) =>
    guard(async () => setResult(await rulesApi.test({ rule_id: ruleId!, when, actions, sample_id: s.id })));

  if (!ruleId) return <Alert type="info" showIcon message={t('sample.saveFirst')} />;
  return (
    <Card size="small" title={t('sample.title')} data-testid="rule-samples">
      <Space direction="vertical" style={{ width: '100%' }}>
        {error && <Alert type="error" showIcon message={error} closable onClose={() => setError(null)} />}
        <Table<RuleSample>
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={samples}
          columns={[
            { title: t('sample.name'), dataIndex: 'name' },
            {
              title: t('sample.kind'),
              key: 'kind',
              render: (_, s) => (s.patientId ? s.patientName : t('sample.handMade')),
            },
            {
              title: t('sample.expected'),
              dataIndex: 'expectedFired',
              width: 90,
              render: (v: boolean) => (v ? t('sample.fires') : t('sample.notFires')),
            },
            {
              title: t('sample.lastRun'),
              key: 'last',
              width: 100,
              render: (_, s) => {
                const r = regression?.items.find((i) => i.sampleId === s.id);
                return r ? (
                  <Tag color={r.agrees ? 'green' : 'orange'}>
                    {r.agrees ? t('sample.agrees') : t('sample.disagrees')}
                  </Tag>
                ) : null;
              },
            },
            {
              title: t('operations'),
              key: 'op',
              width: 130,
              render: (_, s) => (
                <Space size={0}>
                  <Button type="link" size="small" onClick={() => runSaved(s)}>
                    {t('run')}
                  </Button>
                  <Popconfirm
                    title={t('sample.deleteConfirm', { name: s.name })}
                    onConfirm={() =>
                      guard(async () => {
                        await rulesApi.deleteSample(ruleId, s.id);
                        onChanged();
                      })
                    }
                  >
                    <Button type="link" size="small" danger>
                      {t('delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
        {samples.length > 0 && (
          <Button
            data-testid="rule-regression"
            onClick={() => guard(async () => setRegression(await rulesApi.regression(ruleId, when)))}
          >
            {t('sample.runAll')}
          </Button>
        )}
        <Space wrap>
          <Input
            aria-label={t('sample.name')}
            placeholder={t('sample.name')}
            maxLength={60}
            style={{ width: 200 }}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <Radio.Group
            optionType="button"
            value={kind}
            onChange={(e) => setKind(e.target.value)}
            options={[
              { value: 'patient', label: t('sample.patient') },
              { value: 'hand', label: t('sample.handMade') },
            ]}
          />
          <Radio.Group
            aria-label={t('sample.expected')}
            value={expected}
            onChange={(e) => setExpected(e.target.value)}
            options={[
              { value: true, label: t('sample.fires') },
              { value: false, label: t('sample.notFires') },
            ]}
          />
        </Space>
        {kind === 'patient' ? (
          <PatientSelect value={patientId} onChange={setPatientId} testId="rule-sample-patient" />
        ) : (
          <Space direction="vertical" data-testid="rule-sample-values">
            {keys.map((k) => {
              const label = attrs.find((a) => a.key === k)?.label ?? k;
              return (
                <Space key={k}>
                  <Typography.Text style={{ display: 'inline-block', minWidth: 240 }}>
                    {label}
                  </Typography.Text>
                  {kindOf(attrs, k) === 'number' ? (
                    <InputNumber
                      aria-label={label}
                      value={typeof values[k] === 'number' ? (values[k] as number) : null}
                      onChange={(v) => setValues({ ...values, [k]: v ?? null })}
                    />
                  ) : (
                    <Input
                      aria-label={label}
                      style={{ width: 200 }}
                      value={values[k] === null || values[k] === undefined ? '' : String(values[k])}
                      onChange={(e) => setValues({ ...values, [k]: e.target.value })}
                    />
                  )}
                </Space>
              );
            })}
          </Space>
        )}
        <Space>
          <Button onClick={tryIt} data-testid="rule-sample-try">
            {t('sample.tryIt')}
          </Button>
          <Button
            type="primary"
            data-testid="rule-sample-save"
            onClick={() =>
              guard(async () => {
                const body = sampleBody();
                await rulesApi.saveSample({
                  rule_id: ruleId,
                  name,
                  expected_fired: expected,
                  patient_id: 'patient_id' in body ? (body.patient_id ?? null) : null,
                  attributes: 'attributes' in body ? body.attributes : null,
                });
                message.success(t('sample.saved'));
                setName('');
                onChanged();
              })
            }
          >
            {t('sample.save')}
          </Button>
        </Space>
        {result && <TestResultView result={result} />}
      </Space>
    </Card>
  );
}
