import { PlusOutlined } from '@ant-design/icons';
import { COHORT_CONDITION_KINDS, type CohortConditionKind, type CohortCriteria } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  Checkbox,
  DatePicker,
  Dropdown,
  Input,
  InputNumber,
  Radio,
  Select,
  Space,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { RemoveIconButton } from '../RemoveIconButton';
import {
  completeCriteria,
  type DraftCondition,
  type DraftCriteria,
  emptyDraft,
  incompleteCount,
  newCondition,
} from './criteria';
import { COHORT_NS } from './i18n';

type Part = 'inclusion' | 'exclusion';
const DAY = 'YYYY-MM-DD';
const num = (v: unknown) => (typeof v === 'number' ? v : null);

function DateWindow({ c, set }: { c: DraftCondition; set: (p: Record<string, unknown>) => void }) {
  const { t } = useTranslation(COHORT_NS);
  const at = (v: unknown) => (typeof v === 'string' && v ? dayjs(v) : null);
  return (
    <DatePicker.RangePicker
      size="small"
      allowEmpty={[true, true]}
      placeholder={[t('from'), t('to')]}
      value={[at(c.from), at(c.to)]}
      onChange={(r: [Dayjs | null, Dayjs | null] | null) =>
        set({ from: r?.[0]?.format(DAY) ?? undefined, to: r?.[1]?.format(DAY) ?? undefined })
      }
    />
  );
}

function Range({
  c,
  set,
  minLabel,
  maxLabel,
  integer,
}: {
  c: DraftCondition;
  set: (p: Record<string, unknown>) => void;
  minLabel: string;
  maxLabel: string;
  integer?: boolean;
}) {
  const props = integer ? { precision: 0, min: 0, max: 150 } : {};
  return (
    <Space.Compact size="small">
      <InputNumber
        {...props}
        placeholder={minLabel}
        aria-label={minLabel}
        value={num(c.min)}
        onChange={(v) => set({ min: v ?? undefined })}
      />
      <InputNumber
        {...props}
        placeholder={maxLabel}
        aria-label={maxLabel}
        value={num(c.max)}
        onChange={(v) => set({ max: v ?? undefined })}
      />
    </Space.Compact>
  );
}

/** A condition's text field (a lab item's code, words in a document); empty is no value. */
function TextInput({
  c,
  set,
  field,
  label,
  width,
  trim,
}: {
  c: DraftCondition;
  set: (p: Record<string, unknown>) => void;
  field: 'itemCode' | 'text';
  label: string;
  width: number;
  /** Spaces around the text are dropped as it is typed. */
  trim?: boolean;
}) {
  return (
    <Input
      size="small"
      style={{ width }}
      placeholder={label}
      aria-label={label}
      value={(c[field] as string) ?? ''}
      onChange={(e) => set({ [field]: (trim ? e.target.value.trim() : e.target.value) || undefined })}
    />
  );
}

/** The fields of one condition, by kind. */
function ConditionFields({ c, set }: { c: DraftCondition; set: (p: Record<string, unknown>) => void }) {
  const { t } = useTranslation(COHORT_NS);
  switch (c.kind) {
    case 'diagnosis':
      return (
        <Space wrap size="small">
          <Select
            mode="tags"
            size="small"
            style={{ minWidth: 260 }}
            tokenSeparators={[',', '，', ' ']}
            placeholder={t('codes')}
            aria-label={t('codes')}
            open={false}
            suffixIcon={null}
            value={(c.codes as string[]) ?? []}
            onChange={(v: string[]) => set({ codes: v.map((x) => x.trim().toUpperCase()).filter(Boolean) })}
          />
          <DateWindow c={c} set={set} />
        </Space>
      );
    case 'lab':
      return (
        <Space wrap size="small">
          <TextInput c={c} set={set} field="itemCode" label={t('itemCode')} width={140} trim />
          <Range c={c} set={set} minLabel={t('min')} maxLabel={t('max')} />
          <DateWindow c={c} set={set} />
        </Space>
      );
    case 'age':
      return <Range c={c} set={set} minLabel={t('ageMin')} maxLabel={t('ageMax')} integer />;
    case 'gender':
      return (
        <Checkbox.Group
          value={(c.codes as number[]) ?? []}
          onChange={(v) => set({ codes: v })}
          options={[1, 2, 0, 3].map((g) => ({ value: g, label: t(`gender.${g}`) }))}
        />
      );
    case 'visit':
      return (
        <Space wrap size="small">
          <Checkbox.Group
            value={(c.visitKinds as string[]) ?? []}
            onChange={(v) => set({ visitKinds: v })}
            options={['outpatient', 'inpatient', 'emergency'].map((k) => ({
              value: k,
              label: t(`visitKinds.${k}`),
            }))}
          />
          <DateWindow c={c} set={set} />
        </Space>
      );
    case 'documentText':
      return (
        <Space wrap size="small">
          <TextInput c={c} set={set} field="text" label={t('text')} width={220} />
          <DateWindow c={c} set={set} />
        </Space>
      );
  }
}

/**
 * One cohort condition: its kind and the fields of that kind. Written once, used by the criteria
 * builder here and by the clinical rule editor (a rule condition that is a cohort criterion).
 */
export function CohortConditionEditor({
  value,
  onChange,
}: {
  value: DraftCondition;
  onChange: (c: DraftCondition) => void;
}) {
  const { t } = useTranslation(COHORT_NS);
  return (
    <>
      <Select
        size="small"
        style={{ width: 120 }}
        value={value.kind}
        aria-label={t('kind')}
        onChange={(k: CohortConditionKind) => onChange(newCondition(k))}
        options={COHORT_CONDITION_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
      />
      <ConditionFields c={value} set={(p) => onChange({ ...value, ...p })} />
    </>
  );
}

function ConditionList({
  part,
  list,
  onChange,
}: {
  part: Part;
  list: DraftCondition[];
  onChange: (l: DraftCondition[]) => void;
}) {
  const { t } = useTranslation(COHORT_NS);
  const add = (kind: CohortConditionKind) => onChange([...list, newCondition(kind)]);
  return (
    <Space direction="vertical" size="small" style={{ width: '100%' }} data-testid={`conditions-${part}`}>
      {list.length === 0 && <Typography.Text type="secondary">{t('none')}</Typography.Text>}
      {list.map((c, i) => (
        // Conditions have no identity of their own; their place in the list is what the server sees.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Space key={i} align="start" wrap data-testid={`condition-${part}-${i}`}>
          <CohortConditionEditor
            value={c}
            onChange={(n) => onChange(list.map((x, j) => (j === i ? n : x)))}
          />
          <RemoveIconButton label={t('remove')} onClick={() => onChange(list.filter((_, j) => j !== i))} />
        </Space>
      ))}
      <Dropdown
        trigger={['click']}
        menu={{
          items: COHORT_CONDITION_KINDS.map((k) => ({ key: k, label: t(`kinds.${k}`) })),
          onClick: ({ key }) => add(key as CohortConditionKind),
        }}
      >
        <Button size="small" type="dashed" icon={<PlusOutlined />} data-testid={`add-${part}`}>
          {t('add')}
        </Button>
      </Dropdown>
    </Space>
  );
}

interface Props {
  value?: DraftCriteria;
  onChange?: (v: DraftCriteria) => void;
  /** Counts the patients the complete criteria match (a live preview); left out, no count is shown. */
  count?: (criteria: CohortCriteria) => Promise<number>;
  /** The sentence shown with the count, e.g. "{{count}} patients match". */
  countText?: (n: number) => string;
}

/**
 * The condition builder over the clinical data (diagnosis codes, lab values and ranges, dates,
 * age, gender, visit types, document text), shared by research subjects and disease libraries.
 * A controlled field: use it inside a form item. What it means is decided by the shared schema
 * in @crdp/core and compiled by the server; here it is only written.
 */
export function ConditionBuilder({ value, onChange, count, countText }: Props) {
  const { t } = useTranslation(COHORT_NS);
  const v = value ?? emptyDraft();
  const complete = completeCriteria(v);
  const key = JSON.stringify(complete);
  const matched = useQuery({
    queryKey: ['cohort', 'count', key],
    queryFn: () => count!(complete),
    enabled: !!count && complete.inclusion.length > 0,
    staleTime: 30_000,
  });
  const set = (p: Partial<DraftCriteria>) => onChange?.({ ...v, ...p });
  const pending = incompleteCount(v);
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="condition-builder">
      <Card size="small" title={t('inclusion')}>
        <Space direction="vertical" style={{ width: '100%' }}>
          <Space>
            <span>{t('match')}</span>
            <Radio.Group
              size="small"
              value={v.match}
              onChange={(e) => set({ match: e.target.value })}
              options={[
                { value: 'all', label: t('matchAll') },
                { value: 'any', label: t('matchAny') },
              ]}
              optionType="button"
            />
          </Space>
          <ConditionList part="inclusion" list={v.inclusion} onChange={(inclusion) => set({ inclusion })} />
        </Space>
      </Card>
      <Card
        size="small"
        title={t('exclusion')}
        extra={<Typography.Text type="secondary">{t('exclusionHint')}</Typography.Text>}
      >
        <ConditionList part="exclusion" list={v.exclusion} onChange={(exclusion) => set({ exclusion })} />
      </Card>
      {pending > 0 && <Typography.Text type="warning">{t('incomplete', { count: pending })}</Typography.Text>}
      {count && matched.data !== undefined && complete.inclusion.length > 0 && (
        <Typography.Text data-testid="criteria-count">
          {countText ? countText(matched.data) : matched.data}
        </Typography.Text>
      )}
    </Space>
  );
}

export {
  completeCriteria,
  type DraftCondition,
  type DraftCriteria,
  emptyDraft,
  newCondition,
} from './criteria';
