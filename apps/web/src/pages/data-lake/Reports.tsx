import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  cdrFieldLabelKey,
  REPORT_COLUMN_FAMILIES,
  REPORT_DESCRIPTION_MAX,
  REPORT_NAME_MAX,
  REPORT_OPS_BY_KIND,
  REPORT_SOURCES,
  type Report,
  type ReportDefinitionBody,
  type ReportFieldKind,
  type ReportOp,
  type ReportParamType,
  type ReportResult,
  type ReportSource,
  type ReportValue,
  reportFieldKind,
  reportFieldsOf,
  valueTypeOf,
} from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  DatePicker,
  Drawer,
  Empty,
  Form,
  Input,
  InputNumber,
  Radio,
  Select,
  Space,
  Spin,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../app/i18n';
import { useLabel } from '../../app/labels';
import { useSession } from '../../app/session';
import { textRule } from '../../app/text-rule';
import { Authorized, useHasAction } from '../../components/Authorized';
import {
  ConditionBuilder,
  completeCriteria,
  type DraftCriteria,
  emptyDraft,
} from '../../components/cohort/ConditionBuilder';
import { DeleteLink } from '../../components/DeleteLink';
import { saveOrShow } from '../../components/form/server-errors';
import { QueryTable } from '../../components/table/QueryTable';
import { reportApi } from './reports-api';
import { REPORTS_NS } from './reports-i18n';

const MENU = 'DataLakeSouthWest';
const DAY = 'YYYY-MM-DD';

/** A column's heading in words: 诊断 · ICD-10 编码. */
function useHeading() {
  const { t } = useTranslation(REPORTS_NS);
  const word = useLabel();
  return (ref: string) => {
    const [table = '', field = ''] = ref.split('.');
    const f = ref === 'patients.age' ? t('reports.age') : word('cdrField', cdrFieldLabelKey(table, field));
    return `${word('cdrTable', table)} · ${f}`;
  };
}

/** An input for one value of a type (a filter's fixed value, a parameter at run time). */
function ValueInput({
  type,
  kind,
  value,
  onChange,
  label,
}: {
  type: ReportParamType;
  kind?: ReportFieldKind | null;
  value: ReportValue | undefined;
  onChange: (v: ReportValue | undefined) => void;
  label: string;
}) {
  const { t } = useTranslation(REPORTS_NS);
  const word = useLabel();
  if (kind === 'gender')
    return (
      <Select
        aria-label={label}
        style={{ width: 140 }}
        allowClear
        value={typeof value === 'number' ? value : undefined}
        onChange={(v) => onChange(v ?? undefined)}
        options={[1, 2, 0, 3].map((g) => ({ value: g, label: word('gender', g) }))}
      />
    );
  if (type === 'number')
    return (
      <InputNumber
        aria-label={label}
        style={{ width: 160 }}
        value={typeof value === 'number' ? value : null}
        onChange={(v) => onChange(typeof v === 'number' ? v : undefined)}
      />
    );
  if (type === 'date')
    return (
      <DatePicker
        aria-label={label}
        value={typeof value === 'string' && value ? dayjs(value) : null}
        onChange={(d: Dayjs | null) => onChange(d ? d.format(DAY) : undefined)}
      />
    );
  if (type === 'dateRange') {
    const r = typeof value === 'object' ? value : {};
    return (
      <DatePicker.RangePicker
        aria-label={label}
        allowEmpty={[true, true]}
        placeholder={[t('reports.from'), t('reports.to')]}
        value={[r.from ? dayjs(r.from) : null, r.to ? dayjs(r.to) : null]}
        onChange={(v: [Dayjs | null, Dayjs | null] | null) => {
          const from = v?.[0]?.format(DAY);
          const to = v?.[1]?.format(DAY);
          onChange(from || to ? { ...(from ? { from } : {}), ...(to ? { to } : {}) } : undefined);
        }}
      />
    );
  }
  return (
    <Input
      aria-label={label}
      style={{ width: 200 }}
      value={typeof value === 'string' ? value : ''}
      onChange={(e) => onChange(e.target.value || undefined)}
    />
  );
}

/** The rows of a run as a table: headings in words, coded values in words. */
function ResultTable({
  result,
  loading,
  onPage,
}: {
  result: ReportResult | undefined;
  loading: boolean;
  onPage?: (page: number, size: number) => void;
}) {
  const { t } = useTranslation(REPORTS_NS);
  const word = useLabel();
  const heading = useHeading();
  const columns = (result?.columns ?? []).map((c, i) => ({
    key: c.ref,
    title: heading(c.ref),
    render: (_: unknown, row: Array<string | number | null>) => {
      const v = row[i];
      if (v === null || v === undefined || v === '') return '—';
      const family = REPORT_COLUMN_FAMILIES[c.ref];
      return family ? word(family, v) : v;
    },
  }));
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {result && (
        <Typography.Text data-testid="report-total">
          {t('reports.total', { total: result.total, patients: result.patients })}
        </Typography.Text>
      )}
      <Table<Array<string | number | null>>
        size="small"
        data-testid="report-result"
        loading={loading && { tip: t('reports.running') }}
        rowKey={(_, i) => String(i)}
        dataSource={result?.rows ?? []}
        columns={columns}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('reports.noRows')} /> }}
        pagination={
          onPage && result
            ? {
                current: result.page,
                pageSize: result.size,
                total: result.total,
                showSizeChanger: true,
                onChange: onPage,
              }
            : false
        }
      />
    </Space>
  );
}

interface DraftFilter {
  field?: string;
  op?: ReportOp;
  mode: 'fixed' | 'param';
  value?: ReportValue;
  label?: string;
  required?: boolean;
}

interface Draft {
  name: string;
  description: string;
  source: ReportSource;
  criteria: DraftCriteria;
  columns: string[];
  filters: DraftFilter[];
  sortColumn?: string;
  sortDesc: boolean;
}

const emptyReport = (): Draft => ({
  name: '',
  description: '',
  source: 'diagnoses',
  criteria: emptyDraft(),
  columns: ['patients.mrn'],
  filters: [],
  sortDesc: false,
});

function draftOf(r: Report): Draft {
  const d = r.definition;
  const params = new Map(d.params.map((p) => [p.key, p]));
  return {
    name: r.name,
    description: r.description,
    source: d.source,
    criteria: d.criteria,
    columns: d.columns,
    filters: d.filters.map((f) => {
      const p = f.param !== undefined ? params.get(f.param) : undefined;
      return p
        ? { field: f.field, op: f.op, mode: 'param', label: p.label, required: p.required }
        : { field: f.field, op: f.op, mode: 'fixed', value: f.value };
    }),
    sortColumn: d.sort?.column,
    sortDesc: d.sort?.desc ?? false,
  };
}

/** The definition the server takes, or null while a filter is half written. */
function definitionOf(d: Draft): ReportDefinitionBody | null {
  const filters: NonNullable<ReportDefinitionBody['filters']> = [];
  const params: NonNullable<ReportDefinitionBody['params']> = [];
  for (const f of d.filters) {
    const kind = f.field ? reportFieldKind(d.source, f.field) : null;
    if (!f.field || !f.op || !kind) return null;
    if (f.mode === 'param') {
      if (!f.label?.trim()) return null;
      const key = `p${params.length + 1}`;
      params.push({ key, label: f.label.trim(), type: valueTypeOf(kind, f.op), required: !!f.required });
      filters.push({ field: f.field, op: f.op, param: key });
    } else {
      if (f.value === undefined) return null;
      filters.push({ field: f.field, op: f.op, value: f.value });
    }
  }
  return {
    source: d.source,
    criteria: completeCriteria(d.criteria),
    columns: d.columns,
    filters,
    params,
    ...(d.sortColumn && d.columns.includes(d.sortColumn)
      ? { sort: { column: d.sortColumn, desc: d.sortDesc } }
      : {}),
  };
}

/** The builder: what to list, which patients, which columns, which filters and parameters. */
function ReportBuilder({
  editing,
  onClose,
  onSaved,
}: {
  editing: Report | 'new' | null;
  onClose: () => void;
  onSaved: (r: Report) => void;
}) {
  const { t } = useTranslation(REPORTS_NS);
  const { message } = App.useApp();
  const word = useLabel();
  const heading = useHeading();
  const existing = editing && editing !== 'new' ? editing : null;
  const [draft, setDraft] = useState<Draft>(() => (existing ? draftOf(existing) : emptyReport()));
  const [preview, setPreview] = useState<ReportResult | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const previewRef = useRef<HTMLDivElement>(null);
  // A new preview (or its refusal) is shown where the eye can see it, below the filters.
  useEffect(() => {
    if (preview || previewError) previewRef.current?.scrollIntoView({ block: 'nearest' });
  }, [preview, previewError]);
  const [form] = Form.useForm<{ name: string; description: string }>();
  const set = (p: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...p }));
    setPreview(null);
  };
  const fields = reportFieldsOf(draft.source);
  const fieldOptions = fields.map((f) => ({ value: f.ref, label: heading(f.ref) }));
  const setFilter = (i: number, p: Partial<DraftFilter>) =>
    set({ filters: draft.filters.map((f, j) => (j === i ? { ...f, ...p } : f)) });
  const definition = definitionOf(draft);

  const runPreview = async () => {
    if (!definition) return message.warning(t('reports.incomplete'));
    setBusy(true);
    setPreviewError(null);
    try {
      setPreview(await reportApi.preview({ definition, params: {}, size: 10 }));
    } catch (e) {
      setPreviewError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const save = async () => {
    const v = await form.validateFields();
    if (!definition) return message.warning(t('reports.incomplete'));
    const body = { name: v.name, description: v.description ?? '', definition };
    let saved: Report | undefined;
    const ok = await saveOrShow(message, async () => {
      saved = existing ? await reportApi.edit(existing.id, body) : await reportApi.add(body);
    });
    if (ok && saved) {
      message.success(t('common.saved'));
      onSaved(saved);
    }
  };

  return (
    <Drawer
      open={!!editing}
      onClose={onClose}
      width={980}
      destroyOnHidden
      title={existing ? t('reports.editTitle') : t('reports.addTitle')}
      data-testid="report-builder"
      extra={
        <Space>
          {busy && (
            <Space size={4}>
              <Spin size="small" />
              <Typography.Text type="secondary">{t('reports.running')}</Typography.Text>
            </Space>
          )}
          <Button onClick={runPreview} disabled={busy} data-testid="report-preview">
            {t('reports.preview')}
          </Button>
          <Button type="primary" onClick={save} data-testid="report-save">
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Form
          form={form}
          layout="vertical"
          initialValues={{ name: draft.name, description: draft.description }}
        >
          <Form.Item
            name="name"
            label={t('common.name')}
            rules={[
              { required: true, whitespace: true, message: t('common.required') },
              textRule(currentLocale()),
            ]}
          >
            <Input maxLength={REPORT_NAME_MAX} data-testid="report-name" />
          </Form.Item>
          <Form.Item name="description" label={t('common.description')} rules={[textRule(currentLocale())]}>
            <Input.TextArea rows={2} maxLength={REPORT_DESCRIPTION_MAX} />
          </Form.Item>
        </Form>
        <Space align="center" wrap>
          <Typography.Text strong>{t('reports.source')}</Typography.Text>
          <Select<ReportSource>
            style={{ width: 180 }}
            aria-label={t('reports.source')}
            data-testid="report-source"
            value={draft.source}
            onChange={(source) =>
              set({
                source,
                columns: draft.columns.filter((c) => reportFieldKind(source, c)),
                filters: draft.filters.filter((f) => !f.field || reportFieldKind(source, f.field)),
              })
            }
            options={REPORT_SOURCES.map((s) => ({ value: s, label: word('cdrTable', s) }))}
          />
          <Typography.Text type="secondary">{t('reports.sourceHint')}</Typography.Text>
        </Space>
        <div>
          <Typography.Title level={5}>{t('reports.criteria')}</Typography.Title>
          <ConditionBuilder value={draft.criteria} onChange={(criteria) => set({ criteria })} />
        </div>
        <div>
          <Typography.Title level={5}>{t('reports.columns')}</Typography.Title>
          <Select
            mode="multiple"
            style={{ width: '100%' }}
            aria-label={t('reports.columns')}
            data-testid="report-columns"
            value={draft.columns}
            onChange={(columns: string[]) => set({ columns })}
            options={fieldOptions}
            optionFilterProp="label"
          />
          {draft.columns.length === 0 && (
            <Typography.Text type="danger">{t('reports.columnsRequired')}</Typography.Text>
          )}
        </div>
        <div>
          <Typography.Title level={5}>{t('reports.filters')}</Typography.Title>
          <Space direction="vertical" style={{ width: '100%' }}>
            {draft.filters.length === 0 && (
              <Typography.Text type="secondary">{t('reports.noFilters')}</Typography.Text>
            )}
            {draft.filters.map((f, i) => {
              const kind = f.field ? reportFieldKind(draft.source, f.field) : null;
              const ops = kind ? REPORT_OPS_BY_KIND[kind] : [];
              return (
                // Filters have no identity of their own: their place is what the definition keeps.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                <Space key={i} wrap align="center" data-testid={`report-filter-${i}`}>
                  <Select
                    style={{ width: 220 }}
                    aria-label={t('reports.field')}
                    data-testid="filter-field"
                    placeholder={t('reports.field')}
                    value={f.field}
                    showSearch
                    optionFilterProp="label"
                    onChange={(field: string) => {
                      const k = reportFieldKind(draft.source, field);
                      setFilter(i, { field, op: k ? REPORT_OPS_BY_KIND[k][0] : undefined, value: undefined });
                    }}
                    options={fieldOptions}
                  />
                  <Select<ReportOp>
                    style={{ width: 110 }}
                    aria-label={t('reports.op')}
                    data-testid="filter-op"
                    value={f.op}
                    onChange={(op) => setFilter(i, { op, value: undefined })}
                    options={ops.map((o) => ({ value: o, label: word('reportOp', o) }))}
                  />
                  <Radio.Group
                    size="small"
                    optionType="button"
                    value={f.mode}
                    onChange={(e) => setFilter(i, { mode: e.target.value })}
                    options={[
                      { value: 'fixed', label: t('reports.fixed') },
                      { value: 'param', label: t('reports.asParam') },
                    ]}
                  />
                  {f.mode === 'param' ? (
                    <>
                      <Input
                        style={{ width: 180 }}
                        maxLength={40}
                        aria-label={t('reports.paramLabel')}
                        placeholder={t('reports.paramLabelHint')}
                        value={f.label ?? ''}
                        onChange={(e) => setFilter(i, { label: e.target.value })}
                      />
                      <Checkbox
                        checked={!!f.required}
                        onChange={(e) => setFilter(i, { required: e.target.checked })}
                      >
                        {t('reports.paramRequired')}
                      </Checkbox>
                    </>
                  ) : (
                    kind &&
                    f.op && (
                      <ValueInput
                        type={valueTypeOf(kind, f.op)}
                        kind={kind}
                        label={t('reports.value')}
                        value={f.value}
                        onChange={(value) => setFilter(i, { value })}
                      />
                    )
                  )}
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('common.delete')}
                    onClick={() => set({ filters: draft.filters.filter((_, j) => j !== i) })}
                  />
                </Space>
              );
            })}
            <Button
              type="dashed"
              size="small"
              icon={<PlusOutlined />}
              data-testid="report-add-filter"
              onClick={() => set({ filters: [...draft.filters, { mode: 'fixed' }] })}
            >
              {t('reports.addFilter')}
            </Button>
          </Space>
        </div>
        <Space wrap align="center">
          <Typography.Text strong>{t('reports.sort')}</Typography.Text>
          <Select
            style={{ width: 240 }}
            aria-label={t('reports.sort')}
            allowClear
            placeholder={t('reports.sortNone')}
            value={
              draft.sortColumn && draft.columns.includes(draft.sortColumn) ? draft.sortColumn : undefined
            }
            onChange={(sortColumn?: string) => set({ sortColumn })}
            options={draft.columns.map((c) => ({ value: c, label: heading(c) }))}
          />
          <Switch checked={draft.sortDesc} onChange={(sortDesc) => set({ sortDesc })} />
          <span>{t('reports.desc')}</span>
        </Space>
        {previewError && (
          <div ref={previewRef}>
            <Alert type="error" showIcon message={previewError} data-testid="report-preview-error" />
          </div>
        )}
        {preview && (
          <Card
            size="small"
            ref={previewRef}
            title={t('reports.preview')}
            extra={<Typography.Text type="secondary">{t('reports.previewHint')}</Typography.Text>}
          >
            <ResultTable result={preview} loading={busy} />
          </Card>
        )}
      </Space>
    </Drawer>
  );
}

/** One report's parameters, its run (a page of rows at a time) and its export. */
function RunPanel({ report }: { report: Report }) {
  const { t } = useTranslation(REPORTS_NS);
  const { message } = App.useApp();
  const can = useHasAction();
  const params = report.definition.params;
  const [values, setValues] = useState<Record<string, ReportValue>>({});
  const [run, setRun] = useState<{ values: Record<string, ReportValue>; page: number; size: number } | null>(
    params.some((p) => p.required) ? null : { values: {}, page: 1, size: 20 },
  );
  const [exporting, setExporting] = useState<'csv' | 'xlsx' | null>(null);
  const result = useQuery({
    queryKey: ['report-run', report.id, report.updatedAt, run],
    queryFn: () => reportApi.run(report.id, { params: run!.values, page: run!.page, size: run!.size }),
    enabled: !!run,
    retry: false,
  });
  const set = (key: string, v: ReportValue | undefined) =>
    setValues((old) => {
      const next = { ...old };
      if (v === undefined) delete next[key];
      else next[key] = v;
      return next;
    });
  const download = async (format: 'csv' | 'xlsx') => {
    setExporting(format);
    try {
      const name = `${report.name}.${format}`;
      await reportApi.export(report.id, { params: values, format }, name);
      message.success(t('reports.exported', { name }));
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setExporting(null);
    }
  };
  return (
    <Card
      size="small"
      title={t('reports.resultOf', { name: report.name })}
      data-testid="report-run"
      extra={
        can(MENU, 'export') && (
          <Space>
            <Button
              loading={exporting === 'csv'}
              onClick={() => download('csv')}
              data-testid="report-export-csv"
            >
              {t('reports.exportCsv')}
            </Button>
            <Button
              loading={exporting === 'xlsx'}
              onClick={() => download('xlsx')}
              data-testid="report-export-xlsx"
            >
              {t('reports.exportXlsx')}
            </Button>
          </Space>
        )
      }
    >
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Space wrap align="end" data-testid="report-params">
          {params.length === 0 && <Typography.Text type="secondary">{t('reports.noParams')}</Typography.Text>}
          {params.map((p) => {
            const f = report.definition.filters.find((x) => x.param === p.key);
            const kind = f ? reportFieldKind(report.definition.source, f.field) : null;
            return (
              <Space key={p.key} direction="vertical" size={2}>
                <Typography.Text>
                  {p.required && <Typography.Text type="danger">* </Typography.Text>}
                  {p.label}
                </Typography.Text>
                <ValueInput
                  type={p.type}
                  kind={kind}
                  label={p.label}
                  value={values[p.key]}
                  onChange={(v) => set(p.key, v)}
                />
              </Space>
            );
          })}
          <Button
            type="primary"
            data-testid="report-run-button"
            onClick={() => {
              setRun({ values, page: 1, size: run?.size ?? 20 });
              if (run && JSON.stringify(run.values) === JSON.stringify(values)) void result.refetch();
            }}
          >
            {t('reports.run')}
          </Button>
        </Space>
        {result.isError ? (
          <Alert type="error" showIcon message={result.error.message} data-testid="report-run-error" />
        ) : run ? (
          <ResultTable
            result={result.data}
            loading={result.isFetching}
            onPage={(page, size) => setRun({ ...run, page, size })}
          />
        ) : (
          <Empty description={t('reports.notRun')} />
        )}
      </Space>
    </Card>
  );
}

/**
 * 报表查询 (`/data-lake/south-west`): the app's saved reports over the CDR, built from the cohort
 * model without SQL, run with their parameters and exported as CSV or Excel.
 */
export default function Reports() {
  const { t } = useTranslation(REPORTS_NS);
  const word = useLabel();
  const can = useHasAction();
  const [keyword, setKeyword] = useState('');
  const [editing, setEditing] = useState<Report | 'new' | null>(null);
  const me = useSession().user?.UserId ?? 0;
  const mine = (r: Report) => r.createdBy === null || r.createdBy === me;
  const [runningId, setRunningId] = useState<number | null>(null);
  const list = useQuery({
    queryKey: ['reports', keyword],
    queryFn: () => reportApi.list(keyword || undefined),
  });
  const running = list.data?.items.find((r) => r.id === runningId) ?? null;

  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <Card
        title={t('reports.title')}
        data-testid="reports"
        extra={
          <Authorized apiId={`${MENU}.query`}>
            <Button type="primary" onClick={() => setEditing('new')} data-testid="report-add">
              {t('reports.add')}
            </Button>
          </Authorized>
        }
      >
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          <Typography.Text type="secondary">{t('reports.hint')}</Typography.Text>
          <Input.Search
            allowClear
            style={{ maxWidth: 320 }}
            placeholder={t('common.search')}
            onSearch={(v) => setKeyword(v.trim())}
          />
          <QueryTable<Report>
            query={list}
            empty={t('reports.empty')}
            errorTestId="reports-error"
            rowKey="id"
            size="middle"
            dataSource={list.data?.items ?? []}
            pagination={false}
            rowClassName={(r) => (r.id === runningId ? 'ant-table-row-selected' : '')}
            columns={[
              { title: t('common.name'), dataIndex: 'name' },
              {
                title: t('reports.source'),
                key: 'source',
                render: (_, r) => word('cdrTable', r.definition.source),
              },
              {
                title: t('reports.params'),
                key: 'params',
                render: (_, r) =>
                  r.definition.params.length
                    ? r.definition.params.map((p) => <Tag key={p.key}>{p.label}</Tag>)
                    : '—',
              },
              { title: t('common.description'), dataIndex: 'description', render: (v: string) => v || '—' },
              {
                title: t('reports.lastRun'),
                key: 'lastRun',
                render: (_, r) =>
                  r.lastRun
                    ? t('reports.lastRunText', {
                        at: dayjs(r.lastRun.at).format('YYYY-MM-DD HH:mm'),
                        rows: r.lastRun.rows,
                      })
                    : t('reports.never'),
              },
              {
                title: t('common.owner'),
                dataIndex: 'createdByName',
                render: (v: string | null) => v ?? '—',
              },
              {
                title: t('common.actions'),
                key: 'actions',
                render: (_, r) => (
                  <Space size={0} wrap>
                    <Button type="link" size="small" onClick={() => setRunningId(r.id)}>
                      {t('reports.run')}
                    </Button>
                    {/* Only its maker changes or deletes a report (the server says so too). */}
                    {can(MENU, 'query') && mine(r) && (
                      <Button type="link" size="small" onClick={() => setEditing(r)}>
                        {t('common.edit')}
                      </Button>
                    )}
                    {can(MENU, 'query') && mine(r) && (
                      <DeleteLink
                        name={r.name}
                        onDelete={() => reportApi.remove(r.id)}
                        onDeleted={async () => {
                          if (runningId === r.id) setRunningId(null);
                          await list.refetch();
                        }}
                      />
                    )}
                  </Space>
                ),
              },
            ]}
          />
        </Space>
      </Card>
      {running ? <RunPanel key={running.id} report={running} /> : null}
      {editing && (
        <ReportBuilder
          editing={editing}
          onClose={() => setEditing(null)}
          onSaved={async (r) => {
            setEditing(null);
            await list.refetch();
            setRunningId(r.id);
          }}
        />
      )}
    </Space>
  );
}
