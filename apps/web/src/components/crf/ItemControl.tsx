import type { CrfUploaded, FormItem } from '@crdp/crf';
import { Checkbox, DatePicker, Input, InputNumber, Radio, Select, Space, Table, Upload } from 'antd';
import dayjs from 'dayjs';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { CRF_NS } from './i18n';
import { LinkButton } from './LinkButton';

/** A stored file of an upload item, as the server answers the upload (the CRF contract). */
export type UploadedFile = CrfUploaded;

export interface ItemControlProps {
  item: FormItem;
  value: unknown;
  computed: boolean;
  disabled: boolean;
  onChange: (key: string, value: unknown) => void;
  /** Stores a file and answers what the item keeps of it. */
  upload?: ((file: File) => Promise<UploadedFile>) | undefined;
}

const isNumberText = (item: FormItem) =>
  /number|digit/i.test(`${item.textType ?? ''} ${item.inputType ?? ''}`) || !!item.fxTopicData;
const isDateText = (item: FormItem) => /date/i.test(`${item.textType ?? ''} ${item.inputType ?? ''}`);
const decimals = (item: FormItem) => {
  const n = Number(item.fixed);
  return Number.isInteger(n) && n >= 0 && n <= 10 ? n : undefined;
};
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const asRecord = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

function NumberInput(props: {
  id: string;
  value: unknown;
  disabled: boolean;
  precision?: number | undefined;
  onChange: (v: unknown) => void;
}) {
  return (
    <InputNumber
      id={props.id}
      style={{ width: 200 }}
      value={typeof props.value === 'number' || typeof props.value === 'string' ? Number(props.value) : null}
      precision={props.precision}
      disabled={props.disabled}
      onChange={(v) => props.onChange(v === null ? undefined : v)}
    />
  );
}

/** The antd control of one item; memoised so a change re-renders only the items it touches. */
export const ItemControl = memo(function ItemControl({
  item,
  value,
  computed,
  disabled,
  onChange,
  upload,
}: ItemControlProps) {
  const { t } = useTranslation(CRF_NS);
  const set = (v: unknown) => onChange(item.key, v);
  const id = `crf-${item.key}`;
  const options = (item.options ?? []).map((o) => ({
    value: String(o.code),
    label:
      o.score !== undefined && item.type === 'score' ? `${o.name}（${o.score}${t('render.score')}）` : o.name,
  }));
  // Answers keep the option's code as the form defines it (number or text).
  const codeOf = (s: string) => item.options?.find((o) => String(o.code) === s)?.code ?? s;
  // Several of the options ticked (a multiple-choice radio, a checkbox item): their codes, none as nothing.
  const manyOf = () => (
    <Checkbox.Group
      disabled={disabled}
      options={options}
      value={asArray(value).map(String)}
      onChange={(v) => set(v.length ? v.map((x) => codeOf(String(x))) : undefined)}
    />
  );

  switch (item.type) {
    case 'paragraph':
      return null;
    case 'radio':
    case 'score': {
      if (item.type === 'score' && !options.length)
        return <NumberInput id={id} value={value} disabled={disabled} onChange={set} />;
      if (item.typeQ === 'multi') return manyOf();
      if (item.typeQ === 'select')
        return (
          <Select
            id={id}
            allowClear
            style={{ minWidth: 220 }}
            placeholder={t('render.pick')}
            disabled={disabled}
            options={options}
            value={value === undefined || value === null ? undefined : String(value)}
            onChange={(v) => set(v === undefined ? undefined : codeOf(String(v)))}
          />
        );
      return (
        <Radio.Group
          id={id}
          disabled={disabled}
          options={options}
          value={value === undefined || value === null ? undefined : String(value)}
          onChange={(e) => set(codeOf(String(e.target.value)))}
        />
      );
    }
    case 'checkbox':
      return manyOf();
    case 'textQuestion':
      if (isNumberText(item))
        return (
          <NumberInput
            id={id}
            value={value}
            disabled={disabled || computed}
            precision={decimals(item)}
            onChange={set}
          />
        );
      if (isDateText(item))
        return (
          <DatePicker
            id={id}
            disabled={disabled}
            value={typeof value === 'string' && value ? dayjs(value) : null}
            onChange={(d) => set(d ? d.format('YYYY-MM-DD') : undefined)}
          />
        );
      if (/area/i.test(`${item.textType ?? ''}`))
        return (
          <Input.TextArea
            id={id}
            autoSize={{ minRows: 2, maxRows: 6 }}
            disabled={disabled}
            value={typeof value === 'string' ? value : ''}
            onChange={(e) => set(e.target.value || undefined)}
          />
        );
      return (
        <Input
          id={id}
          style={{ maxWidth: 420 }}
          disabled={disabled}
          value={value === undefined || value === null ? '' : String(value)}
          onChange={(e) => set(e.target.value || undefined)}
        />
      );
    case 'gapFilling':
      return <GapFilling item={item} value={asRecord(value)} disabled={disabled} onChange={set} />;
    case 'matrix':
      return <Matrix item={item} value={asRecord(value)} disabled={disabled} onChange={set} />;
    case 'upload':
      return (
        <Upload
          disabled={disabled || !upload}
          fileList={asArray(value).map((f) => {
            const u = f as UploadedFile;
            return {
              uid: String(u.uploadId),
              name: u.name,
              status: 'done' as const,
              url: `/api/v0.1/crf/uploads/${u.uploadId}`,
            };
          })}
          customRequest={async ({ file, onSuccess, onError }) => {
            try {
              const stored = await upload!(file as File);
              set([...asArray(value), stored]);
              onSuccess?.(stored);
            } catch (e) {
              onError?.(e as Error);
            }
          }}
          onRemove={(f) => {
            const rest = asArray(value).filter((x) => String((x as UploadedFile).uploadId) !== f.uid);
            set(rest.length ? rest : undefined);
          }}
        >
          <LinkButton>{t('render.upload')}</LinkButton>
        </Upload>
      );
    default:
      return null;
  }
});

/** Blanks sit inside the sentence where the title writes `___`; without markers they follow it. */
function GapFilling(props: {
  item: FormItem;
  value: Record<string, unknown>;
  disabled: boolean;
  onChange: (v: unknown) => void;
}) {
  const blanks = props.item.gapFilling ?? [];
  const parts = (props.item.title ?? '').split(/_{3,}/);
  const inline = parts.length > 1;
  const set = (k: string, v: unknown) => {
    const next = { ...props.value, [k]: v };
    if (v === undefined || v === '') delete next[k];
    props.onChange(Object.keys(next).length ? next : undefined);
  };
  const control = (i: number) => {
    const b = blanks[i];
    if (!b) return null;
    const k = b.key ?? String(i);
    const v = props.value[k];
    const id = `crf-${props.item.key}-${k}`;
    if (b.gapFillingProperty === 'number')
      return (
        <InputNumber
          id={id}
          size="small"
          style={{ width: 110 }}
          disabled={props.disabled}
          // Spec 001: a number blank keeps the item's decimals (its own when it has them).
          precision={decimals(b as FormItem) ?? decimals(props.item)}
          value={typeof v === 'number' ? v : null}
          onChange={(x) => set(k, x ?? undefined)}
        />
      );
    if (b.gapFillingProperty === 'date')
      return (
        <DatePicker
          id={id}
          size="small"
          disabled={props.disabled}
          value={typeof v === 'string' && v ? dayjs(v) : null}
          onChange={(d) => set(k, d ? d.format('YYYY-MM-DD') : undefined)}
        />
      );
    return (
      <Input
        id={id}
        size="small"
        style={{ width: 140 }}
        disabled={props.disabled}
        value={typeof v === 'string' ? v : v === undefined ? '' : String(v)}
        onChange={(e) => set(k, e.target.value || undefined)}
      />
    );
  };
  if (!inline)
    return (
      <Space wrap>
        {blanks.map((b, i) => (
          <span key={b.key ?? i}>
            {b.title ? `${b.title} ` : ''}
            {control(i)}
          </span>
        ))}
      </Space>
    );
  return (
    <span className="crf-gap-sentence">
      {parts.map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the sentence's parts have no other identity
        <span key={i}>
          {p}
          {i < parts.length - 1 ? control(i) : null}
        </span>
      ))}
    </span>
  );
}

function Matrix(props: {
  item: FormItem;
  value: Record<string, unknown>;
  disabled: boolean;
  onChange: (v: unknown) => void;
}) {
  const { item } = props;
  const columns = item.columns ?? item.options ?? [];
  const kind = item.forM ?? 'radio';
  const setRow = (rk: string, v: unknown) => {
    const next = { ...props.value, [rk]: v };
    if (v === undefined) delete next[rk];
    props.onChange(Object.keys(next).length ? next : undefined);
  };
  const rows = (item.rows ?? []).map((r, i) => ({ key: r.key ?? String(i), name: r.name ?? r.key ?? '' }));
  return (
    <Table
      size="small"
      pagination={false}
      rowKey="key"
      dataSource={rows}
      columns={[
        { title: '', dataIndex: 'name', key: '_name' },
        ...columns.map((c) => ({
          title: c.name,
          key: String(c.code),
          align: 'center' as const,
          render: (_: unknown, r: { key: string }) => {
            const cur = props.value[r.key];
            if (kind === 'input') {
              const cells = cur && typeof cur === 'object' ? (cur as Record<string, unknown>) : {};
              const cell = cells[String(c.code)];
              return (
                <Input
                  size="small"
                  disabled={props.disabled}
                  value={cell === undefined ? '' : String(cell)}
                  onChange={(e) => {
                    const next = { ...cells, [String(c.code)]: e.target.value || undefined };
                    if (!e.target.value) delete next[String(c.code)];
                    setRow(r.key, Object.keys(next).length ? next : undefined);
                  }}
                />
              );
            }
            if (kind === 'checkbox') {
              const list = asArray(cur).map(String);
              const on = list.includes(String(c.code));
              return (
                <Checkbox
                  disabled={props.disabled}
                  checked={on}
                  onChange={(e) => {
                    const next = e.target.checked
                      ? [...asArray(cur), c.code]
                      : asArray(cur).filter((x) => String(x) !== String(c.code));
                    setRow(r.key, next.length ? next : undefined);
                  }}
                />
              );
            }
            return (
              <Radio
                disabled={props.disabled}
                checked={cur !== undefined && String(cur) === String(c.code)}
                onChange={() => setRow(r.key, c.code)}
              />
            );
          },
        })),
      ]}
    />
  );
}
