import { analyzeForm, type Form, type FormItem, ITEM_TYPES, parseForm, type ShowRule } from '@crdp/crf';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Badge,
  Button,
  Card,
  Col,
  Dropdown,
  Empty,
  Input,
  List,
  Row,
  Select,
  Space,
  Spin,
  Tabs,
} from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { CrfRenderer } from '../../../components/crf/CrfRenderer';
import { CRF_NS } from '../../../components/crf/i18n';
import { LinkButton } from '../../../components/crf/LinkButton';
import { crfApi, fieldOf } from '../api';
import { ConditionList, ItemProperties } from './ItemProperties';
import {
  addItem,
  addPage,
  allItems,
  isItem,
  moveItem,
  newItem,
  pageItems,
  removeItem,
  replaceItem,
} from './model';

/** `hepatopathyPoc/edit?id=`: pages and items, properties, show rules, problems and a live preview. */
export default function Designer() {
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
  const [page, setPage] = useState(0);
  const [selected, setSelected] = useState<string | null>(null);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (meta.data?.draft && !form) setForm(meta.data.draft);
  }, [meta.data, form]);

  // The preview runs only a form the engine accepts; a fault is shown instead.
  const checked = useMemo(() => {
    if (!form) return null;
    try {
      const parsed = parseForm(form);
      return { form: parsed, problems: analyzeForm(parsed), error: null as string | null };
    } catch (e) {
      return { form: null, problems: [], error: e instanceof Error ? e.message : String(e) };
    }
  }, [form]);

  if (!formId) return <Empty />;
  if (!form || !checked) return <Spin style={{ display: 'block', margin: 48 }} />;

  const items = pageItems(form, page);
  const selectedItem = selected ? allItems(form).find((i) => i.key === selected) : undefined;
  const faulty = new Set(checked.problems.flatMap((p) => [p.at, ...(p.keys ?? [])]));
  const choices = allItems(form).map((i) => ({ value: i.key, label: `${i.title ?? ''} (${i.key})` }));
  const targets = [
    ...form.pages.filter((p) => p.key).map((p) => ({ value: p.key!, label: `▣ ${p.title ?? p.key}` })),
    ...choices,
  ];

  const save = async () => {
    setBusy(true);
    try {
      await crfApi.saveDraft(formId, form);
      message.success(t('list.saved'));
      return true;
    } catch (e) {
      message.error(`${e instanceof Error ? e.message : String(e)} ${fieldOf(e) ?? ''}`);
      return false;
    } finally {
      setBusy(false);
    }
  };
  const publish = async () => {
    if (!(await save())) return;
    setBusy(true);
    try {
      const v = await crfApi.publish(formId, '');
      message.success(t('designer.published', { version: v.version }));
      await meta.refetch();
    } catch (e) {
      message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const setRules = (rules: ShowRule[]) => setForm({ ...form, showRules: rules });

  return (
    <div className="crf-designer">
      <Space style={{ marginBottom: 12 }} wrap>
        <strong>{t('designer.title', { name: meta.data?.name ?? '' })}</strong>
        <Button onClick={save} loading={busy}>
          {t('designer.save')}
        </Button>
        <Button
          type="primary"
          onClick={publish}
          loading={busy}
          disabled={checked.problems.length > 0 || !!checked.error}
        >
          {t('designer.publish')}
        </Button>
        <Button onClick={() => navigate(`/crf-management/hepatopathyPoc/editTable?id=${formId}`)}>
          {t('designer.tableMode')}
        </Button>
        {meta.data && meta.data.latestVersion > 0 && <span>v{meta.data.latestVersion}</span>}
      </Space>
      <Row gutter={12}>
        <Col xs={24} lg={7}>
          <Card size="small" title={t('designer.pages')}>
            <Tabs
              size="small"
              activeKey={String(page)}
              onChange={(k) => setPage(Number(k))}
              items={form.pages.map((p, i) => ({
                key: String(i),
                label: p.title || t('designer.page', { n: i + 1 }),
              }))}
              tabBarExtraContent={
                <LinkButton
                  onClick={() => setForm(addPage(form, t('designer.page', { n: form.pages.length + 1 })))}
                >
                  +
                </LinkButton>
              }
            />
            <Input
              size="small"
              style={{ marginBottom: 8 }}
              value={form.pages[page]?.title ?? ''}
              onChange={(e) => {
                const pages = [...form.pages];
                pages[page] = { ...pages[page], title: e.target.value };
                setForm({ ...form, pages });
              }}
            />
            <List
              size="small"
              dataSource={items.map((e, i) => ({ e, i }))}
              renderItem={({ e, i }) => (
                <List.Item
                  draggable
                  onDragStart={() => setDragFrom(i)}
                  onDragOver={(ev) => ev.preventDefault()}
                  onDrop={() => {
                    if (dragFrom !== null) setForm(moveItem(form, page, dragFrom, i));
                    setDragFrom(null);
                  }}
                  style={{
                    cursor: 'grab',
                    background: isItem(e) && e.key === selected ? '#e6f4ff' : undefined,
                  }}
                  onClick={() => isItem(e) && setSelected(e.key)}
                  data-testid={`outline-${e.key ?? i}`}
                  actions={[
                    <LinkButton
                      key="up"
                      title={t('designer.moveUp')}
                      onClick={() => setForm(moveItem(form, page, i, i - 1))}
                    >
                      ↑
                    </LinkButton>,
                    <LinkButton
                      key="down"
                      title={t('designer.moveDown')}
                      onClick={() => setForm(moveItem(form, page, i, i + 1))}
                    >
                      ↓
                    </LinkButton>,
                    <LinkButton
                      key="rm"
                      title={t('designer.remove')}
                      onClick={() => setForm(removeItem(form, page, i))}
                    >
                      ×
                    </LinkButton>,
                  ]}
                >
                  <Badge status={e.key && faulty.has(e.key) ? 'error' : 'default'} />
                  <span style={{ marginLeft: 6 }}>
                    ⋮⋮ {e.title ?? e.key}{' '}
                    <small style={{ color: '#999' }}>{isItem(e) ? e.type : 'group'}</small>
                  </span>
                </List.Item>
              )}
            />
            <Dropdown
              menu={{
                items: ITEM_TYPES.map((type) => ({ key: type, label: type })),
                onClick: ({ key }) => {
                  const item = newItem(form, key as FormItem['type'], `${key}`);
                  setForm(addItem(form, page, item));
                  setSelected(item.key);
                },
              }}
            >
              <Button block style={{ marginTop: 8 }} data-testid="add-item">
                {t('designer.addItem')}
              </Button>
            </Dropdown>
            <p style={{ color: '#999', marginTop: 8 }}>{t('designer.dragHint')}</p>
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card size="small" title={t('designer.properties')}>
            {selectedItem ? (
              <ItemProperties
                key={selectedItem.key}
                form={form}
                item={selectedItem}
                onChange={(next) => {
                  setForm(replaceItem(form, selectedItem.key, next));
                  if (next.key !== selectedItem.key) setSelected(next.key);
                }}
              />
            ) : (
              <Empty description={t('designer.noSelection')} />
            )}
          </Card>
          <Card size="small" title={t('designer.showRules')} style={{ marginTop: 12 }}>
            {(form.showRules ?? []).map((r, i) => (
              <div
                // biome-ignore lint/suspicious/noArrayIndexKey: rules have no identity of their own
                key={i}
                style={{ borderBottom: '1px solid #f0f0f0', paddingBottom: 6, marginBottom: 6 }}
                data-testid={`rule-${i}`}
              >
                <ConditionList
                  items={choices}
                  conditions={[
                    {
                      indicatorName: r.indicatorName ?? '',
                      condition: r.condition,
                      indicatorVal: r.indicatorVal,
                    },
                  ]}
                  onChange={(c) => {
                    const rules = [...(form.showRules ?? [])];
                    if (!c.length) rules.splice(i, 1);
                    else rules[i] = { ...r, ...c[0]! };
                    setRules(rules);
                  }}
                />
                <Space style={{ marginTop: 4 }}>
                  {t('designer.ruleShow')}
                  <Select
                    mode="multiple"
                    style={{ minWidth: 220 }}
                    value={[r.selectItems ?? [], r.selectPanel ?? []].flat()}
                    options={targets}
                    onChange={(keys: string[]) => {
                      const pageKeys = new Set(form.pages.map((p) => p.key));
                      const rules = [...(form.showRules ?? [])];
                      rules[i] = {
                        ...r,
                        selectItems: keys.filter((k) => !pageKeys.has(k)),
                        selectPanel: keys.filter((k) => pageKeys.has(k)),
                      };
                      setRules(rules);
                    }}
                  />
                </Space>
              </div>
            ))}
            <Button
              size="small"
              data-testid="add-rule"
              onClick={() =>
                setRules([
                  ...(form.showRules ?? []),
                  { indicatorName: '', condition: 'equals', indicatorVal: '', selectItems: [] },
                ])
              }
            >
              {t('designer.addRule')}
            </Button>
          </Card>
        </Col>
        <Col xs={24} lg={9}>
          {checked.error ? (
            <Alert type="error" message={checked.error} style={{ marginBottom: 12 }} />
          ) : checked.problems.length ? (
            <Alert
              type="warning"
              style={{ marginBottom: 12 }}
              message={t('designer.problems')}
              description={
                <ul style={{ margin: 0, paddingLeft: 18 }}>
                  {checked.problems.map((p) => (
                    <li key={`${p.code}-${p.at}`}>
                      <LinkButton onClick={() => setSelected(p.at)}>{p.at}</LinkButton>: {p.message}
                    </li>
                  ))}
                </ul>
              }
            />
          ) : (
            <Alert type="success" message={t('designer.noProblems')} style={{ marginBottom: 12 }} />
          )}
          <Card size="small" title={t('designer.preview')}>
            {checked.form && <CrfRenderer form={checked.form} />}
          </Card>
        </Col>
      </Row>
    </div>
  );
}
