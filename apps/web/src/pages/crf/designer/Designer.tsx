import {
  analyzeForm,
  type Form,
  type FormElement,
  type FormItem,
  ITEM_TYPES,
  parseForm,
  type ShowRule,
} from '@crdp/crf';
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
  Row,
  Select,
  Space,
  Spin,
  Tabs,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { currentLocale } from '../../../app/i18n';
import { CrfRenderer } from '../../../components/crf/CrfRenderer';
import { CRF_NS } from '../../../components/crf/i18n';
import { LinkButton } from '../../../components/crf/LinkButton';
import { crfApi } from '../api';
import { ConditionList, GroupProperties, ItemProperties } from './ItemProperties';
import {
  addElement,
  addPage,
  allItems,
  elementsAt,
  findContainer,
  isItem,
  itemCount,
  type Loc,
  moveElement,
  newGroup,
  parseFaultText,
  removeElement,
  replaceItem,
  shiftElement,
  updateContainer,
} from './model';
import { useDraft } from './useDraft';
import { useDesignerWords } from './words';

/** `hepatopathyPoc/edit?id=`: pages and items, properties, show rules, problems and a live preview. */
export default function Designer() {
  const { t } = useTranslation(CRF_NS);
  const words = useDesignerWords();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { formId, meta, form, setForm, edited, save: saveForm } = useDraft();
  const [page, setPage] = useState(0);
  const [selected, setSelected] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // The preview runs only a form the engine accepts; a fault is shown instead.
  const checked = useMemo(() => {
    if (!form) return null;
    try {
      const parsed = parseForm(form);
      return { form: parsed, problems: analyzeForm(parsed), error: null as string | null };
    } catch (e) {
      return { form: null, problems: [], error: parseFaultText(e, currentLocale()) };
    }
  }, [form]);

  if (!formId) return <Empty />;
  if (!form || !checked) return <Spin style={{ display: 'block', margin: 48 }} />;

  const selectedItem = selected ? allItems(form).find((i) => i.key === selected) : undefined;
  const selectedGroup = selected && !selectedItem ? findContainer(form, page, selected) : undefined;
  const groups = form.pages.flatMap((_, pi) => containersOf(form, pi));
  const faulty = new Set(checked.problems.flatMap((p) => [p.at, ...(p.keys ?? [])]));
  const choices = allItems(form).map((i) => ({ value: i.key, label: `${i.title ?? ''} (${i.key})` }));
  const targets = [
    ...form.pages.filter((p) => p.key).map((p) => ({ value: p.key!, label: `▣ ${p.title ?? p.key}` })),
    ...groups.map((g) => ({ value: g.key!, label: `▢ ${g.title ?? g.key}` })),
    ...choices,
  ];

  const save = async () => {
    setBusy(true);
    try {
      return await saveForm(form);
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
        <Button
          onClick={async () => {
            // Unsaved changes are saved first: the table editor opens the stored draft.
            if (edited && !(await save())) return;
            navigate(`/crf-management/hepatopathyPoc/editTable?id=${formId}`);
          }}
        >
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
            <Outline
              form={form}
              page={page}
              selected={selected}
              faulty={faulty}
              onSelect={setSelected}
              onChange={setForm}
            />
            <Space.Compact block style={{ marginTop: 8 }}>
              <AddItemButton
                testId="add-item"
                label={t('designer.addItem')}
                onPick={(type) => {
                  const item = words.newItem(form, type);
                  setForm(addElement(form, page, item));
                  setSelected(item.key);
                }}
              />
              <Button
                style={{ width: '50%' }}
                data-testid="add-group"
                onClick={() => {
                  const n = elementsAt(form, page, null).filter((e) => !isItem(e)).length + 1;
                  const group = newGroup(form, t('designer.groupTitle', { n }));
                  setForm(addElement(form, page, group));
                  setSelected(group.key ?? null);
                }}
              >
                {t('designer.addGroup')}
              </Button>
            </Space.Compact>
            <p style={{ color: '#999', marginTop: 8 }}>{t('designer.dragHint')}</p>
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card size="small" title={t('designer.properties')}>
            {selectedGroup ? (
              <GroupProperties
                key={selectedGroup.key}
                group={selectedGroup}
                onChange={(patch) => setForm(updateContainer(form, page, selectedGroup.key!, patch))}
              />
            ) : selectedItem ? (
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
                  form={form}
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
                      // Pages and groups are shown through selectPanel, items through selectItems.
                      const pageKeys = new Set([
                        ...form.pages.map((p) => p.key),
                        ...groups.map((g) => g.key),
                      ]);
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
                  {checked.problems.map((p, i) => {
                    const said = words.problem(form, p);
                    return (
                      // biome-ignore lint/suspicious/noArrayIndexKey: one place may have two problems of one code
                      <li key={`${p.code}-${p.at}-${i}`} data-testid="designer-problem">
                        {said.item ? (
                          <LinkButton onClick={() => setSelected(said.item!)}>{said.where}</LinkButton>
                        ) : (
                          said.where
                        )}
                        {t('problem.sep')}
                        {said.what}
                      </li>
                    );
                  })}
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

/** Containers of a page at any depth (show rules may show them as a whole). */
function containersOf(form: Form, page: number): FormElement[] {
  const out: FormElement[] = [];
  const walk = (container: string | null) => {
    for (const e of elementsAt(form, page, container))
      if (!isItem(e) && e.key) {
        out.push(e);
        walk(e.key);
      }
  };
  walk(null);
  return out;
}

function AddItemButton(props: {
  testId: string;
  label: string;
  size?: 'small';
  onPick: (type: FormItem['type']) => void;
}) {
  const words = useDesignerWords();
  return (
    <Dropdown
      menu={{
        items: ITEM_TYPES.map((type) => ({ key: type, label: words.itemType(type) })),
        onClick: ({ key }) => props.onPick(key as FormItem['type']),
      }}
    >
      <Button size={props.size} style={props.size ? undefined : { width: '50%' }} data-testid={props.testId}>
        {props.label}
      </Button>
    </Dropdown>
  );
}

const rowStyle = (active: boolean, over: boolean): React.CSSProperties => ({
  display: 'flex',
  alignItems: 'center',
  gap: 6,
  padding: '6px 8px',
  borderBottom: '1px solid #f0f0f0',
  borderTop: over ? '2px solid #1677ff' : '2px solid transparent',
  cursor: 'grab',
  background: active ? '#e6f4ff' : undefined,
});

/**
 * The page outline: items and groups in order, each group with its own items. Native drag and
 * drop: drop on a row to place the dragged element before it, on a group's foot (or its empty
 * body) to append to the group, on the page's foot to move it out to the end of the page.
 */
function Outline(props: {
  form: Form;
  page: number;
  selected: string | null;
  faulty: Set<string>;
  onSelect: (key: string | null) => void;
  onChange: (form: Form) => void;
}) {
  const { t } = useTranslation(CRF_NS);
  const words = useDesignerWords();
  const { modal } = App.useApp();
  const { form, page, selected, faulty, onSelect, onChange } = props;
  const [dragFrom, setDragFrom] = useState<Loc | null>(null);
  const [over, setOver] = useState<string | null>(null);

  const dragProps = (at: Loc) => ({
    draggable: true,
    onDragStart: (ev: React.DragEvent) => {
      ev.stopPropagation();
      ev.dataTransfer.effectAllowed = 'move';
      ev.dataTransfer.setData('text/plain', `${at.container ?? ''}:${at.index}`);
      setDragFrom(at);
    },
    onDragEnd: () => {
      setDragFrom(null);
      setOver(null);
    },
  });
  const dropProps = (to: Loc, id: string) => ({
    onDragOver: (ev: React.DragEvent) => {
      if (!dragFrom) return;
      ev.preventDefault();
      ev.stopPropagation();
      if (over !== id) setOver(id);
    },
    onDragLeave: () => setOver((o) => (o === id ? null : o)),
    onDrop: (ev: React.DragEvent) => {
      ev.preventDefault();
      ev.stopPropagation();
      if (dragFrom) onChange(moveElement(form, page, dragFrom, to));
      setDragFrom(null);
      setOver(null);
    },
  });
  const arrows = (at: Loc) => [
    <LinkButton
      key="up"
      title={t('designer.moveUp')}
      onClick={() => onChange(shiftElement(form, page, at, -1))}
    >
      ↑
    </LinkButton>,
    <LinkButton
      key="down"
      title={t('designer.moveDown')}
      onClick={() => onChange(shiftElement(form, page, at, 1))}
    >
      ↓
    </LinkButton>,
  ];

  const renderList = (container: string | null): React.ReactNode => {
    const list = elementsAt(form, page, container);
    const endId = `end:${container ?? ''}`;
    return (
      <div data-testid={container ? `group-items-${container}` : 'page-items'}>
        {list.map((e, i) => {
          const at = { container, index: i };
          const id = `${container ?? ''}:${i}`;
          if (isItem(e))
            return (
              // biome-ignore lint/a11y/useSemanticElements: a draggable outline row, not a form control
              <div
                key={e.key ?? i}
                role="button"
                tabIndex={0}
                data-testid={`outline-${e.key ?? i}`}
                style={rowStyle(e.key === selected, over === id)}
                onClick={() => onSelect(e.key)}
                onKeyDown={(ev) => ev.key === 'Enter' && onSelect(e.key)}
                {...dragProps(at)}
                {...dropProps(at, id)}
              >
                <Badge status={e.key && faulty.has(e.key) ? 'error' : 'default'} />
                <span style={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis' }}>
                  ⋮⋮ {e.title ?? e.key} <small style={{ color: '#999' }}>{words.itemType(e.type)}</small>
                </span>
                {arrows(at)}
                <LinkButton
                  title={t('designer.remove')}
                  onClick={(ev) => {
                    ev.stopPropagation();
                    onChange(removeElement(form, page, at));
                  }}
                >
                  ×
                </LinkButton>
              </div>
            );
          const key = e.key ?? '';
          return (
            <div
              key={key || i}
              data-testid={`outline-${key}`}
              style={{
                margin: '6px 0',
                border: `1px dashed ${key === selected ? '#1677ff' : '#d9d9d9'}`,
                borderRadius: 6,
                background: '#fafafa',
              }}
            >
              {/* biome-ignore lint/a11y/useSemanticElements: a draggable outline row, not a form control */}
              <div
                role="button"
                tabIndex={0}
                data-testid={`group-head-${key}`}
                style={{ ...rowStyle(key === selected, over === id), fontWeight: 500 }}
                onClick={() => onSelect(key)}
                onKeyDown={(ev) => ev.key === 'Enter' && onSelect(key)}
                {...dragProps(at)}
                {...dropProps(at, id)}
              >
                <span style={{ flex: 1, minWidth: 0 }}>
                  ⋮⋮ ▢ {e.title || key} <small style={{ color: '#999' }}>{t('designer.group')}</small>
                </span>
                {arrows(at)}
                <LinkButton
                  title={t('designer.remove')}
                  data-testid={`remove-group-${key}`}
                  onClick={(ev) => {
                    ev.stopPropagation();
                    modal.confirm({
                      title: t('designer.removeGroupConfirm', { title: e.title || key, count: itemCount(e) }),
                      okText: t('designer.removeGroupOk'),
                      okButtonProps: { danger: true },
                      cancelText: t('designer.cancel'),
                      onOk: () => {
                        onChange(removeElement(form, page, at));
                        if (selected === key) onSelect(null);
                      },
                    });
                  }}
                >
                  ×
                </LinkButton>
              </div>
              <div style={{ padding: '0 0 6px 16px' }}>
                {renderList(key)}
                <div style={{ paddingRight: 8 }}>
                  <AddItemButton
                    testId={`add-item-${key}`}
                    size="small"
                    label={`+ ${t('designer.addItemToGroup')}`}
                    onPick={(type) => {
                      const item = words.newItem(form, type);
                      onChange(addElement(form, page, item, key));
                      onSelect(item.key);
                    }}
                  />
                </div>
              </div>
            </div>
          );
        })}
        <div
          data-testid={container ? `group-end-${container}` : 'page-end'}
          {...dropProps({ container, index: list.length }, endId)}
          // Fixed sizes: a zone that grew when a drag starts would move the rows under the pointer.
          style={{
            height: container ? (list.length ? 10 : 36) : 26,
            lineHeight: container && !list.length ? '34px' : '24px',
            margin: '2px 8px 4px 0',
            paddingLeft: 8,
            border: `1px dashed ${
              over === endId ? '#1677ff' : (container && !list.length) || dragFrom ? '#d9d9d9' : 'transparent'
            }`,
            borderRadius: 4,
            color: '#999',
            fontSize: 12,
            overflow: 'hidden',
            background: over === endId ? '#e6f4ff' : undefined,
          }}
        >
          {container && !list.length
            ? t('designer.groupEmpty')
            : dragFrom && !container
              ? t('designer.dropEnd')
              : null}
        </div>
      </div>
    );
  };

  return renderList(null);
}
