import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  COHORT_CONDITION_KINDS,
  type CohortCondition,
  type CohortConditionKind,
  cohortConditionSchema,
  describeCondition,
  type RuleAttribute,
  type RuleConditionInput,
  type RuleOp,
  type RuleWhenInput,
  wordReason,
} from '@crdp/core';
import { Button, Card, Dropdown, Input, InputNumber, Radio, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../app/i18n';
import {
  CohortConditionEditor,
  type DraftCondition,
  newCondition,
} from '../../components/cohort/ConditionBuilder';
import { COHORT_NS } from '../../components/cohort/i18n';
import { RULES_NS } from './i18n';

type Attr = Extract<RuleConditionInput, { kind: 'attribute' }>;
type Window = NonNullable<Attr['window']>;
export interface T0Option {
  id: number;
  name: string;
}

const TEXT_OPS: RuleOp[] = ['=', '!=', 'contains', 'starts', 'exists', 'missing'];
const ORDER_OPS: RuleOp[] = ['=', '!=', '>', '>=', '<', '<=', 'exists', 'missing'];
export const emptyCondition = (): Attr => ({
  kind: 'attribute',
  attribute: '',
  op: '>',
  value: null,
  window: null,
});

/** The kind of an attribute's value (from the attribute list; text when unknown). */
export const kindOf = (attrs: RuleAttribute[], key: string) =>
  attrs.find((a) => a.key === key)?.kind ?? 'text';

function windowValue(w: Window | null | undefined) {
  if (!w) return 'none';
  return w.ref === 't0' ? `t0:${w.t0EventId}` : w.ref;
}

/** One condition: attribute, operator, value and an optional time window relative to an event. */
function ConditionRow({
  c,
  attrs,
  t0s,
  testId,
  onChange,
  onRemove,
}: {
  c: RuleConditionInput;
  attrs: RuleAttribute[];
  t0s: T0Option[];
  testId: string;
  onChange: (c: RuleConditionInput) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation(RULES_NS);
  const remove = (
    <Button
      size="small"
      type="text"
      icon={<DeleteOutlined />}
      onClick={onRemove}
      aria-label={t('editor.remove')}
    />
  );
  if (c.kind === 'criterion') {
    // The cohort criteria's own editor and meaning (one evaluator on the server, cohort/compile.ts).
    const complete = cohortConditionSchema.safeParse(c.criterion);
    return (
      <Space wrap data-testid={testId}>
        <Typography.Text type="secondary">{t('editor.criterion')}</Typography.Text>
        <CohortConditionEditor
          value={c.criterion as DraftCondition}
          onChange={(criterion) => onChange({ ...c, criterion: criterion as CohortCondition })}
        />
        {complete.success ? (
          <Typography.Text type="secondary" data-testid={`${testId}-meaning`}>
            {wordReason(describeCondition(complete.data), currentLocale())}
          </Typography.Text>
        ) : (
          <Typography.Text type="warning">{t('editor.criterionIncomplete')}</Typography.Text>
        )}
        {remove}
      </Space>
    );
  }
  const kind = kindOf(attrs, c.attribute);
  const ops = kind === 'text' ? TEXT_OPS : ORDER_OPS;
  const needsValue = c.op !== 'exists' && c.op !== 'missing';
  const options = attrs.map((a) => ({
    value: a.key,
    label: `${t(`editor.origin.${a.origin}`)} · ${a.label}`,
  }));
  if (c.attribute && !attrs.some((a) => a.key === c.attribute))
    options.unshift({ value: c.attribute, label: c.attribute });
  const w = c.window ?? null;
  const setWindow = (v: string) => {
    if (v === 'none') return onChange({ ...c, window: null });
    const base = { side: w?.side ?? 'after', withinDays: w?.withinDays ?? null };
    if (v.startsWith('t0:'))
      onChange({ ...c, window: { ...base, ref: 't0', t0EventId: Number(v.slice(3)) } });
    else
      onChange({ ...c, window: { ...base, ref: v as 'first_visit' | 'first_admission', t0EventId: null } });
  };
  return (
    <Space wrap data-testid={testId}>
      <Select
        showSearch
        style={{ width: 400 }}
        aria-label={t('editor.attribute')}
        placeholder={t('editor.pickAttribute')}
        value={c.attribute || undefined}
        options={options}
        optionFilterProp="label"
        onChange={(v: string) => {
          const k = kindOf(attrs, v);
          onChange({ ...c, attribute: v, op: k === 'text' ? '=' : c.op, value: null });
        }}
      />
      <Select
        style={{ width: 110 }}
        aria-label={t('editor.op')}
        value={c.op}
        options={ops.map((o) => ({ value: o, label: t(`ops.${o}`) }))}
        onChange={(op: RuleOp) =>
          onChange({ ...c, op, value: op === 'exists' || op === 'missing' ? null : c.value })
        }
      />
      {needsValue &&
        (kind === 'number' ? (
          <InputNumber
            aria-label={t('editor.value')}
            style={{ width: 120 }}
            value={typeof c.value === 'number' ? c.value : null}
            onChange={(v) => onChange({ ...c, value: v ?? null })}
          />
        ) : (
          <Input
            aria-label={t('editor.value')}
            style={{ width: 160 }}
            placeholder={kind === 'date' ? 'YYYY-MM-DD' : undefined}
            value={c.value === null || c.value === undefined ? '' : String(c.value)}
            onChange={(e) => onChange({ ...c, value: e.target.value })}
          />
        ))}
      <Select
        style={{ width: 190 }}
        aria-label={t('editor.window')}
        value={windowValue(w)}
        onChange={setWindow}
        options={[
          { value: 'none', label: t('editor.noWindow') },
          { value: 'first_visit', label: t('editor.firstVisit') },
          { value: 'first_admission', label: t('editor.firstAdmission') },
          ...t0s.map((e) => ({ value: `t0:${e.id}`, label: t('editor.t0', { name: e.name }) })),
        ]}
      />
      {w && (
        <>
          <Select
            style={{ width: 90 }}
            value={w.side}
            onChange={(side: 'before' | 'after') => onChange({ ...c, window: { ...w, side } })}
            options={[
              { value: 'before', label: t('editor.before') },
              { value: 'after', label: t('editor.after') },
            ]}
          />
          <InputNumber
            min={0}
            max={36500}
            style={{ width: 90 }}
            value={w.withinDays ?? null}
            onChange={(v) => onChange({ ...c, window: { ...w, withinDays: v ?? null } })}
          />
          <span>{t('editor.withinDays')}</span>
        </>
      )}
      {remove}
    </Space>
  );
}

function ConditionList({
  list,
  attrs,
  t0s,
  prefix,
  onChange,
}: {
  list: RuleConditionInput[];
  attrs: RuleAttribute[];
  t0s: T0Option[];
  prefix: string;
  onChange: (l: RuleConditionInput[]) => void;
}) {
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {list.map((c, i) => (
        <ConditionRow
          // biome-ignore lint/suspicious/noArrayIndexKey: conditions have no id; their place is their identity
          key={i}
          c={c}
          attrs={attrs}
          t0s={t0s}
          testId={`${prefix}-${i}`}
          onChange={(n) => onChange(list.map((x, j) => (j === i ? n : x)))}
          onRemove={() => onChange(list.filter((_, j) => j !== i))}
        />
      ))}
    </Space>
  );
}

/** A menu of the cohort criteria's kinds: picking one adds a criterion condition of that kind. */
function AddCriterion({
  onAdd,
  testId,
  size,
}: {
  onAdd: (c: RuleConditionInput) => void;
  testId: string;
  size?: 'small';
}) {
  const { t } = useTranslation(RULES_NS);
  const { t: tc } = useTranslation(COHORT_NS);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: COHORT_CONDITION_KINDS.map((k) => ({ key: k, label: tc(`kinds.${k}`) })),
        onClick: ({ key }) =>
          onAdd({
            kind: 'criterion',
            criterion: newCondition(key as CohortConditionKind) as CohortCondition,
          }),
      }}
    >
      <Button size={size} type="dashed" icon={<PlusOutlined />} data-testid={testId}>
        {t('editor.addCriterion')}
      </Button>
    </Dropdown>
  );
}

function MatchSwitch({ value, onChange }: { value: 'all' | 'any'; onChange: (m: 'all' | 'any') => void }) {
  const { t } = useTranslation(RULES_NS);
  return (
    <Radio.Group
      size="small"
      optionType="button"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      options={[
        { value: 'all', label: t('editor.matchAll') },
        { value: 'any', label: t('editor.matchAny') },
      ]}
    />
  );
}

/** The conditions of a rule: a list and groups, each matching all or any of its conditions. */
export function ConditionEditor({
  when,
  attrs,
  t0s,
  onChange,
}: {
  when: RuleWhenInput;
  attrs: RuleAttribute[];
  t0s: T0Option[];
  onChange: (w: RuleWhenInput) => void;
}) {
  const { t } = useTranslation(RULES_NS);
  const conditions = when.conditions ?? [];
  const groups = when.groups ?? [];
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="rule-conditions">
      <MatchSwitch value={when.match ?? 'all'} onChange={(match) => onChange({ ...when, match })} />
      <ConditionList
        list={conditions}
        attrs={attrs}
        t0s={t0s}
        prefix="rule-condition"
        onChange={(l) => onChange({ ...when, conditions: l })}
      />
      {groups.map((g, gi) => (
        <Card
          // biome-ignore lint/suspicious/noArrayIndexKey: groups have no id
          key={gi}
          size="small"
          title={
            <Space>
              {t('editor.group')} {gi + 1}
              <MatchSwitch
                value={g.match ?? 'all'}
                onChange={(match) =>
                  onChange({ ...when, groups: groups.map((x, j) => (j === gi ? { ...x, match } : x)) })
                }
              />
            </Space>
          }
          extra={
            <Button
              size="small"
              type="link"
              danger
              onClick={() => onChange({ ...when, groups: groups.filter((_, j) => j !== gi) })}
            >
              {t('editor.remove')}
            </Button>
          }
        >
          <ConditionList
            list={g.conditions}
            attrs={attrs}
            t0s={t0s}
            prefix={`rule-group-${gi}-condition`}
            onChange={(l) =>
              onChange({ ...when, groups: groups.map((x, j) => (j === gi ? { ...x, conditions: l } : x)) })
            }
          />
          <Button
            size="small"
            type="dashed"
            icon={<PlusOutlined />}
            style={{ marginTop: 8 }}
            onClick={() =>
              onChange({
                ...when,
                groups: groups.map((x, j) =>
                  j === gi ? { ...x, conditions: [...x.conditions, emptyCondition()] } : x,
                ),
              })
            }
          >
            {t('editor.addCondition')}
          </Button>{' '}
          <AddCriterion
            size="small"
            testId={`rule-group-${gi}-add-criterion`}
            onAdd={(n) =>
              onChange({
                ...when,
                groups: groups.map((x, j) => (j === gi ? { ...x, conditions: [...x.conditions, n] } : x)),
              })
            }
          />
        </Card>
      ))}
      <Space>
        <Button
          type="dashed"
          icon={<PlusOutlined />}
          onClick={() => onChange({ ...when, conditions: [...conditions, emptyCondition()] })}
        >
          {t('editor.addCondition')}
        </Button>
        <AddCriterion
          testId="rule-add-criterion"
          onAdd={(n) => onChange({ ...when, conditions: [...conditions, n] })}
        />
        <Button
          type="dashed"
          icon={<PlusOutlined />}
          onClick={() =>
            onChange({ ...when, groups: [...groups, { match: 'any', conditions: [emptyCondition()] }] })
          }
        >
          {t('editor.addGroup')}
        </Button>
      </Space>
    </Space>
  );
}
