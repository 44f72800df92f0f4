import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { ProForm } from '@ant-design/pro-components';
import {
  type Aggregate,
  aggregatesOf,
  choiceFromTemplate,
  choiceProblems,
  choiceToTemplate,
  conditionFieldsOf,
  defaultChoice,
  fieldKindOf,
  fieldsOf,
  type LabelText,
  type Operator,
  operatorsOf,
  RULE_AGGREGATE_LABELS,
  RULE_ANCHOR_LABELS,
  RULE_ANCHOR_REFS,
  RULE_FIELD_LABELS,
  RULE_KNOWN_VALUES,
  RULE_OPERATOR_LABELS,
  RULE_PROBLEM_LABELS,
  RULE_SIDE_LABELS,
  RULE_SOURCE_LABELS,
  RULE_SOURCES,
  RULE_WITHIN_DAYS_MAX,
  type RuleAnchorRef,
  type RuleChoice,
  type RuleChoiceCondition,
  type RuleProblem,
  type RuleSource,
  withAggregate,
  withConditionField,
  withSource,
} from '@crdp/core';
import { answerItems } from '@crdp/crf';
import { useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Flex, Input, InputNumber, Select, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RemoteSelect } from '../../components/RemoteSelect';
import { RemoveIconButton } from '../../components/RemoveIconButton';
import { libraryApi } from './api';
import { RULES_NS } from './rule-builder-i18n';

export interface RuleItem {
  key: string;
  title: string;
}

/** One rule on screen: the item it fills, and either the choices or (text mode) the text. */
interface Row {
  key: string;
  mode: 'builder' | 'text';
  choice: RuleChoice;
  text: string;
}

const rowOf = (key: string, text: string): Row => {
  const read = choiceFromTemplate(text);
  return read.ok
    ? { key, mode: 'builder', choice: read.choice, text: choiceToTemplate(read.choice) }
    : { key, mode: 'text', choice: defaultChoice('lab'), text };
};
const rowText = (r: Row) => (r.mode === 'builder' ? choiceToTemplate(r.choice) : r.text.trim());
const rulesOf = (rows: Row[]) =>
  Object.fromEntries(rows.map((r) => [r.key, rowText(r)]).filter(([, text]) => text));

/**
 * Whether saved source rules are all complete: each one reads into the builder without a
 * problem, or is a text the builder cannot show (parameters, a fixed date) that still parses.
 * A form's validator uses it; the rows themselves show what is wrong.
 */
export function rulesComplete(rules: Record<string, string> | undefined): boolean {
  return Object.values(rules ?? {}).every((text) => {
    const read = choiceFromTemplate(text);
    return read.ok ? choiceProblems(read.choice).length === 0 : read.reason !== 'invalid';
  });
}

function useWords() {
  const { i18n } = useTranslation();
  const locale = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  return (l: LabelText | undefined, fallback = '') => l?.[locale] ?? fallback;
}

/** A small label above an input, and the problem under it in words. */
function Labeled({
  label,
  problem,
  children,
}: {
  label: string;
  problem?: string | null;
  children: ReactNode;
}) {
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 2, maxWidth: '100%' }}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {label}
      </Typography.Text>
      {children}
      {problem && (
        <Typography.Text type="danger" style={{ fontSize: 12 }} role="alert">
          {problem}
        </Typography.Text>
      )}
    </div>
  );
}

/** A lab item or diagnosis category searched on the server as the person types. */
function CatalogueSelect({
  kind,
  value,
  onChange,
  status,
}: {
  kind: 'lab' | 'diagnosis';
  value: string | null;
  onChange: (code: string | null) => void;
  status?: 'error';
}) {
  const { t } = useTranslation(RULES_NS);
  const [labels, setLabels] = useState<Record<string, string>>({});
  const describe = (i: { name: string; code: string; unit: string; patients: number }) =>
    [i.name, i.code, i.unit, t('patients', { n: i.patients })].filter(Boolean).join(' · ');
  // The words of a saved code that is not on the first page (a rule opened again).
  const known = useQuery({
    queryKey: ['disease-library', 'rule-catalogue', kind, 'code', value],
    enabled: !!value && !labels[value],
    queryFn: async () => {
      const items = await libraryApi.ruleCatalogue({ kind, q: value! });
      const hit = items.find((i) => i.code.toUpperCase() === value!.toUpperCase());
      return hit ? describe(hit) : value!;
    },
    retry: false,
  });
  return (
    <RemoteSelect
      queryKey={['disease-library', 'rule-catalogue', kind]}
      search={async (q) => {
        const items = await libraryApi.ruleCatalogue({ kind, q });
        setLabels((l) => ({ ...l, ...Object.fromEntries(items.map((i) => [i.code, describe(i)])) }));
        return items.map((i) => ({ value: i.code, label: describe(i) }));
      }}
      selected={value ? { value, label: labels[value] ?? known.data ?? value } : null}
      value={value}
      onChange={(v) => onChange(v === undefined || v === null ? null : String(v))}
      placeholder={t(kind === 'lab' ? 'labPick' : 'diagnosisPick')}
      aria-label={t(kind === 'lab' ? 'labPick' : 'diagnosisPick')}
      status={status}
      style={{ width: 300, maxWidth: '100%' }}
      popupMatchSelectWidth={false}
    />
  );
}

/** The app's calculated T0 events, by how many patients have a T0 (a deleted or unknown one shows its id). */
function T0EventSelect({
  value,
  onChange,
  status,
}: {
  value: number | null;
  onChange: (id: number | null) => void;
  status?: 'error';
}) {
  const { t } = useTranslation(RULES_NS);
  const events = useQuery({
    queryKey: ['disease-library', 'rule-catalogue', 't0'],
    queryFn: () => libraryApi.ruleCatalogue({ kind: 't0', q: '' }),
  });
  const options = (events.data ?? []).map((e) => ({
    value: Number(e.code),
    label: `${e.name} · ${t('patients', { n: e.patients })}`,
  }));
  if (value !== null && !options.some((o) => o.value === value))
    options.push({ value, label: t('t0Unknown', { id: value }) });
  return (
    <Select<number>
      value={value ?? undefined}
      aria-label={t('t0Event')}
      placeholder={events.isError ? t('t0LoadFailed') : t('t0Pick')}
      status={status ?? (events.isError ? 'error' : undefined)}
      loading={events.isLoading}
      notFoundContent={t('t0None')}
      style={{ width: 260 }}
      popupMatchSelectWidth={false}
      onChange={(id) => onChange(id ?? null)}
      options={options}
    />
  );
}

function ValueEditor({
  source,
  cond,
  onChange,
  invalid,
}: {
  source: RuleSource;
  cond: RuleChoiceCondition;
  onChange: (v: string | number | null) => void;
  invalid: boolean;
}) {
  const { t } = useTranslation(RULES_NS);
  const w = useWords();
  const status = invalid ? ('error' as const) : undefined;
  const kind = fieldKindOf(source, cond.field);
  if ((source === 'lab' || source === 'diagnosis') && cond.field === 'code')
    return (
      <CatalogueSelect
        kind={source}
        value={cond.value === null ? null : String(cond.value)}
        onChange={onChange}
        status={status}
      />
    );
  const known = RULE_KNOWN_VALUES[source]?.[cond.field];
  if (known && kind === 'text') {
    const options = Object.entries(known).map(([v, l]) => ({ value: v, label: w(l, v) }));
    if (typeof cond.value === 'string' && cond.value && !known[cond.value])
      options.push({ value: cond.value, label: cond.value });
    return (
      <Select
        value={cond.value === null ? undefined : String(cond.value)}
        onChange={onChange}
        options={options}
        status={status}
        aria-label={t('value')}
        style={{ width: 180 }}
      />
    );
  }
  if (kind === 'number')
    return (
      <InputNumber
        value={typeof cond.value === 'number' ? cond.value : null}
        onChange={(v) => onChange(typeof v === 'number' ? v : null)}
        status={status}
        aria-label={t('value')}
        style={{ width: 140 }}
      />
    );
  if (kind === 'date')
    return (
      <DatePicker
        value={typeof cond.value === 'string' && dayjs(cond.value).isValid() ? dayjs(cond.value) : null}
        onChange={(d) => onChange(d ? d.format('YYYY-MM-DD') : null)}
        status={status}
        placeholder={t('datePick')}
        aria-label={t('value')}
      />
    );
  return (
    <Input
      value={cond.value === null ? '' : String(cond.value)}
      onChange={(e) => onChange(e.target.value)}
      status={status}
      aria-label={t('value')}
      style={{ width: 200, maxWidth: '100%' }}
    />
  );
}

function ChoiceEditor({ choice, onChange }: { choice: RuleChoice; onChange: (c: RuleChoice) => void }) {
  const { t } = useTranslation(RULES_NS);
  const w = useWords();
  const problems = choiceProblems(choice);
  const problemAt = (at: RuleProblem['at']) => {
    const p = problems.find((x) => x.at === at);
    return p ? w(RULE_PROBLEM_LABELS[p.code]) : null;
  };
  const fields = fieldsOf(choice.source, choice.agg);
  const fieldLabel = (f: string) => w(RULE_FIELD_LABELS[choice.source]?.[f], f);
  const condFields = conditionFieldsOf(choice.source);
  const setCond = (i: number, c: RuleChoiceCondition) =>
    onChange({ ...choice, where: choice.where.map((x, j) => (j === i ? c : x)) });
  return (
    <Flex vertical gap={8}>
      <Flex wrap gap={8} align="flex-start">
        <Labeled label={t('source')}>
          <Select<RuleSource>
            value={choice.source}
            onChange={(s) => onChange(withSource(choice, s))}
            aria-label={t('source')}
            style={{ width: 140 }}
            options={RULE_SOURCES.map((s) => ({ value: s, label: w(RULE_SOURCE_LABELS[s], s) }))}
          />
        </Labeled>
        <Labeled label={t('agg')}>
          <Select<Aggregate>
            value={choice.agg}
            onChange={(a) => onChange(withAggregate(choice, a))}
            aria-label={t('agg')}
            style={{ width: 150 }}
            options={aggregatesOf(choice.source).map((a) => ({
              value: a,
              label: w(RULE_AGGREGATE_LABELS[a], a),
            }))}
          />
        </Labeled>
        {fields.length > 0 && (
          <Labeled label={t('field')} problem={problemAt('field')}>
            <Select<string>
              value={choice.field ?? undefined}
              onChange={(field) => onChange({ ...choice, field })}
              aria-label={t('field')}
              status={problemAt('field') ? 'error' : undefined}
              style={{ width: 160 }}
              options={fields.map((f) => ({ value: f, label: fieldLabel(f) }))}
            />
          </Labeled>
        )}
      </Flex>
      {choice.source !== 'patient' && (
        <Labeled label={t('conditions')}>
          <Flex vertical gap={6}>
            {choice.where.length === 0 && (
              <Typography.Text type="secondary">{t('noConditions')}</Typography.Text>
            )}
            {choice.where.map((c, i) => {
              const problem = problemAt(`where.${i}`);
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: conditions have no identity but their place
                <Flex key={i} vertical gap={2} data-testid={`rule-condition-${i}`}>
                  <Flex wrap gap={6} align="center">
                    <Select<string>
                      value={c.field}
                      onChange={(f) => setCond(i, withConditionField(c, choice.source, f))}
                      aria-label={t('conditionField')}
                      style={{ width: 150 }}
                      options={condFields.map((f) => ({ value: f, label: fieldLabel(f) }))}
                    />
                    <Select<Operator>
                      value={c.op}
                      onChange={(op) => setCond(i, { ...c, op })}
                      aria-label={t('operator')}
                      style={{ width: 120 }}
                      options={operatorsOf(fieldKindOf(choice.source, c.field)).map((op) => ({
                        value: op,
                        label: w(RULE_OPERATOR_LABELS[op], op),
                      }))}
                    />
                    <ValueEditor
                      source={choice.source}
                      cond={c}
                      invalid={!!problem}
                      onChange={(value) => setCond(i, { ...c, value })}
                    />
                    <Button
                      type="text"
                      icon={<DeleteOutlined />}
                      aria-label={t('removeCondition')}
                      title={t('removeCondition')}
                      onClick={() => onChange({ ...choice, where: choice.where.filter((_, j) => j !== i) })}
                    />
                  </Flex>
                  {problem && (
                    <Typography.Text type="danger" style={{ fontSize: 12 }} role="alert">
                      {problem}
                    </Typography.Text>
                  )}
                </Flex>
              );
            })}
            <div>
              <Button
                size="small"
                icon={<PlusOutlined />}
                onClick={() =>
                  onChange({
                    ...choice,
                    where: [
                      ...choice.where,
                      withConditionField({ field: '', op: '=', value: null }, choice.source, condFields[0]!),
                    ],
                  })
                }
              >
                {t('addCondition')}
              </Button>
            </div>
          </Flex>
        </Labeled>
      )}
      {choice.source !== 'patient' && (
        <Flex wrap gap={8} align="flex-start">
          <Labeled label={t('window')}>
            <Select<'any' | 'before' | 'after'>
              value={choice.anchor?.side ?? 'any'}
              aria-label={t('window')}
              style={{ width: 160 }}
              onChange={(side) =>
                onChange({
                  ...choice,
                  anchor:
                    side === 'any'
                      ? null
                      : {
                          side,
                          ref: choice.anchor?.ref ?? 'first_visit',
                          withinDays: choice.anchor?.withinDays ?? null,
                        },
                })
              }
              options={[
                { value: 'any', label: t('anyTime') },
                { value: 'before', label: w(RULE_SIDE_LABELS.before) },
                { value: 'after', label: w(RULE_SIDE_LABELS.after) },
              ]}
            />
          </Labeled>
          {choice.anchor && (
            <>
              <Labeled label={t('ref')}>
                <Select<RuleAnchorRef>
                  value={choice.anchor.ref}
                  aria-label={t('ref')}
                  style={{ width: 190 }}
                  onChange={(ref) => onChange({ ...choice, anchor: { ...choice.anchor!, ref } })}
                  options={RULE_ANCHOR_REFS.map((r) => ({ value: r, label: w(RULE_ANCHOR_LABELS[r], r) }))}
                />
              </Labeled>
              {choice.anchor.ref === 't0' && (
                <Labeled label={t('t0Event')} problem={problemAt('t0EventId')}>
                  <T0EventSelect
                    value={choice.anchor.t0EventId ?? null}
                    status={problemAt('t0EventId') ? 'error' : undefined}
                    onChange={(id) => onChange({ ...choice, anchor: { ...choice.anchor!, t0EventId: id } })}
                  />
                </Labeled>
              )}
              <Labeled label={t('within')} problem={problemAt('withinDays')}>
                <InputNumber
                  value={choice.anchor.withinDays}
                  min={0}
                  max={RULE_WITHIN_DAYS_MAX}
                  precision={0}
                  placeholder={t('unlimited')}
                  addonAfter={t('days')}
                  aria-label={t('within')}
                  status={problemAt('withinDays') ? 'error' : undefined}
                  style={{ width: 150 }}
                  onChange={(d) =>
                    onChange({
                      ...choice,
                      anchor: { ...choice.anchor!, withinDays: typeof d === 'number' ? d : null },
                    })
                  }
                />
              </Labeled>
            </>
          )}
        </Flex>
      )}
    </Flex>
  );
}

function TextEditor({ text, onChange }: { text: string; onChange: (text: string) => void }) {
  const { t, i18n } = useTranslation(RULES_NS);
  const read = text.trim() ? choiceFromTemplate(text.trim()) : null;
  const message = !text.trim()
    ? t('textEmpty')
    : read && !read.ok
      ? read.reason === 'invalid'
        ? t('textOnly.invalid', { message: i18n.language === 'en-US' ? read.en : read.zh })
        : t(`textOnly.${read.reason}`)
      : null;
  const bad = !text.trim() || (read && !read.ok && read.reason === 'invalid');
  return (
    <Labeled label={t('textLabel')}>
      <Input.TextArea
        value={text}
        onChange={(e) => onChange(e.target.value)}
        autoSize={{ minRows: 1, maxRows: 4 }}
        status={bad ? 'error' : undefined}
        aria-label={t('textLabel')}
        style={{ fontFamily: 'monospace' }}
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('textHint')}
      </Typography.Text>
      {message && (
        <Typography.Text type={bad ? 'danger' : 'warning'} style={{ fontSize: 12 }} role="alert">
          {message}
        </Typography.Text>
      )}
    </Labeled>
  );
}

export interface SourceRulesEditorProps {
  /** The answer items of the library's form; null while there is no form (or it is loading). */
  items: RuleItem[] | null;
  value?: Record<string, string>;
  onChange?: (rules: Record<string, string>) => void;
  /** Something to show at the end of a row (a "try" button). */
  extra?: (key: string, text: string) => ReactNode;
}

/**
 * The source rules of a form's items, built from lists: per item, the source, the field, the
 * aggregate, the conditions and the time window; the template text it makes is shown beneath,
 * read-only. "Advanced" edits the text for what the lists cannot say; a saved rule the lists
 * cannot show opens as text and is kept as written.
 */
export function SourceRulesEditor({ items, value, onChange, extra }: SourceRulesEditorProps) {
  const { t } = useTranslation(RULES_NS);
  const [rows, setRows] = useState<Row[]>(() => Object.entries(value ?? {}).map(([k, v]) => rowOf(k, v)));
  const emitted = useRef(JSON.stringify(value ?? {}));
  // A value set from outside (a template picked, the form reset) replaces the rows.
  useEffect(() => {
    const v = JSON.stringify(value ?? {});
    if (v !== emitted.current) {
      emitted.current = v;
      setRows(Object.entries(value ?? {}).map(([k, text]) => rowOf(k, text)));
    }
  }, [value]);
  const update = (next: Row[]) => {
    setRows(next);
    const v = rulesOf(next);
    emitted.current = JSON.stringify(v);
    onChange?.(v);
  };
  const setRow = (i: number, r: Row) => update(rows.map((x, j) => (j === i ? r : x)));

  if (!items) return <Typography.Text type="secondary">{t('noForm')}</Typography.Text>;
  const titles = new Map(items.map((i) => [i.key, i.title]));
  const free = items.filter((i) => !rows.some((r) => r.key === i.key));
  return (
    <Flex vertical gap={12} data-testid="source-rules">
      {rows.length === 0 && <Typography.Text type="secondary">{t('none')}</Typography.Text>}
      {rows.map((r, i) => {
        const title = titles.get(r.key);
        const read = r.mode === 'text' ? choiceFromTemplate(r.text.trim()) : null;
        const text = rowText(r);
        return (
          <div
            key={r.key}
            data-testid={`rule-row-${r.key}`}
            style={{
              border: '1px solid rgba(5, 5, 5, 0.1)',
              borderRadius: 8,
              padding: 12,
              maxWidth: '100%',
            }}
          >
            <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 8 }}>
              <Space wrap size={4}>
                <Typography.Text strong>{title ?? r.key}</Typography.Text>
                {!title && <Typography.Text type="danger">（{t('unknownItem')}）</Typography.Text>}
              </Space>
              <Space wrap size={4}>
                {extra?.(r.key, text)}
                {r.mode === 'builder' ? (
                  <Button size="small" type="link" onClick={() => setRow(i, { ...r, mode: 'text', text })}>
                    {t('advanced')}
                  </Button>
                ) : (
                  <Button
                    size="small"
                    type="link"
                    disabled={!read?.ok}
                    onClick={() => read?.ok && setRow(i, { ...r, mode: 'builder', choice: read.choice })}
                  >
                    {t('builderMode')}
                  </Button>
                )}
                <RemoveIconButton
                  label={t('remove')}
                  titled
                  onClick={() => update(rows.filter((_, j) => j !== i))}
                />
              </Space>
            </Flex>
            {r.mode === 'builder' ? (
              <>
                <ChoiceEditor choice={r.choice} onChange={(choice) => setRow(i, { ...r, choice })} />
                <div style={{ marginTop: 8 }}>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('expression')}
                  </Typography.Text>
                  <div
                    data-testid="rule-expression"
                    style={{
                      fontFamily: 'monospace',
                      fontSize: 12,
                      background: 'rgba(0, 0, 0, 0.04)',
                      borderRadius: 4,
                      padding: '4px 8px',
                      wordBreak: 'break-all',
                    }}
                  >
                    {text}
                  </div>
                </div>
              </>
            ) : (
              <TextEditor text={r.text} onChange={(text) => setRow(i, { ...r, text })} />
            )}
          </div>
        );
      })}
      <Select<string>
        showSearch
        value={null}
        optionFilterProp="label"
        disabled={free.length === 0}
        placeholder={free.length ? `+ ${t('add')}` : t('allRuled')}
        aria-label={t('add')}
        data-testid="rule-add"
        style={{ width: 320, maxWidth: '100%' }}
        options={free.map((it) => ({ value: it.key, label: it.title }))}
        onChange={(key) =>
          update([...rows, { key, mode: 'builder', choice: defaultChoice('lab'), text: '' }])
        }
      />
    </Flex>
  );
}

/** The answer items of a form's latest published version, by their titles. */
export function useFormItems(formId: number | undefined, version: number | undefined) {
  const q = useQuery({
    queryKey: ['disease-library', 'form-items', formId, version],
    enabled: !!formId && !!version,
    queryFn: async () => {
      const v = await libraryApi.formVersion(formId!, version!);
      return answerItems(v.definition).map(({ item }) => ({ key: item.key, title: item.title ?? item.key }));
    },
    retry: false,
  });
  return q;
}

/**
 * The source-rules field of a form (create-library, common template): the items of the form's
 * latest published version, the builder, and a validator that keeps incomplete rules from saving.
 */
export function SourceRulesFormItem({
  name,
  label,
  formId,
  error,
}: {
  name: string;
  label: string;
  formId: number | undefined;
  /** A failure of the caller's own look-up (the template list), shown like the others. */
  error?: unknown;
}) {
  const { t } = useTranslation(RULES_NS);
  const forms = useQuery({ queryKey: ['disease-library', 'forms'], queryFn: () => libraryApi.forms() });
  const version = forms.data?.items.find((f) => f.id === formId)?.latestVersion;
  const items = useFormItems(formId, version);
  const failed = (error ?? forms.error ?? items.error) as Error | null | undefined;
  return (
    <ProForm.Item
      name={name}
      label={label}
      rules={[
        {
          validator: async (_: unknown, v: Record<string, string> | undefined) => {
            if (!rulesComplete(v)) throw new Error(t('incomplete'));
            const keys = new Set((items.data ?? []).map((i) => i.key));
            if (items.data && Object.keys(v ?? {}).some((k) => !keys.has(k)))
              throw new Error(t('unknownItemsSave'));
          },
        },
      ]}
    >
      {failed ? (
        <Typography.Text type="danger" role="alert">
          {t('formFailed', { message: failed.message })}
        </Typography.Text>
      ) : (
        <SourceRulesEditor items={items.data ?? null} />
      )}
    </ProForm.Item>
  );
}
