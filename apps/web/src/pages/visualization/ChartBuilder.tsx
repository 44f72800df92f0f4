import { DownloadOutlined, SaveOutlined } from '@ant-design/icons';
import { PageContainer, ProCard } from '@ant-design/pro-components';
import {
  CHART_SUBTYPES,
  type Channel,
  type ChannelField,
  type ChannelRole,
  type ChartSpec,
  type ChartSubtype,
  SUBTYPES,
} from '@crdp/charts';
import { VIS_NAME_MAX } from '@crdp/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Col, Form, Input, InputNumber, Row, Select, Space, Switch, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { hasApiId } from '../../app/access';
import { currentLocale } from '../../app/i18n';
import { useSession } from '../../app/session';
import {
  ChartView,
  type ChartViewHandle,
  PALETTE_NAMES,
  type PaletteName,
  type ViewSpec,
} from '../../components/chart/ChartView';
import {
  type Area,
  aggregate,
  type DatasetField,
  type DatasetInfo,
  getChart,
  listDatasets,
  queryForSpec,
  rowsForSpec,
  saveChart,
} from './api';
import './locales';
import { useLabel } from '../../app/labels';

type Picks = Partial<Record<Channel, string[]>>;
type SortChoice = 'none' | 'valueDesc' | 'valueAsc' | 'categoryAsc' | 'categoryValueAsc';
interface FormatState {
  prefix?: string;
  suffix?: string;
  decimals?: number | null;
  multiplier?: number | null;
  grouping: boolean;
}

const SORTS: Record<Exclude<SortChoice, 'none'>, ChannelField['sort']> = {
  valueDesc: { axis: 'value', order: 'desc' },
  valueAsc: { axis: 'value', order: 'asc' },
  categoryAsc: { axis: 'category', order: 'asc' },
  categoryValueAsc: { axis: 'categoryValue', order: 'asc' },
};
const SORT_LABEL: Record<SortChoice, string> = {
  none: 'sortNone',
  valueDesc: 'sortValueDesc',
  valueAsc: 'sortValueAsc',
  categoryAsc: 'sortCategoryAsc',
  categoryValueAsc: 'sortCategoryValueAsc',
};

/** Fields offered on a channel: dimensions for splits, measures for values, flags for venn sets. */
function fieldsFor(role: ChannelRole, subtype: ChartSubtype, d: DatasetInfo): DatasetField[] {
  const numericDims = d.dimensions.filter((f) => f.type === 'number');
  if (role === 'set') return d.dimensions.filter((f) => f.type === 'boolean');
  if (role === 'dimension') return d.dimensions;
  // Scatter and bubble place rows by numbers: measures, or numeric dimensions such as age.
  if (role === 'measure')
    return subtype === 'scatter-plot' || subtype === 'bubble' ? [...numericDims, ...d.measures] : d.measures;
  return [...d.dimensions, ...d.measures];
}

/** Turns the picks of the form into a chart spec of @crdp/charts. */
export function buildSpec(
  d: DatasetInfo,
  subtype: ChartSubtype,
  picks: Picks,
  opts: { title: string; format: FormatState; sort: SortChoice; palette: PaletteName },
): ViewSpec {
  const channels: ChartSpec['channels'] = {};
  let sorted = false;
  for (const def of SUBTYPES[subtype].channels) {
    const keys = (picks[def.channel] ?? []).slice(
      0,
      def.max === Number.POSITIVE_INFINITY ? undefined : def.max,
    );
    if (keys.length === 0) continue;
    channels[def.channel] = keys.map((key) => {
      const m = d.measures.find((x) => x.key === key);
      const dim = d.dimensions.find((x) => x.key === key);
      const field: ChannelField = { field: key, labelOverride: (m ?? dim)?.label };
      if (m) {
        field.aggregate = m.rollup === 'average' ? 'average' : (m.rollup ?? 'sum');
        const f = opts.format;
        field.format = {
          prefix: f.prefix || undefined,
          suffix: f.suffix || undefined,
          grouping: f.grouping,
          decimals: f.decimals ?? undefined,
          multiplier: f.multiplier ?? undefined,
        };
      }
      if (dim && !sorted && opts.sort !== 'none' && def.role !== 'set') {
        field.sort = SORTS[opts.sort];
        sorted = true;
      }
      return field;
    });
  }
  // Value sorts belong on a measure when no category field took them.
  if (!sorted && opts.sort.startsWith('value')) {
    const first = Object.values(channels)
      .flat()
      .find((f) => f?.aggregate);
    if (first) first.sort = SORTS[opts.sort as 'valueDesc'];
  }
  return { subtype, title: opts.title || undefined, channels, palette: opts.palette };
}

/** Chart builder (`/visualization/chart`, `/data-lake/visualize-chart`). */
export function ChartBuilder({ area }: { area: Area }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const word = useLabel();
  const { message } = App.useApp();
  const { access } = useSession();
  const perm = area === 'visualization' ? 'VisualizationChart' : 'DataLakeVisualizeChart';
  const can = (action: string) => !!access && hasApiId(access, `${perm}.${action}`);
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const editingId = Number(params.get('id')) || undefined;
  const queryClient = useQueryClient();
  const view = useRef<ChartViewHandle>(null);

  const datasets = useQuery({
    queryKey: ['vis', area, 'datasets', locale],
    queryFn: () => listDatasets(area),
  });
  const existing = useQuery({
    queryKey: ['vis', area, 'chart', editingId],
    queryFn: () => getChart(area, editingId!),
    enabled: !!editingId,
  });

  const [datasetId, setDatasetId] = useState<string>();
  const [subtype, setSubtype] = useState<ChartSubtype>('column');
  const [picks, setPicks] = useState<Picks>({});
  const [title, setTitle] = useState('');
  const [name, setName] = useState('');
  const [format, setFormat] = useState<FormatState>({ grouping: true });
  const [sort, setSort] = useState<SortChoice>('none');
  const [palette, setPalette] = useState<PaletteName>('default');

  // A saved chart opened for editing fills the form once.
  useEffect(() => {
    const c = existing.data;
    if (!c) return;
    setDatasetId(c.query.dataset);
    setSubtype(c.spec.subtype);
    setName(c.name);
    setTitle(c.spec.title ?? '');
    setPalette(c.spec.palette ?? 'default');
    const p: Picks = {};
    for (const [ch, fields] of Object.entries(c.spec.channels ?? {}))
      p[ch as Channel] = (fields ?? []).map((f) => f.field);
    setPicks(p);
    const measureFormat = Object.values(c.spec.channels ?? {})
      .flat()
      .find((f) => f?.format)?.format;
    if (measureFormat) setFormat({ grouping: measureFormat.grouping ?? true, ...measureFormat });
  }, [existing.data]);

  const dataset = datasets.data?.find((d) => d.id === (datasetId ?? datasets.data?.[0]?.id));
  const spec = useMemo(
    () => (dataset ? buildSpec(dataset, subtype, picks, { title, format, sort, palette }) : null),
    [dataset, subtype, picks, title, format, sort, palette],
  );
  const query = useMemo(() => (dataset && spec ? queryForSpec(dataset, spec) : null), [dataset, spec]);
  const rows = useQuery({
    queryKey: ['vis', area, 'aggregate', query, locale],
    queryFn: () => aggregate(area, query!),
    enabled: !!query && Object.keys(spec?.channels ?? {}).length > 0,
    placeholderData: (prev) => prev,
  });

  const save = useMutation({
    mutationFn: (asNew: boolean) =>
      saveChart(
        area,
        { name: name.trim(), description: '', query: query!, spec: spec! },
        asNew ? undefined : editingId,
      ),
    onSuccess: (saved) => {
      message.success(t('vis.saved'));
      void queryClient.invalidateQueries({ queryKey: ['vis', area] });
      setParams({ id: String(saved.id) }, { replace: true });
    },
  });

  const exportPng = () => {
    const url = view.current?.toPng();
    if (!url) return;
    const a = document.createElement('a');
    a.href = url;
    a.download = `${name || title || 'chart'}.png`;
    a.click();
  };

  const drawRows = spec && query && rows.data ? rowsForSpec(spec, rows.data.rows, query) : [];

  return (
    <PageContainer title={false}>
      <Row gutter={16}>
        <Col xs={24} lg={8}>
          <ProCard title={t('vis.channels')} data-testid="chart-form">
            <Form layout="vertical" size="middle">
              <Form.Item label={t('vis.dataset')}>
                <Select
                  data-testid="dataset-select"
                  showSearch
                  optionFilterProp="label"
                  loading={datasets.isLoading}
                  value={dataset?.id}
                  onChange={(v) => {
                    setDatasetId(v);
                    setPicks({});
                  }}
                  options={datasets.data?.map((d) => ({ value: d.id, label: d.label, title: d.description }))}
                />
              </Form.Item>
              <Form.Item label={t('vis.subtype')}>
                <Select
                  data-testid="subtype-select"
                  showSearch
                  optionFilterProp="label"
                  value={subtype}
                  onChange={(v) => setSubtype(v)}
                  options={CHART_SUBTYPES.map((s) => ({ value: s, label: word('chartSubtype', s) }))}
                />
              </Form.Item>
              {dataset &&
                SUBTYPES[subtype].channels.map((def) => (
                  <Form.Item
                    key={def.channel}
                    label={word('chartChannel', def.channel)}
                    required={SUBTYPES[subtype].requires.some((r) => r.channels.includes(def.channel))}
                  >
                    <Select
                      data-testid={`channel-${def.channel}`}
                      mode="multiple"
                      showSearch
                      optionFilterProp="label"
                      placeholder={t('vis.pickFields')}
                      maxCount={def.max === Number.POSITIVE_INFINITY ? undefined : def.max}
                      value={picks[def.channel] ?? []}
                      onChange={(v: string[]) => setPicks((p) => ({ ...p, [def.channel]: v }))}
                      options={fieldsFor(def.role, subtype, dataset).map((f) => ({
                        value: f.key,
                        label: f.label,
                      }))}
                    />
                  </Form.Item>
                ))}
              <Form.Item label={t('vis.title')}>
                <Input
                  data-testid="chart-title"
                  value={title}
                  maxLength={100}
                  onChange={(e) => setTitle(e.target.value)}
                />
              </Form.Item>
              <Row gutter={8}>
                <Col span={12}>
                  <Form.Item label={t('vis.sort')}>
                    <Select
                      value={sort}
                      onChange={setSort}
                      options={(Object.keys(SORT_LABEL) as SortChoice[]).map((s) => ({
                        value: s,
                        label: t(`vis.${SORT_LABEL[s]}`),
                      }))}
                    />
                  </Form.Item>
                </Col>
                <Col span={12}>
                  <Form.Item label={t('vis.palette')}>
                    <Select
                      value={palette}
                      onChange={setPalette}
                      options={PALETTE_NAMES.map((p) => ({ value: p, label: t(`vis.palettes.${p}`) }))}
                    />
                  </Form.Item>
                </Col>
              </Row>
              <Typography.Text strong>{t('vis.format')}</Typography.Text>
              <Row gutter={8} style={{ marginTop: 8 }}>
                <Col span={12}>
                  <Form.Item label={t('vis.prefix')}>
                    <Input
                      value={format.prefix}
                      maxLength={10}
                      onChange={(e) => setFormat({ ...format, prefix: e.target.value })}
                    />
                  </Form.Item>
                </Col>
                <Col span={12}>
                  <Form.Item label={t('vis.suffix')}>
                    <Input
                      data-testid="format-suffix"
                      value={format.suffix}
                      maxLength={10}
                      onChange={(e) => setFormat({ ...format, suffix: e.target.value })}
                    />
                  </Form.Item>
                </Col>
                <Col span={8}>
                  <Form.Item label={t('vis.decimals')}>
                    <InputNumber
                      min={0}
                      max={6}
                      value={format.decimals}
                      onChange={(v) => setFormat({ ...format, decimals: v })}
                    />
                  </Form.Item>
                </Col>
                <Col span={8}>
                  <Form.Item label={t('vis.multiplier')}>
                    <InputNumber
                      value={format.multiplier}
                      onChange={(v) => setFormat({ ...format, multiplier: v })}
                    />
                  </Form.Item>
                </Col>
                <Col span={8}>
                  <Form.Item label={t('vis.grouping')}>
                    <Switch
                      checked={format.grouping}
                      onChange={(v) => setFormat({ ...format, grouping: v })}
                    />
                  </Form.Item>
                </Col>
              </Row>
            </Form>
          </ProCard>
        </Col>
        <Col xs={24} lg={16}>
          <ProCard
            title={t('vis.preview')}
            extra={
              <Space wrap>
                <Input
                  data-testid="chart-name"
                  placeholder={t('vis.name')}
                  value={name}
                  maxLength={VIS_NAME_MAX}
                  onChange={(e) => setName(e.target.value)}
                  style={{ width: 200 }}
                />
                {(editingId ? can('edit') : can('add')) && (
                  <Button
                    type="primary"
                    icon={<SaveOutlined />}
                    data-testid="save-chart"
                    loading={save.isPending}
                    disabled={!spec || !query || !name.trim() || rows.isError}
                    onClick={() => save.mutate(false)}
                  >
                    {t('vis.save')}
                  </Button>
                )}
                {editingId && can('add') && (
                  <Button disabled={!name.trim()} onClick={() => save.mutate(true)}>
                    {t('vis.saveAs')}
                  </Button>
                )}
                <Button icon={<DownloadOutlined />} onClick={exportPng} data-testid="export-png">
                  {t('vis.exportPng')}
                </Button>
                {editingId && <Button onClick={() => navigate({ search: '' })}>{t('vis.newChart')}</Button>}
              </Space>
            }
          >
            {spec && <ChartView ref={view} spec={spec} rows={drawRows} locale={locale} height={480} />}
            {rows.data && (
              <Typography.Text type="secondary" data-testid="row-count">
                {rows.data.truncated
                  ? t('vis.truncated', { n: rows.data.rows.length })
                  : t('vis.rows', { n: rows.data.rows.length })}
              </Typography.Text>
            )}
          </ProCard>
        </Col>
      </Row>
    </PageContainer>
  );
}

export function VisualizationChart() {
  return <ChartBuilder area="visualization" />;
}
export default VisualizationChart;
