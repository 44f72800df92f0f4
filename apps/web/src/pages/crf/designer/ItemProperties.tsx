import type { Form, FormElement, FormItem, Option } from '@crdp/crf';
import { OPERATORS, parseOperator } from '@crdp/crf';
import { Form as AntForm, Button, Divider, Input, InputNumber, Radio, Select, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { CRF_NS } from '../../../components/crf/i18n';
import { LinkButton } from '../../../components/crf/LinkButton';
import { allItems, itemCount } from './model';
import { useDesignerWords } from './words';

const FUNCTIONS = ['sum', 'average', 'min', 'max', 'count', 'score', 'bmi', 'dateDiff', 'age'];
const on = (f: unknown) => f === true || f === 1 || f === '1' || f === 'true';

/** Every field of an item: options, blanks, matrix, calculation and required rule pick items from the form. */
/**
 * Editing a list of rows in place (an item's options, a show rule's conditions): `setAt`
 * changes one row, `removeAt` drops it.
 */
function listEdit<T>(list: T[], onChange: (next: T[]) => void) {
  return {
    setAt: (i: number, patch: Partial<T>) => onChange(list.map((x, j) => (j === i ? { ...x, ...patch } : x))),
    removeAt: (i: number) => onChange(list.filter((_, j) => j !== i)),
  };
}

/** A row's 删除 link in a list edited in place. */
function RemoveLink({ onRemove }: { onRemove: () => void }) {
  const { t } = useTranslation(CRF_NS);
  return <LinkButton onClick={onRemove}>{t('designer.remove')}</LinkButton>;
}

export function ItemProperties(props: { form: Form; item: FormItem; onChange: (item: FormItem) => void }) {
  const { t } = useTranslation(CRF_NS);
  const words = useDesignerWords();
  const { item, form } = props;
  const set = (patch: Partial<FormItem>) => {
    const next = { ...item, ...patch } as FormItem;
    for (const [k, v] of Object.entries(patch))
      if (v === undefined) delete (next as Record<string, unknown>)[k];
    props.onChange(next);
  };
  const others = allItems(form)
    .filter((i) => i.key !== item.key && i.type !== 'paragraph')
    .map((i) => ({ value: i.key, label: `${i.title ?? ''} (${i.key})` }));
  const num = (field: keyof FormItem, label: string) => (
    <AntForm.Item label={label}>
      <InputNumber
        id={`prop-${String(field)}`}
        value={(item[field] as number | undefined) ?? null}
        onChange={(v) => set({ [field]: v ?? undefined } as Partial<FormItem>)}
      />
    </AntForm.Item>
  );
  const hasOptions = item.type === 'radio' || item.type === 'checkbox' || item.type === 'score';
  const isNumber = item.type === 'textQuestion' && /number/.test(String(item.textType ?? ''));

  return (
    <AntForm layout="vertical" size="small" component="div">
      <AntForm.Item label={t('designer.key')}>
        <Input
          id="prop-key"
          value={item.key}
          onChange={(e) => set({ key: e.target.value.replace(/[^\w.-]/g, '') })}
        />
      </AntForm.Item>
      <AntForm.Item label={t('designer.itemTitle')}>
        <Input.TextArea
          id="prop-title"
          autoSize
          value={item.title ?? ''}
          onChange={(e) => set({ title: e.target.value })}
        />
      </AntForm.Item>
      <Space size="large">
        <AntForm.Item label={t('designer.isRequired')}>
          <Switch
            id="prop-required"
            checked={on(item.isRequired)}
            onChange={(v) => set({ isRequired: v ? 1 : 0 })}
          />
        </AntForm.Item>
        <AntForm.Item label={t('designer.isHide')}>
          <Switch id="prop-hide" checked={on(item.isHide)} onChange={(v) => set({ isHide: v ? 1 : 0 })} />
        </AntForm.Item>
      </Space>
      {item.type === 'textQuestion' && (
        <>
          <AntForm.Item label={t('designer.textType')}>
            <Select
              id="prop-textType"
              value={item.textType ?? 'text'}
              options={['text', 'textarea', 'number', 'date', 'nationalId'].map((v) => ({
                value: v,
                label: words.textType(v),
              }))}
              onChange={(v) => set({ textType: v })}
            />
          </AntForm.Item>
          {isNumber ? (
            <Space>
              {num('minVal', t('designer.minVal'))}
              {num('maxVal', t('designer.maxVal'))}
              {num('fixed', t('designer.fixed'))}
            </Space>
          ) : (
            <Space>
              {num('minNub', t('designer.minNub'))}
              {num('maxNub', t('designer.maxNub'))}
            </Space>
          )}
        </>
      )}
      {item.type === 'radio' && (
        <AntForm.Item label={t('designer.typeQ')}>
          <Radio.Group
            value={item.typeQ ?? ''}
            options={[
              { value: '', label: words.typeQ('radio') },
              { value: 'select', label: words.typeQ('select') },
              { value: 'multi', label: words.typeQ('multi') },
            ]}
            onChange={(e) => set({ typeQ: e.target.value || undefined })}
          />
        </AntForm.Item>
      )}
      {item.type === 'checkbox' && (
        <Space>
          {num('selectLeastValue', t('designer.least'))}
          {num('selectMostValue', t('designer.most'))}
        </Space>
      )}
      {(hasOptions || item.type === 'matrix') && (
        <OptionEditor
          label={item.type === 'matrix' ? t('designer.columns') : t('designer.options')}
          withScore={item.type === 'score'}
          options={(item.type === 'matrix' ? item.columns : item.options) ?? []}
          onChange={(o) => set(item.type === 'matrix' ? { columns: o } : { options: o })}
        />
      )}
      {item.type === 'matrix' && (
        <>
          <AntForm.Item label={t('designer.forM')}>
            <Radio.Group
              value={item.forM ?? 'radio'}
              options={['radio', 'checkbox', 'input'].map((v) => ({ value: v, label: words.forM(v) }))}
              onChange={(e) => set({ forM: e.target.value })}
            />
          </AntForm.Item>
          <AntForm.Item label={t('designer.rows')}>
            <Input.TextArea
              autoSize
              value={(item.rows ?? []).map((r) => `${r.key ?? ''}=${r.name ?? ''}`).join('\n')}
              onChange={(e) =>
                set({
                  rows: e.target.value
                    .split('\n')
                    .filter(Boolean)
                    .map((l, i) => {
                      const [k, ...n] = l.split('=');
                      return { key: k?.trim() || `r${i + 1}`, name: n.join('=').trim() || k?.trim() };
                    }),
                })
              }
            />
          </AntForm.Item>
        </>
      )}
      {item.type === 'gapFilling' && (
        <AntForm.Item label={t('designer.blanks')}>
          {(item.gapFilling ?? []).map((b, i) => (
            <Space key={b.key ?? i} style={{ marginBottom: 4 }}>
              <Input
                style={{ width: 80 }}
                value={b.key ?? ''}
                onChange={(e) =>
                  set({
                    gapFilling: (item.gapFilling ?? []).map((x, j) =>
                      j === i ? { ...x, key: e.target.value } : x,
                    ),
                  })
                }
              />
              <Select
                style={{ width: 100 }}
                value={b.gapFillingProperty ?? 'text'}
                options={['text', 'number', 'date', 'nationalId'].map((v) => ({
                  value: v,
                  label: words.blankType(v),
                }))}
                onChange={(v) =>
                  set({
                    gapFilling: (item.gapFilling ?? []).map((x, j) =>
                      j === i ? { ...x, gapFillingProperty: v } : x,
                    ),
                  })
                }
              />
              <Switch
                checkedChildren={t('designer.isRequired')}
                checked={on(b.isRequired)}
                onChange={(v) =>
                  set({
                    gapFilling: (item.gapFilling ?? []).map((x, j) =>
                      j === i ? { ...x, isRequired: v ? 1 : 0 } : x,
                    ),
                  })
                }
              />
              <LinkButton
                onClick={() => set({ gapFilling: (item.gapFilling ?? []).filter((_, j) => j !== i) })}
              >
                {t('designer.remove')}
              </LinkButton>
            </Space>
          ))}
          {(item.gapFilling ?? []).some((b) => b.gapFillingProperty === 'number') && (
            // Number blanks keep this many decimals (spec 001: the item's fixed setting).
            <div style={{ margin: '4px 0' }}>{num('fixed', t('designer.fixed'))}</div>
          )}
          <Button
            size="small"
            onClick={() =>
              set({
                gapFilling: [
                  ...(item.gapFilling ?? []),
                  { key: `b${(item.gapFilling?.length ?? 0) + 1}`, gapFillingProperty: 'text' },
                ],
              })
            }
          >
            {t('designer.addBlank')}
          </Button>
        </AntForm.Item>
      )}
      {(item.type === 'textQuestion' || item.type === 'score') && (
        <>
          <Divider plain>{t('designer.calc')}</Divider>
          <AntForm.Item label={t('designer.calcFunc')}>
            <Select
              id="prop-calc-func"
              allowClear
              value={item.fxTopicData?.func}
              options={FUNCTIONS.map((f) => ({ value: f, label: words.func(f) }))}
              onChange={(func) =>
                set(
                  func
                    ? {
                        fxTopicData: { ...(item.fxTopicData ?? {}), func },
                        textType: item.textType ?? 'number',
                      }
                    : { fxTopicData: undefined },
                )
              }
            />
          </AntForm.Item>
          {item.fxTopicData && (
            <>
              <AntForm.Item label={t('designer.calcFields')}>
                <Select
                  id="prop-calc-fields"
                  mode="multiple"
                  value={[item.fxTopicData.fields ?? []].flat()}
                  options={others}
                  onChange={(fields) => set({ fxTopicData: { ...item.fxTopicData, fields } })}
                />
              </AntForm.Item>
              <Space>
                {num('fixed', t('designer.fixed'))}
                <AntForm.Item label={t('designer.calcManual')}>
                  <Switch checked={on(item.fxManual)} onChange={(v) => set({ fxManual: v ? 1 : 0 })} />
                </AntForm.Item>
              </Space>
            </>
          )}
        </>
      )}
      <Divider plain>{t('designer.requiredRule')}</Divider>
      <ConditionList
        items={others}
        form={form}
        conditions={item.requiredRule?.rules ?? []}
        onChange={(rules) =>
          set({
            requiredRule: rules.length
              ? { condition: item.requiredRule?.condition ?? 'all', rules }
              : undefined,
          })
        }
        extra={
          item.requiredRule ? (
            <Radio.Group
              size="small"
              value={item.requiredRule.condition === 'all' ? 'all' : 'any'}
              options={[
                { value: 'all', label: t('designer.requiredAll') },
                { value: 'any', label: t('designer.requiredAny') },
              ]}
              onChange={(e) => set({ requiredRule: { ...item.requiredRule!, condition: e.target.value } })}
            />
          ) : null
        }
      />
    </AntForm>
  );
}

function OptionEditor(props: {
  label: string;
  withScore: boolean;
  options: Option[];
  onChange: (o: Option[]) => void;
}) {
  const { t } = useTranslation(CRF_NS);
  const { setAt, removeAt } = listEdit(props.options, props.onChange);
  return (
    <AntForm.Item label={props.label}>
      {props.options.map((o, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: options are edited in place, codes may repeat while typing
        <Space key={i} style={{ marginBottom: 4 }}>
          <Input
            id={`prop-option-${i}-name`}
            style={{ width: 120 }}
            placeholder={t('designer.optionName')}
            value={o.name}
            onChange={(e) => setAt(i, { name: e.target.value })}
          />
          <Input
            id={`prop-option-${i}-code`}
            style={{ width: 80 }}
            placeholder={t('designer.optionCode')}
            value={String(o.code)}
            onChange={(e) => setAt(i, { code: e.target.value })}
          />
          {props.withScore && (
            <InputNumber
              style={{ width: 70 }}
              placeholder={t('designer.optionScore')}
              value={o.score === undefined ? null : Number(o.score)}
              onChange={(v) => setAt(i, { score: v ?? undefined })}
            />
          )}
          <RemoveLink onRemove={() => removeAt(i)} />
        </Space>
      ))}
      <Button
        size="small"
        onClick={() =>
          props.onChange([
            ...props.options,
            {
              name: `${t('designer.optionName')} ${props.options.length + 1}`,
              code: String(props.options.length + 1),
            },
          ])
        }
      >
        {t('designer.addOption')}
      </Button>
    </AntForm.Item>
  );
}

export interface EditableCondition {
  indicatorName: string;
  condition: string;
  indicatorVal?: unknown;
}

/** Operators that take no value, and those that take several (a list of option codes). */
const NO_VALUE = new Set(['isEmpty', 'exists']);
const SEVERAL = new Set(['inList', 'notInList']);

/**
 * The value of a condition: on an item with options, picked from its options (several for
 * "is one of"); otherwise typed.
 */
function ConditionValue(props: {
  item: FormItem | undefined;
  c: EditableCondition;
  onChange: (v: unknown) => void;
}) {
  const { t } = useTranslation(CRF_NS);
  const { item, c } = props;
  const options = item?.type === 'matrix' ? undefined : item?.options;
  const op = parseOperator(c.condition) ?? c.condition;
  if (NO_VALUE.has(op)) return null;
  if (options?.length) {
    const several = SEVERAL.has(op);
    const current = c.indicatorVal;
    const value = several
      ? (Array.isArray(current) ? current : current === undefined || current === '' ? [] : [current]).map(
          String,
        )
      : current === undefined || current === '' || Array.isArray(current)
        ? undefined
        : String(current);
    return (
      <Select
        style={{ minWidth: 120 }}
        data-testid="rule-value"
        placeholder={t('vocab.pickValue')}
        mode={several ? 'multiple' : undefined}
        value={value}
        options={options.map((o) => ({ value: String(o.code), label: o.name }))}
        onChange={(v: string | string[]) => {
          // The option's own code, number or text as the form stores it.
          const codeOf = (s: string) => options.find((o) => String(o.code) === s)?.code ?? s;
          props.onChange(Array.isArray(v) ? v.map(codeOf) : codeOf(v));
        }}
      />
    );
  }
  return (
    <Input
      style={{ width: 100 }}
      placeholder={t('designer.ruleValue')}
      value={c.indicatorVal === undefined ? '' : String(c.indicatorVal)}
      onChange={(e) => props.onChange(e.target.value)}
    />
  );
}

/** Conditions on other items, picked from the form. */
export function ConditionList(props: {
  items: Array<{ value: string; label: string }>;
  /** The form, to offer an item's options as the value. */
  form: Form;
  conditions: EditableCondition[];
  onChange: (c: EditableCondition[]) => void;
  extra?: React.ReactNode;
}) {
  const { t } = useTranslation(CRF_NS);
  const words = useDesignerWords();
  const itemOf = (key: string) => allItems(props.form).find((i) => i.key === key);
  const { setAt, removeAt } = listEdit(props.conditions, props.onChange);
  return (
    <div>
      {props.extra}
      {props.conditions.map((c, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: conditions have no identity of their own
        <Space key={i} wrap style={{ marginBottom: 4 }}>
          <Select
            style={{ width: 160 }}
            placeholder={t('designer.ruleWhen')}
            value={c.indicatorName || undefined}
            options={props.items}
            onChange={(v) => setAt(i, { indicatorName: v })}
          />
          <Select
            style={{ width: 130 }}
            // Older forms store words or symbols ('>', '等于'): shown as the operator they mean.
            value={parseOperator(c.condition) ?? c.condition}
            options={OPERATORS.map((o) => ({ value: o, label: words.operator(o) }))}
            onChange={(v) => setAt(i, { condition: v })}
          />
          <ConditionValue
            item={itemOf(c.indicatorName)}
            c={c}
            onChange={(v) => setAt(i, { indicatorVal: v })}
          />
          <RemoveLink onRemove={() => removeAt(i)} />
        </Space>
      ))}
      <Button
        size="small"
        onClick={() =>
          props.onChange([...props.conditions, { indicatorName: '', condition: 'equals', indicatorVal: '' }])
        }
      >
        {t('designer.addRule')}
      </Button>
    </div>
  );
}

/** A group (container): its title; its key is what show rules name to show the whole group. */
export function GroupProperties(props: { group: FormElement; onChange: (patch: { title: string }) => void }) {
  const { t } = useTranslation(CRF_NS);
  const { group } = props;
  return (
    <AntForm layout="vertical" size="small" component="div">
      <AntForm.Item label={t('designer.groupName')}>
        <Input
          id="prop-group-title"
          value={group.title ?? ''}
          onChange={(e) => props.onChange({ title: e.target.value })}
        />
      </AntForm.Item>
      <AntForm.Item label={t('designer.groupKey')}>
        <Input id="prop-group-key" value={group.key ?? ''} disabled />
      </AntForm.Item>
      <p style={{ color: '#999' }}>{t('designer.groupCount', { count: itemCount(group) })}</p>
    </AntForm>
  );
}
