import {
  COLLECTION_DATE_FORMATS,
  COLLECTION_SOURCE_KINDS,
  COLLECTION_TARGETS,
  COLLECTION_TRANSFORM_KINDS,
  type CollectionSource,
  type CollectionSourceProbe,
  type CollectionTarget,
  type CollectionTemplate,
  type CollectionTransform,
  FILE_SOURCE_KINDS,
} from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  AutoComplete,
  Button,
  Card,
  Checkbox,
  Drawer,
  Form,
  Input,
  InputNumber,
  Select,
  Space,
  Tabs,
  Tag,
  Timeline,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useLabel } from '../../../app/labels';
import { useHasAction } from '../../../components/Authorized';
import { DefinitionRowActions } from '../../../components/DefinitionsScreen';
import { saveOrShow } from '../../../components/form/server-errors';
import { collectionApi } from './api';
import { COLLECTION_NS } from './i18n';
import { CollectionFormModal, CollectionListTab, CollectionNameItem } from './parts';

/** CSV and FHIR sources read a folder on the server instead of a database. */
const isFileKind = (k: unknown) => (FILE_SOURCE_KINDS as readonly unknown[]).includes(k);

const MENU = 'DataLakeTaskConfig';
type Probe = CollectionSourceProbe['tables'];

/** 数据源: the hospital systems' databases (and HL7 listeners), with a connection test. */
function Sources() {
  const { t } = useTranslation(COLLECTION_NS);
  const word = useLabel();
  const { message } = App.useApp();
  const can = useHasAction();
  const list = useQuery({ queryKey: ['collection-sources'], queryFn: collectionApi.sources });
  const [editing, setEditing] = useState<CollectionSource | 'new' | null>(null);
  const [probe, setProbe] = useState<{ id: number; result?: CollectionSourceProbe; error?: string } | null>(
    null,
  );
  const [form] = Form.useForm();
  const existing = editing && editing !== 'new' ? editing : null;

  const test = async (s: CollectionSource) => {
    setProbe({ id: s.id });
    try {
      const result = await collectionApi.probe(s.id);
      setProbe({ id: s.id, result });
    } catch (e) {
      setProbe({ id: s.id, error: (e as Error).message });
    }
  };
  const save = async () => {
    const v = await form.validateFields();
    const config = {
      host: v.host ?? '',
      port: v.port ?? 0,
      database: v.database ?? '',
      user: v.user ?? '',
      ssl: !!v.ssl,
      listenPort: v.listenPort ?? 0,
      folder: v.folder?.trim() ?? '',
    };
    const saved = await saveOrShow(message, () =>
      existing
        ? collectionApi.editSource(existing.id, {
            name: v.name,
            config,
            ...(v.password ? { password: v.password } : {}),
          })
        : collectionApi.addSource({ name: v.name, kind: v.kind, config, password: v.password ?? '' }),
    );
    if (!saved) return;
    message.success(t('common.saved'));
    setEditing(null);
    await list.refetch();
  };

  return (
    <CollectionListTab<CollectionSource>
      addApiId={`${MENU}.add`}
      addText={t('config.addSource')}
      onAdd={() => {
        form.resetFields();
        form.setFieldsValue({ kind: 'postgresql', port: 5432 });
        setEditing('new');
      }}
      list={list}
      empty={t('config.noSources')}
      testId="collection-sources"
      columns={[
        { title: t('common.name'), dataIndex: 'name' },
        {
          title: t('config.kind'),
          dataIndex: 'kind',
          render: (k: string) => word('collectionSourceKind', k),
        },
        {
          title: `${t('config.host')} / ${t('config.database')}`,
          key: 'where',
          render: (_, s) =>
            s.kind === 'hl7'
              ? `:${s.config.listenPort}`
              : isFileKind(s.kind)
                ? t('config.folderShown', { folder: s.config.folder })
                : `${s.config.host}:${s.config.port || '—'} / ${s.config.database}`,
        },
        { title: t('config.user'), key: 'user', render: (_, s) => s.config.user || '—' },
        {
          title: t('config.password'),
          key: 'pw',
          render: (_, s) =>
            s.kind === 'hl7' || isFileKind(s.kind) ? (
              '—'
            ) : s.hasPassword ? (
              <Tag color="green">{t('config.passwordStored')}</Tag>
            ) : (
              <Tag>{t('config.passwordNone')}</Tag>
            ),
        },
        {
          title: t('common.state'),
          dataIndex: 'enabled',
          render: (v: boolean) => (
            <Tag color={v ? 'green' : 'default'}>{v ? t('common.enabled') : t('common.disabled')}</Tag>
          ),
        },
        {
          title: t('common.actions'),
          key: 'a',
          render: (_, s) => (
            <DefinitionRowActions
              menu={MENU}
              wrap
              before={
                s.kind !== 'hl7' &&
                can(MENU, 'get') && (
                  <Button
                    type="link"
                    size="small"
                    onClick={() => test(s)}
                    loading={probe?.id === s.id && !probe.result && !probe.error}
                  >
                    {t('config.probe')}
                  </Button>
                )
              }
              editText={t('common.edit')}
              onEdit={() => {
                form.resetFields();
                form.setFieldsValue({ name: s.name, kind: s.kind, ...s.config, password: '' });
                setEditing(s);
              }}
              name={s.name}
              onDelete={() => collectionApi.removeSource(s.id)}
              onDeleted={() => list.refetch()}
            />
          ),
        },
      ]}
    >
      {probe?.error && (
        <Alert
          type="error"
          showIcon
          closable
          message={probe.error}
          data-testid="probe-error"
          onClose={() => setProbe(null)}
        />
      )}
      {probe?.result && (
        <Alert
          type="success"
          showIcon
          closable
          onClose={() => setProbe(null)}
          data-testid="probe-ok"
          message={t('config.probeOk', { version: probe.result.version, count: probe.result.tables.length })}
          description={
            <Space wrap size={[4, 4]}>
              {probe.result.tables.slice(0, 40).map((x) => (
                <Tag key={x.name}>{x.name}</Tag>
              ))}
            </Space>
          }
        />
      )}
      <CollectionFormModal
        open={!!editing}
        title={existing ? t('config.editSource') : t('config.addSource')}
        onClose={() => setEditing(null)}
        onSave={save}
        form={form}
        formName="collectionSource"
        testId="source-form"
      >
        <Form.Item name="kind" label={t('config.kind')}>
          <Select
            disabled={!!existing}
            options={COLLECTION_SOURCE_KINDS.map((k) => ({
              value: k,
              label: word('collectionSourceKind', k),
            }))}
            onChange={(k) => form.setFieldValue('port', k === 'mysql' ? 3306 : k === 'postgresql' ? 5432 : 0)}
          />
        </Form.Item>
        <Form.Item noStyle dependencies={['kind']}>
          {({ getFieldValue }) =>
            isFileKind(getFieldValue('kind')) ? (
              <Form.Item
                name="folder"
                label={t('config.folder')}
                extra={t(getFieldValue('kind') === 'csv' ? 'config.folderCsv' : 'config.folderFhir')}
                rules={[
                  { required: true, whitespace: true, message: t('common.required') },
                  { pattern: /^(?!\/)(?!.*(^|\/)\.\.?(\/|$)).*$/, message: t('config.folderInside') },
                ]}
              >
                <Input style={{ width: 320 }} placeholder="his-export/2026" />
              </Form.Item>
            ) : getFieldValue('kind') === 'hl7' ? (
              <Form.Item
                name="listenPort"
                label={t('config.listenPort')}
                rules={[{ required: true, message: t('common.required') }]}
              >
                <InputNumber min={1} max={65535} />
              </Form.Item>
            ) : (
              <>
                <Space wrap align="start">
                  <Form.Item
                    name="host"
                    label={t('config.host')}
                    rules={[{ required: true, whitespace: true, message: t('common.required') }]}
                  >
                    <Input style={{ width: 220 }} placeholder="his-db.hospital.local" />
                  </Form.Item>
                  <Form.Item name="port" label={t('config.port')}>
                    <InputNumber min={0} max={65535} />
                  </Form.Item>
                </Space>
                <Space wrap align="start">
                  <Form.Item
                    name="database"
                    label={t('config.database')}
                    rules={[{ required: true, whitespace: true, message: t('common.required') }]}
                  >
                    <Input style={{ width: 180 }} />
                  </Form.Item>
                  <Form.Item
                    name="user"
                    label={t('config.user')}
                    rules={[{ required: true, whitespace: true, message: t('common.required') }]}
                  >
                    <Input style={{ width: 160 }} autoComplete="off" />
                  </Form.Item>
                </Space>
                <Form.Item
                  name="password"
                  label={t('config.password')}
                  extra={existing ? t('config.passwordKeep') : undefined}
                >
                  <Input.Password autoComplete="new-password" />
                </Form.Item>
                <Form.Item name="ssl" valuePropName="checked">
                  <Checkbox>{t('config.ssl')}</Checkbox>
                </Form.Item>
              </>
            )
          }
        </Form.Item>
      </CollectionFormModal>
    </CollectionListTab>
  );
}

type TransformForm = {
  kind: CollectionTransform['kind'];
  value?: string;
  pairs?: string;
  dictionary?: string;
  to?: string;
  format?: string;
  factor?: number;
};
type FieldForm = { field: string; column?: string; transforms?: TransformForm[] };

const toTransform = (x: TransformForm): CollectionTransform => {
  switch (x.kind) {
    case 'trim':
      return { kind: 'trim' };
    case 'constant':
      return { kind: 'constant', value: x.value ?? '' };
    case 'map':
      return {
        kind: 'map',
        pairs: (x.pairs ?? '')
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean)
          .map((l) => {
            const [from = '', ...rest] = l.split('=');
            return { from: from.trim(), to: rest.join('=').trim() };
          }),
      };
    case 'lookup':
      return {
        kind: 'lookup',
        dictionary: x.dictionary ?? '',
        to: (x.to ?? 'standardCode') as 'standardCode' | 'name',
      };
    case 'date':
      return { kind: 'date', format: (x.format ?? 'iso') as (typeof COLLECTION_DATE_FORMATS)[number] };
    case 'unit':
      return { kind: 'unit', factor: Number(x.factor ?? 1) };
  }
};
const fromTransform = (x: CollectionTransform): TransformForm => {
  switch (x.kind) {
    case 'map':
      return { kind: 'map', pairs: x.pairs.map((p) => `${p.from}=${p.to}`).join('\n') };
    case 'constant':
      return { kind: 'constant', value: x.value };
    case 'lookup':
      return { kind: 'lookup', dictionary: x.dictionary, to: x.to };
    case 'date':
      return { kind: 'date', format: x.format };
    case 'unit':
      return { kind: 'unit', factor: x.factor };
    default:
      return { kind: x.kind };
  }
};

/** The template editor: source, target, table and keys, then one row per CDR field. */
function TemplateEditor({
  editing,
  onClose,
  onSaved,
}: {
  editing: CollectionTemplate | 'new' | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation(COLLECTION_NS);
  const word = useLabel();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const existing = editing && editing !== 'new' ? editing : null;
  const sources = useQuery({
    queryKey: ['collection-sources'],
    queryFn: collectionApi.sources,
    enabled: !!editing,
  });
  const targets = useQuery({
    queryKey: ['collection-targets'],
    queryFn: collectionApi.targets,
    enabled: !!editing,
  });
  const [probe, setProbe] = useState<{ tables?: Probe; error?: string }>({});
  const sourceId = Form.useWatch('sourceId', form) as number | undefined;
  const target = Form.useWatch('target', form) as CollectionTarget | undefined;
  const table = Form.useWatch('table', form) as string | undefined;

  const loadProbe = async (id: number | undefined) => {
    setProbe({});
    if (!id || sources.data?.items.find((s) => s.id === id)?.kind === 'hl7') return;
    try {
      setProbe({ tables: (await collectionApi.probe(id)).tables });
    } catch (e) {
      setProbe({ error: (e as Error).message });
    }
  };
  const columns = (probe.tables?.find((x) => x.name === table)?.columns ?? []).map((c) => ({
    value: c.name,
    label: `${c.name} (${c.type})`,
  }));
  const fieldsOf = targets.data?.items.find((x) => x.target === target)?.fields ?? [];
  const fieldWord = (f: string) => word('cdrField', f);

  // Filled when the drawer opens (not after its animation, which would wipe what was typed meanwhile).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per opening
  useEffect(() => {
    if (!editing) return;
    form.resetFields();
    if (existing) {
      form.setFieldsValue({
        name: existing.name,
        sourceId: existing.sourceId,
        target: existing.target,
        ...existing.spec,
        fields: existing.spec.fields.map((f) => ({ ...f, transforms: f.transforms.map(fromTransform) })),
      });
      void loadProbe(existing.sourceId);
    } else
      form.setFieldsValue({
        target: 'patients',
        patientBy: 'sourceId',
        fields: [{ field: 'mrn' }, { field: 'name' }, { field: 'gender' }],
      });
  }, [editing]);

  const save = async () => {
    const v = await form.validateFields();
    const spec = {
      table: v.table,
      keyColumn: v.keyColumn,
      watermarkColumn: v.watermarkColumn ?? '',
      patientColumn: v.patientColumn ?? '',
      patientBy: v.patientBy ?? 'sourceId',
      visitColumn: v.visitColumn ?? '',
      fields: (v.fields as FieldForm[]).map((f) => ({
        field: f.field,
        column: f.column ?? '',
        transforms: (f.transforms ?? []).map(toTransform),
      })),
    };
    const saved = await saveOrShow(message, () =>
      existing
        ? collectionApi.editTemplate(existing.id, { name: v.name, spec })
        : collectionApi.addTemplate({ name: v.name, sourceId: v.sourceId, target: v.target, spec }),
    );
    if (!saved) return;
    message.success(t('common.saved'));
    onSaved();
  };

  const colInput = (placeholder?: string) =>
    columns.length ? (
      <AutoComplete
        options={columns}
        placeholder={placeholder}
        allowClear
        filterOption
        style={{ minWidth: 160 }}
      />
    ) : (
      <Input placeholder={placeholder} style={{ minWidth: 160 }} />
    );

  return (
    <Drawer
      open={!!editing}
      width={Math.min(960, window.innerWidth)}
      title={existing ? t('config.editTemplate') : t('config.addTemplate')}
      onClose={onClose}
      forceRender
      extra={
        <Button type="primary" onClick={save} data-testid="template-save">
          {t('common.save')}
        </Button>
      }
    >
      <Form form={form} name="collectionTemplate" layout="vertical" data-testid="template-form">
        <Space wrap align="start">
          <CollectionNameItem width={220} />
          <Form.Item
            name="sourceId"
            label={t('config.source')}
            rules={[{ required: true, message: t('common.required') }]}
          >
            <Select
              style={{ width: 200 }}
              disabled={!!existing}
              loading={sources.isLoading}
              options={(sources.data?.items ?? [])
                .filter((s) => s.kind !== 'hl7')
                .map((s) => ({ value: s.id, label: s.name }))}
              onChange={(id) => loadProbe(id)}
            />
          </Form.Item>
          <Form.Item
            name="target"
            label={t('config.target')}
            rules={[{ required: true, message: t('common.required') }]}
          >
            <Select
              style={{ width: 160 }}
              disabled={!!existing}
              options={COLLECTION_TARGETS.map((x) => ({ value: x, label: word('cdrTable', x) }))}
            />
          </Form.Item>
        </Space>
        {sources.isError && <Alert type="error" showIcon message={sources.error.message} />}
        {probe.error && (
          <Alert
            type="error"
            showIcon
            message={probe.error}
            style={{ marginBottom: 12 }}
            data-testid="editor-probe-error"
          />
        )}
        {!sourceId && (
          <Typography.Paragraph type="secondary">{t('config.pickSourceFirst')}</Typography.Paragraph>
        )}
        <Space wrap align="start">
          <Form.Item
            name="table"
            label={t('config.table')}
            rules={[{ required: true, message: t('common.required') }]}
          >
            {probe.tables ? (
              <Select
                showSearch
                style={{ width: 240 }}
                options={probe.tables.map((x) => ({ value: x.name, label: x.name }))}
              />
            ) : (
              <Input style={{ width: 240 }} placeholder="his.lab_result" />
            )}
          </Form.Item>
          <Form.Item
            name="keyColumn"
            label={t('config.keyColumn')}
            tooltip={t('config.keyHint')}
            rules={[{ required: true, message: t('common.required') }]}
          >
            {colInput()}
          </Form.Item>
          <Form.Item
            name="watermarkColumn"
            label={t('config.watermarkColumn')}
            tooltip={t('config.watermarkHint')}
          >
            {colInput()}
          </Form.Item>
        </Space>
        {target && target !== 'patients' && (
          <Space wrap align="start">
            <Form.Item
              name="patientColumn"
              label={t('config.patientColumn')}
              rules={[{ required: true, message: t('common.required') }]}
            >
              {colInput()}
            </Form.Item>
            <Form.Item name="patientBy" label={t('config.patientBy')}>
              <Select
                style={{ width: 220 }}
                options={[
                  { value: 'sourceId', label: t('config.patientBySourceId') },
                  { value: 'mrn', label: t('config.patientByMrn') },
                ]}
              />
            </Form.Item>
            {target !== 'visits' && (
              <Form.Item name="visitColumn" label={t('config.visitColumn')}>
                {colInput()}
              </Form.Item>
            )}
          </Space>
        )}
        <Typography.Title level={5}>{t('config.fields')}</Typography.Title>
        {!!fieldsOf.length && (
          <Typography.Paragraph type="secondary">
            {t('config.mappedRequired', {
              fields: fieldsOf
                .filter((f) => f.required)
                .map((f) => fieldWord(f.name))
                .join('、'),
            })}
          </Typography.Paragraph>
        )}
        <Form.List name="fields">
          {(rows, { add, remove }) => (
            <Space direction="vertical" style={{ width: '100%' }}>
              {rows.map((r) => (
                <Card key={r.key} size="small" data-testid="field-row">
                  <Space wrap align="start">
                    <Form.Item
                      name={[r.name, 'field']}
                      label={t('common.field')}
                      rules={[{ required: true, message: t('common.required') }]}
                    >
                      <Select
                        style={{ width: 180 }}
                        showSearch
                        optionFilterProp="label"
                        options={fieldsOf.map((f) => ({
                          value: f.name,
                          label: `${fieldWord(f.name)} (${f.name})${f.required ? ' *' : ''}`,
                        }))}
                      />
                    </Form.Item>
                    <Form.Item name={[r.name, 'column']} label={t('config.column')}>
                      {colInput()}
                    </Form.Item>
                    <Button type="link" danger onClick={() => remove(r.name)} style={{ marginTop: 30 }}>
                      {t('common.delete')}
                    </Button>
                  </Space>
                  <Form.List name={[r.name, 'transforms']}>
                    {(ts, tOps) => (
                      <Space direction="vertical" style={{ width: '100%' }} size={0}>
                        {ts.map((x) => (
                          <Space key={x.key} wrap align="start">
                            <Form.Item name={[x.name, 'kind']} label={t('config.transforms')}>
                              <Select
                                style={{ width: 150 }}
                                options={COLLECTION_TRANSFORM_KINDS.map((k) => ({
                                  value: k,
                                  label: word('collectionTransform', k),
                                }))}
                              />
                            </Form.Item>
                            <Form.Item
                              noStyle
                              dependencies={[['fields', r.name, 'transforms', x.name, 'kind']]}
                            >
                              {({ getFieldValue }) => {
                                const kind = getFieldValue(['fields', r.name, 'transforms', x.name, 'kind']);
                                if (kind === 'constant')
                                  return (
                                    <Form.Item name={[x.name, 'value']} label={t('config.value')}>
                                      <Input style={{ width: 160 }} />
                                    </Form.Item>
                                  );
                                if (kind === 'map')
                                  return (
                                    <Form.Item name={[x.name, 'pairs']} label={t('config.pairs')}>
                                      <Input.TextArea
                                        rows={2}
                                        style={{ width: 260 }}
                                        placeholder={'M=1\nF=2'}
                                      />
                                    </Form.Item>
                                  );
                                if (kind === 'lookup')
                                  return (
                                    <Space align="start">
                                      <Form.Item
                                        name={[x.name, 'dictionary']}
                                        label={t('config.dictionary')}
                                        rules={[{ required: true, message: t('common.required') }]}
                                      >
                                        <Input style={{ width: 140 }} />
                                      </Form.Item>
                                      <Form.Item
                                        name={[x.name, 'to']}
                                        label={t('config.lookupTo')}
                                        initialValue="standardCode"
                                      >
                                        <Select
                                          style={{ width: 120 }}
                                          options={[
                                            { value: 'standardCode', label: t('config.standardCode') },
                                            { value: 'name', label: t('config.dictName') },
                                          ]}
                                        />
                                      </Form.Item>
                                    </Space>
                                  );
                                if (kind === 'date')
                                  return (
                                    <Form.Item
                                      name={[x.name, 'format']}
                                      label={t('config.format')}
                                      initialValue="iso"
                                    >
                                      <Select
                                        style={{ width: 200 }}
                                        options={COLLECTION_DATE_FORMATS.map((f) => ({
                                          value: f,
                                          label: f === 'iso' ? 'ISO 8601' : f,
                                        }))}
                                      />
                                    </Form.Item>
                                  );
                                if (kind === 'unit')
                                  return (
                                    <Form.Item
                                      name={[x.name, 'factor']}
                                      label={t('config.factor')}
                                      rules={[{ required: true, message: t('common.required') }]}
                                    >
                                      <InputNumber min={0.000001} style={{ width: 120 }} />
                                    </Form.Item>
                                  );
                                return null;
                              }}
                            </Form.Item>
                            <Button
                              type="link"
                              danger
                              onClick={() => tOps.remove(x.name)}
                              style={{ marginTop: 30 }}
                            >
                              ×
                            </Button>
                          </Space>
                        ))}
                        <Button type="dashed" size="small" onClick={() => tOps.add({ kind: 'trim' })}>
                          {t('config.addTransform')}
                        </Button>
                      </Space>
                    )}
                  </Form.List>
                </Card>
              ))}
              <Button type="dashed" onClick={() => add({})} data-testid="add-field">
                {t('config.addField')}
              </Button>
            </Space>
          )}
        </Form.List>
      </Form>
    </Drawer>
  );
}

/** 采集模板: the templates, with their versions, unit and selection tests. */
function Templates() {
  const { t } = useTranslation(COLLECTION_NS);
  const word = useLabel();
  const can = useHasAction();
  const list = useQuery({ queryKey: ['collection-templates'], queryFn: collectionApi.templates });
  const [editing, setEditing] = useState<CollectionTemplate | 'new' | null>(null);
  const [versionsOf, setVersionsOf] = useState<CollectionTemplate | null>(null);
  const versions = useQuery({
    queryKey: ['collection-template-versions', versionsOf?.id],
    queryFn: () => collectionApi.versions(versionsOf!.id),
    enabled: !!versionsOf,
  });
  return (
    <CollectionListTab<CollectionTemplate>
      addApiId={`${MENU}.add`}
      addText={t('config.addTemplate')}
      addTestId="add-template"
      onAdd={() => setEditing('new')}
      list={list}
      empty={t('config.noTemplates')}
      testId="collection-templates"
      columns={[
        { title: t('common.name'), dataIndex: 'name' },
        { title: t('config.source'), dataIndex: 'sourceName' },
        {
          title: t('config.table'),
          key: 'table',
          render: (_, x) => <Typography.Text code>{x.spec.table}</Typography.Text>,
        },
        { title: t('config.target'), dataIndex: 'target', render: (v: string) => word('cdrTable', v) },
        { title: t('config.fields'), key: 'n', render: (_, x) => x.spec.fields.length },
        { title: t('config.watermarkColumn'), key: 'w', render: (_, x) => x.spec.watermarkColumn || '—' },
        {
          title: t('config.version'),
          dataIndex: 'version',
          render: (v: number, x) => (
            <Button type="link" size="small" onClick={() => setVersionsOf(x)}>
              v{v}
            </Button>
          ),
        },
        {
          title: t('common.actions'),
          key: 'a',
          render: (_, x) => (
            <DefinitionRowActions
              menu={MENU}
              wrap
              before={
                <>
                  {can('DataLakeUnitTest', 'query') && (
                    <Link to={`/data-lake/unit-test?templateId=${x.id}`}>
                      <Button type="link" size="small">
                        {t('config.unitTest')}
                      </Button>
                    </Link>
                  )}
                  {can('DataLakeChosseTest', 'query') && (
                    <Link to={`/data-lake/chosse-test?templateId=${x.id}`}>
                      <Button type="link" size="small">
                        {t('config.chooseTest')}
                      </Button>
                    </Link>
                  )}
                </>
              }
              editText={t('common.edit')}
              onEdit={() => setEditing(x)}
              name={x.name}
              onDelete={() => collectionApi.removeTemplate(x.id)}
              onDeleted={() => list.refetch()}
            />
          ),
        },
      ]}
    >
      <TemplateEditor
        editing={editing}
        onClose={() => setEditing(null)}
        onSaved={async () => {
          setEditing(null);
          await list.refetch();
        }}
      />
      <Drawer
        open={!!versionsOf}
        onClose={() => setVersionsOf(null)}
        title={`${t('config.versions')} · ${versionsOf?.name ?? ''}`}
        width={480}
      >
        {versions.isError ? (
          <Alert type="error" showIcon message={versions.error.message} />
        ) : (
          <Timeline
            items={(versions.data?.items ?? []).map((v) => ({
              children: (
                <Space direction="vertical" size={0}>
                  <Typography.Text strong>v{v.version}</Typography.Text>
                  <Typography.Text type="secondary">
                    {t('config.versionBy', {
                      at: dayjs(v.changedAt).format('YYYY-MM-DD HH:mm'),
                      by: v.changedBy || '—',
                    })}
                  </Typography.Text>
                  <Typography.Text>{t('config.fieldCount', { count: v.spec.fields.length })}</Typography.Text>
                </Space>
              ),
            }))}
          />
        )}
      </Drawer>
    </CollectionListTab>
  );
}

/** 采集模板 (`/data-lake/task-config`): the sources and the templates that map them onto the CDR. */
export default function TaskConfig() {
  const { t } = useTranslation(COLLECTION_NS);
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'sources' ? 'sources' : 'templates';
  return (
    <Card title={t('config.title')} data-testid="task-config">
      <Typography.Paragraph type="secondary">{t('config.hint')}</Typography.Paragraph>
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams({ tab: k })}
        items={[
          { key: 'templates', label: t('config.templates'), children: <Templates /> },
          { key: 'sources', label: t('config.sources'), children: <Sources /> },
        ]}
      />
    </Card>
  );
}
