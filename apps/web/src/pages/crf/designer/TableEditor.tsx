import { type FormItem, ITEM_TYPES, parseForm } from '@crdp/crf';
import { Alert, Button, Card, Empty, Input, Select, Space, Spin, Switch, Table, Tag } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { currentLocale } from '../../../app/i18n';
import { CRF_NS } from '../../../components/crf/i18n';
import {
  addElement,
  elementsAt,
  findContainer,
  type ItemRow,
  itemRows,
  locateItem,
  moveItemTo,
  moveTargets,
  newItem,
  parseFaultText,
  replaceItem,
  shiftElement,
  updateContainer,
} from './model';
import { useDraft } from './useDraft';
import { useDesignerWords } from './words';

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

/**
 * `hepatopathyPoc/editTable?id=`: the same draft as a grid, one row per item of the form (those in
 * groups too, with their page and group), for long forms. Edits go through the designer's model.
 */
export default function TableEditor() {
  const { t } = useTranslation(CRF_NS);
  const navigate = useNavigate();
  const { formId, meta, form, setForm, edited, save: saveForm } = useDraft();
  const words = useDesignerWords();
  const error = useMemo(() => {
    if (!form) return null;
    try {
      parseForm(form);
      return null;
    } catch (e) {
      return parseFaultText(e, currentLocale());
    }
  }, [form]);
  if (!formId) return <Empty />;
  if (!form) return <Spin />;

  // Rows are keyed by position: a key being typed must not remount its own input.
  const rows = itemRows(form).map((r, n) => ({ ...r, n }));
  const pageTitle = (page: number) => form.pages[page]?.title || t('designer.page', { n: page + 1 });
  const pageName = (r: ItemRow) => pageTitle(r.page);
  // Where an item can go: each page and each group on it, named "page › group › inner group".
  const targets = moveTargets(form);
  const targetOptions = targets.map((g, v) => ({
    value: v,
    label: [pageTitle(g.page), ...g.path].join(' › '),
  }));
  const groups = targets.filter((g) => g.container !== null);
  const save = () => saveForm(form);
  const edit = (key: string, patch: Partial<FormItem>, item: FormItem) =>
    setForm(replaceItem(form, key, { ...item, ...patch } as FormItem));

  return (
    <div>
      <Space style={{ marginBottom: 12 }}>
        <strong>{meta.data?.name}</strong>
        <Button type="primary" onClick={save}>
          {t('designer.save')}
        </Button>
        <Button
          onClick={() => {
            setForm(addElement(form, form.pages.length - 1, words.newItem(form, 'textQuestion')));
          }}
        >
          {t('designer.addItem')}
        </Button>
        <Button
          onClick={async () => {
            // Unsaved changes are saved first: the designer opens the stored draft.
            if (edited && !(await save())) return;
            navigate(`/crf-management/hepatopathyPoc/edit?id=${formId}`);
          }}
        >
          {t('designer.designMode')}
        </Button>
      </Space>
      {error && <Alert type="error" message={error} style={{ marginBottom: 12 }} />}
      <Card
        size="small"
        title={t('designer.groupsPanel')}
        style={{ marginBottom: 12 }}
        data-testid="table-groups"
      >
        {groups.length === 0 ? (
          <span style={{ color: '#999' }}>{t('designer.noGroups')}</span>
        ) : (
          <Space wrap size={[16, 8]}>
            {groups.map((g) => (
              <Space.Compact key={`${g.page}:${g.container}`} size="small">
                <Tag color="blue" style={{ margin: 0, display: 'flex', alignItems: 'center' }}>
                  {[pageTitle(g.page), ...g.path.slice(0, -1)].join(' › ')} · {g.container}
                </Tag>
                <Input
                  size="small"
                  style={{ width: 180 }}
                  aria-label={`${t('designer.groupName')} ${g.container}`}
                  placeholder={t('designer.groupName')}
                  data-testid={`table-group-title-${g.container}`}
                  value={(findContainer(form, g.page, g.container!)?.title as string | undefined) ?? ''}
                  onChange={(e) =>
                    setForm(updateContainer(form, g.page, g.container!, { title: e.target.value }))
                  }
                />
              </Space.Compact>
            ))}
          </Space>
        )}
      </Card>
      <Table
        size="small"
        rowKey="n"
        onRow={(r) => ({ 'data-testid': `table-row-${r.item.key}` }) as React.HTMLAttributes<HTMLElement>}
        dataSource={rows}
        pagination={{ pageSize: 100 }}
        scroll={{ x: 1200 }}
        columns={[
          { title: t('designer.pages'), width: 100, render: (_, r) => pageName(r) },
          {
            title: t('designer.group'),
            width: 140,
            render: (_, r) =>
              r.path.length ? (
                <span data-testid={`table-group-${r.item.key}`}>
                  {r.path.map((g, i) => (
                    <Tag key={g.key ?? i} bordered={false} color="blue">
                      {g.title || g.key}
                    </Tag>
                  ))}
                </span>
              ) : (
                <span style={{ color: '#bbb' }}>—</span>
              ),
          },
          {
            title: t('designer.moveTo'),
            width: 230,
            render: (_, r) => {
              const at = locateItem(form, r.item.key);
              if (!at) return null;
              const last = elementsAt(form, at.page, at.container).length - 1;
              const here = targets.findIndex((g) => g.page === at.page && g.container === at.container);
              return (
                <Space.Compact size="small">
                  <Select
                    size="small"
                    style={{ width: 160 }}
                    data-testid={`table-move-${r.item.key}`}
                    aria-label={`${t('designer.moveTo')} ${r.item.key}`}
                    title={t('designer.moveToHint')}
                    value={here}
                    options={targetOptions}
                    popupMatchSelectWidth={false}
                    onChange={(v: number) => {
                      const g = targets[v];
                      if (g) setForm(moveItemTo(form, r.item.key, g.page, g.container));
                    }}
                  />
                  <Button
                    size="small"
                    data-testid={`table-up-${r.item.key}`}
                    aria-label={`${t('designer.moveUp')} ${r.item.key}`}
                    title={t('designer.moveUp')}
                    disabled={at.index === 0}
                    onClick={() => setForm(shiftElement(form, at.page, at, -1))}
                  >
                    ↑
                  </Button>
                  <Button
                    size="small"
                    data-testid={`table-down-${r.item.key}`}
                    aria-label={`${t('designer.moveDown')} ${r.item.key}`}
                    title={t('designer.moveDown')}
                    disabled={at.index >= last}
                    onClick={() => setForm(shiftElement(form, at.page, at, 1))}
                  >
                    ↓
                  </Button>
                </Space.Compact>
              );
            },
          },
          {
            title: t('designer.key'),
            width: 120,
            render: (_, r) => {
              const i = r.item;
              return (
                <Input size="small" value={i.key} onChange={(e) => edit(i.key, { key: e.target.value }, i)} />
              );
            },
          },
          {
            title: t('designer.itemTitle'),
            width: 220,
            render: (_, r) => {
              const i = r.item;
              return (
                <Input
                  size="small"
                  data-testid={`table-title-${i.key}`}
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
              const i = r.item;
              return (
                <Select
                  size="small"
                  style={{ width: 130 }}
                  value={i.type}
                  options={ITEM_TYPES.map((v) => ({ value: v, label: words.itemType(v) }))}
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
              const i = r.item;
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
            width: 200,
            render: (_, r) => {
              const i = r.item;
              if (!['radio', 'checkbox', 'score'].includes(i.type)) return null;
              return (
                <Input
                  key={optionsText(i)}
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
