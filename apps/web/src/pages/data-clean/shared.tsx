import { CLEANING_DOCUMENT_KINDS, type Extraction } from '@crdp/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { cleaningApi } from './api';
import { DATA_CLEAN_NS } from './i18n';

/** Colours of highlighted spans, by why they are highlighted. */
const ROLE_COLOURS: Record<string, string> = {
  match: '#fff1b8',
  trigger: '#bae0ff',
  value: '#b7eb8f',
  unit: '#d9f7be',
  group: '#b7eb8f',
  negation: '#ffccc7',
  uncertainty: '#ffe7ba',
  time: '#efdbff',
  laterality: '#b5f5ec',
};

/**
 * A text with the spans of its extractions highlighted (the innermost role wins where spans
 * overlap); hovering a piece names why it is highlighted.
 */
export function Highlighted({
  text,
  extractions,
  offset = 0,
}: {
  text: string;
  extractions: Extraction[];
  offset?: number;
}) {
  const word = useLabel();
  const roles: (string | null)[] = Array.from({ length: text.length }, () => null);
  const rank = (r: string) => (r === 'match' ? 0 : r === 'group' ? 1 : 2);
  for (const e of extractions)
    for (const s of e.spans)
      for (let i = Math.max(0, s.start - offset); i < Math.min(text.length, s.end - offset); i++)
        if (roles[i] === null || rank(s.role) >= rank(roles[i]!)) roles[i] = s.role;
  const parts: ReactNode[] = [];
  let i = 0;
  while (i < text.length) {
    const role = roles[i];
    let j = i + 1;
    while (j < text.length && roles[j] === role) j++;
    const piece = text.slice(i, j);
    parts.push(
      role ? (
        <Tooltip key={i} title={word('cleaningSpanRole', role)}>
          <mark
            data-role={role}
            style={{ background: ROLE_COLOURS[role], padding: '0 1px', borderRadius: 2 }}
          >
            {piece}
          </mark>
        </Tooltip>
      ) : (
        <span key={i}>{piece}</span>
      ),
    );
    i = j;
  }
  return <span style={{ whiteSpace: 'pre-wrap' }}>{parts}</span>;
}

/** The value as read: comparator, value, range end. */
export const valueText = (e: {
  value: number | null;
  valueHigh?: number | null;
  comparator?: string | null;
}) =>
  e.value === null ? '—' : `${e.comparator ?? ''}${e.value}${e.valueHigh != null ? ` ~ ${e.valueHigh}` : ''}`;

/** Qualifier tags of an extraction or a stored value. */
export function Qualifiers({
  e,
}: {
  e: {
    negated: boolean;
    uncertain: boolean;
    time: string | null;
    laterality: string | null;
    fault: string | null;
    faultDetail: string;
  };
}) {
  const { t } = useTranslation(DATA_CLEAN_NS);
  const word = useLabel();
  return (
    <Space size={4} wrap>
      {e.negated && <Tag color="red">{t('common.negated')}</Tag>}
      {e.uncertain && <Tag color="orange">{t('common.uncertain')}</Tag>}
      {e.time && <Tag color="purple">{e.time}</Tag>}
      {e.laterality && <Tag color="cyan">{word('laterality', e.laterality)}</Tag>}
      {e.fault && (
        <Tooltip title={e.faultDetail}>
          <Tag color="error" data-testid="fault-tag">
            {word('cleaningFault', e.fault)}
          </Tag>
        </Tooltip>
      )}
    </Space>
  );
}

/** What each rule extracted from a text, with why. */
export function ExtractionTable({
  extractions,
  showSection = false,
}: {
  extractions: Extraction[];
  showSection?: boolean;
}) {
  const { t } = useTranslation(DATA_CLEAN_NS);
  const word = useLabel();
  return (
    <Table<Extraction>
      size="small"
      pagination={false}
      rowKey={(e) => `${e.ruleRef}|${e.code}|${e.start}`}
      dataSource={extractions}
      locale={{ emptyText: t('common.none') }}
      columns={[
        { title: t('common.rule'), dataIndex: 'ruleName' },
        { title: t('common.name'), render: (_, e) => `${e.name} (${e.code})` },
        {
          title: t('common.value'),
          render: (_, e) => (
            <Typography.Text strong data-testid={`value-${e.code}`}>
              {valueText(e)}
            </Typography.Text>
          ),
        },
        { title: t('common.unit'), dataIndex: 'unit' },
        ...(showSection
          ? [
              {
                title: t('common.section'),
                render: (_: unknown, e: Extraction) => word('cleaningSection', e.section),
              },
            ]
          : []),
        { title: t('common.why'), render: (_, e) => <Typography.Text code>{e.raw}</Typography.Text> },
        { title: '', render: (_, e) => <Qualifiers e={e} /> },
      ]}
    />
  );
}

/** Picks rules by ref (built-in and custom), for tests and tasks. */
export function RulePicker({
  value,
  onChange,
  id,
}: {
  value?: string[];
  onChange?: (v: string[]) => void;
  id?: string;
}) {
  const { t } = useTranslation(DATA_CLEAN_NS);
  const rules = useQuery({ queryKey: ['cleaning', 'rules'], queryFn: cleaningApi.rules });
  return (
    <Select
      id={id}
      mode="multiple"
      allowClear
      value={value ?? []}
      onChange={onChange}
      placeholder={t('common.rulesHint')}
      loading={rules.isLoading}
      optionFilterProp="label"
      options={(rules.data?.items ?? [])
        .filter((r) => r.enabled)
        .map((r) => ({
          value: r.ref,
          label: `${r.name}${r.id === null ? ` · ${t('common.builtin')}` : ''}`,
        }))}
      style={{ minWidth: 320 }}
    />
  );
}

/** The rules to run (required) and the kinds of documents to run them on (all when none), as form fields. */
export function RulesAndKindsItems() {
  const { t } = useTranslation(DATA_CLEAN_NS);
  return (
    <>
      <Form.Item name="rules" label={t('common.rules')} rules={[{ required: true }]}>
        <RulePicker />
      </Form.Item>
      <Form.Item name="kinds" label={t('sample.kinds')}>
        <Select
          mode="multiple"
          style={{ minWidth: 160 }}
          options={CLEANING_DOCUMENT_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
        />
      </Form.Item>
    </>
  );
}

/**
 * A rule test on typed text: the rules and the text chosen, and the run of `call` on them; `card`
 * is what RuleTextCard takes of it.
 */
export function useRuleTextTest<T>(call: (rules: string[], text: string) => Promise<T>) {
  const [rules, setRules] = useState<string[]>([]);
  const [text, setText] = useState('');
  const run = useMutation({ mutationFn: () => call(rules, text) });
  return {
    run,
    text,
    setText,
    card: {
      rules,
      onRules: setRules,
      canRun: !!text.trim(),
      running: run.isPending,
      error: run.error,
      onRun: () => run.mutate(),
    },
  };
}

/**
 * The card of a rule test on typed text (a paragraph, sentences): the rules, the text, 运行 once
 * there is text, and why the run failed.
 */
export function RuleTextCard({
  title,
  textLabel,
  input,
  rules,
  onRules,
  canRun,
  running,
  error,
  onRun,
}: {
  title: string;
  textLabel: string;
  /** The text's own input. */
  input: ReactNode;
  rules: string[];
  onRules: (rules: string[]) => void;
  canRun: boolean;
  running: boolean;
  error: Error | null;
  onRun: () => void;
}) {
  const { t } = useTranslation(DATA_CLEAN_NS);
  return (
    <Card title={title}>
      <Form layout="vertical" onFinish={onRun}>
        <Form.Item label={t('common.rules')}>
          <RulePicker value={rules} onChange={onRules} />
        </Form.Item>
        <Form.Item label={textLabel}>{input}</Form.Item>
        <Button type="primary" htmlType="submit" loading={running} disabled={!canRun}>
          {t('common.run')}
        </Button>
      </Form>
      {error && <Alert type="error" showIcon message={error.message} style={{ marginTop: 16 }} />}
    </Card>
  );
}
