import { type Form, type FormItem, ITEM_TYPES, parseForm } from '@crdp/crf';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Empty, Input, Select, Space, Spin, Switch, Table } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { CRF_NS } from '../../../components/crf/i18n';
import { crfApi, fieldOf } from '../api';
import { isItem, newItem, pageItems, replaceItem, setPageItems } from './model';

const on = (f: unknown) => f === true || f === 1 || f === '1' || f === 'true';
const optionsText = (i: FormItem) => (i.options ?? []).map((o) => `${o.code}=${o.name}`).join('; ');
const parseOptions = (s: string) =>
  s
    .split(/[;；\n]/)
    .map((x) => x.trim())
    .filter(Boolean)
    .map((x, n) => {
      const [code, ...name] = x.split('=');
      return {
        code: (code ?? '').trim() || String(n + 1),
        name: name.join('=').trim() || (code ?? '').trim(),
      };
    });

/** `hepatopathyPoc/editTable?id=`: the same draft as a grid, one row per item, for long forms. */
export default function TableEditor() {
  const { t } = useTranslation(CRF_NS);
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const formId = Number(params.get('id')) || 0;
  const meta = useQuery({
    queryKey: ['crf', 'form', formId],
    queryFn: () => crfApi.form(formId),
    enabled: !!formId,
  });
  const [form, setForm] = useState<Form | null>(null);
  useEffect(() => {
    if (meta.data?.draft && !form) setForm(meta.data.draft);
  }, [meta.data, form]);
  const error = useMemo(() => {
    if (!form) return null;
    try {
      parseForm(form);
      return null;
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }, [form]);
  if (!formId) return <Empty />;
  if (!form) return <Spin />;

  const rows = form.pages.flatMap((p, pi) =>
    pageItems(form, pi)
      .map((e, index) => ({ e, pi, index, page: p.title ?? String(pi + 1) }))
      .filter((r) => isItem(r.e)),
  );
  const edit = (key: string, patch: Partial<FormItem>, item: FormItem) =>
    setForm(replaceItem(form, key, { ...item, ...patch } as FormItem));

  return (
    <div>
      <Space style={{ marginBottom: 12 }}>
        <strong>{meta.data?.name}</strong>
        <Button
          type="primary"
          onClick={async () => {
            try {
              await crfApi.saveDraft(formId, form);
              message.success(t('list.saved'));
            } catch (e) {
              message.error(`${e instanceof Error ? e.message : String(e)} ${fieldOf(e) ?? ''}`);
            }
          }}
        >
          {t('designer.save')}
        </Button>
        <Button
          onClick={() => {
            const last = form.pages.length - 1;
            setForm(setPageItems(form, last, [...pageItems(form, last), newItem(form, 'textQuestion', '')]));
          }}
        >
          {t('designer.addItem')}
        </Button>
        <Button onClick={() => navigate(`/crf-management/hepatopathyPoc/edit?id=${formId}`)}>
          {t('designer.designMode')}
        </Button>
      </Space>
      {error && <Alert type="error" message={error} style={{ marginBottom: 12 }} />}
      <Table
        size="small"
        rowKey={(r) => `${r.pi}-${(r.e as FormItem).key}`}
        dataSource={rows}
        pagination={{ pageSize: 100 }}
        columns={[
          { title: t('designer.pages'), dataIndex: 'page', width: 100 },
          {
            title: t('designer.key'),
            width: 120,
            render: (_, r) => {
              const i = r.e as FormItem;
              return (
                <Input size="small" value={i.key} onChange={(e) => edit(i.key, { key: e.target.value }, i)} />
              );
            },
          },
          {
            title: t('designer.itemTitle'),
            render: (_, r) => {
              const i = r.e as FormItem;
              return (
                <Input
                  size="small"
                  value={i.title ?? ''}
                  onChange={(e) => edit(i.key, { title: e.target.value }, i)}
                />
              );
            },
          },
          {
            title: t('designer.type'),
            width: 140,
            render: (_, r) => {
              const i = r.e as FormItem;
              return (
                <Select
                  size="small"
                  style={{ width: 130 }}
                  value={i.type}
                  options={ITEM_TYPES.map((v) => ({ value: v, label: v }))}
                  onChange={(type) =>
                    edit(i.key, { ...newItem(form, type, i.title ?? ''), key: i.key, title: i.title }, i)
                  }
                />
              );
            },
          },
          {
            title: t('designer.isRequired'),
            width: 70,
            render: (_, r) => {
              const i = r.e as FormItem;
              return (
                <Switch
                  size="small"
                  checked={on(i.isRequired)}
                  onChange={(v) => edit(i.key, { isRequired: v ? 1 : 0 }, i)}
                />
              );
            },
          },
          {
            title: `${t('designer.options')} (code=name; …)`,
            render: (_, r) => {
              const i = r.e as FormItem;
              if (!['radio', 'checkbox', 'score'].includes(i.type)) return null;
              return (
                <Input
                  size="small"
                  defaultValue={optionsText(i)}
                  onBlur={(e) => edit(i.key, { options: parseOptions(e.target.value) }, i)}
                />
              );
            },
          },
        ]}
      />
    </div>
  );
}
