import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { PageContainer, ProCard } from '@ant-design/pro-components';
import { VIS_NAME_MAX } from '@crdp/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Col,
  Empty,
  Form,
  Input,
  Modal,
  Popconfirm,
  Radio,
  Row,
  Select,
  Space,
  Spin,
  Tabs,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { hasApiId } from '../../app/access';
import { currentLocale } from '../../app/i18n';
import { useSession } from '../../app/session';
import { ChartView } from '../../components/chart/ChartView';
import {
  type Area,
  aggregate,
  deleteChart,
  deleteDashboard,
  getDashboard,
  listCharts,
  listDashboards,
  rowsForSpec,
  type SavedChart,
  saveDashboard,
} from './api';
import './locales';

const builderPath = (area: Area) =>
  area === 'visualization' ? '/visualization/chart' : '/data-lake/visualize-chart';

/** One saved chart, drawn from its query aggregated again in the database. */
export function SavedChartCard({
  area,
  chart,
  extra,
}: {
  area: Area;
  chart: SavedChart;
  extra?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const rows = useQuery({
    queryKey: ['vis', area, 'aggregate', chart.query, locale],
    queryFn: () => aggregate(area, chart.query),
  });
  return (
    <ProCard title={chart.name} bordered extra={extra} data-testid={`saved-chart-${chart.id}`}>
      {rows.isLoading ? (
        <Spin />
      ) : rows.isError ? (
        <Typography.Text type="danger">{t('vis.loadFailed')}</Typography.Text>
      ) : (
        <ChartView
          spec={chart.spec}
          rows={rowsForSpec(chart.spec, rows.data?.rows ?? [], chart.query)}
          locale={locale}
          height={300}
          testId={`chart-view-${chart.id}`}
        />
      )}
    </ProCard>
  );
}

function DashboardView({ area, id }: { area: Area; id: number }) {
  const board = useQuery({ queryKey: ['vis', area, 'dashboard', id], queryFn: () => getDashboard(area, id) });
  if (!board.data) return <Spin />;
  const span = new Map(board.data.tiles.map((t) => [t.chartId, t.span]));
  return (
    <Row gutter={[16, 16]}>
      {board.data.charts.map((c) => (
        <Col key={c.id} xs={24} lg={span.get(c.id) ?? 12}>
          <SavedChartCard area={area} chart={c} />
        </Col>
      ))}
    </Row>
  );
}

/** Saved charts and dashboards (`/visualization/overviews`, `/data-lake/visualize`). */
export function ChartOverviews({ area }: { area: Area }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { access } = useSession();
  const perm = area === 'visualization' ? 'VisualizationChart' : 'DataLakeVisualizeChart';
  const can = (action: string) => !!access && hasApiId(access, `${perm}.${action}`);
  const queryClient = useQueryClient();
  const charts = useQuery({ queryKey: ['vis', area, 'charts'], queryFn: () => listCharts(area) });
  const boards = useQuery({ queryKey: ['vis', area, 'dashboards'], queryFn: () => listDashboards(area) });
  const [creating, setCreating] = useState(false);
  const [form] = Form.useForm<{ name: string; chartIds: number[]; span: number }>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['vis', area] });

  const removeChart = useMutation({
    mutationFn: (id: number) => deleteChart(area, id),
    onSuccess: () => {
      message.success(t('vis.deleted'));
      void refresh();
    },
  });
  const removeBoard = useMutation({
    mutationFn: (id: number) => deleteDashboard(area, id),
    onSuccess: () => {
      message.success(t('vis.deleted'));
      void refresh();
    },
  });
  const createBoard = useMutation({
    mutationFn: (v: { name: string; chartIds: number[]; span: number }) =>
      saveDashboard(area, {
        name: v.name,
        description: '',
        tiles: v.chartIds.map((chartId) => ({ chartId, span: v.span })),
      }),
    onSuccess: () => {
      setCreating(false);
      form.resetFields();
      void refresh();
    },
  });

  const chartTab = (
    <Row gutter={[16, 16]}>
      {charts.data?.length === 0 && (
        <Col span={24}>
          <Empty description={t('vis.noCharts')} />
        </Col>
      )}
      {charts.data?.map((c) => (
        <Col key={c.id} xs={24} lg={12}>
          <SavedChartCard
            area={area}
            chart={c}
            extra={
              <Space>
                {can('edit') && (
                  <Link to={`${builderPath(area)}?id=${c.id}`}>
                    <EditOutlined /> {t('vis.edit')}
                  </Link>
                )}
                {can('delete') && (
                  <Popconfirm
                    title={t('vis.confirmDelete', { name: c.name })}
                    onConfirm={() => removeChart.mutate(c.id)}
                  >
                    <Button type="link" danger size="small" icon={<DeleteOutlined />}>
                      {t('vis.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            }
          />
        </Col>
      ))}
    </Row>
  );

  return (
    <PageContainer
      title={false}
      extra={
        <Space>
          {can('add') && (
            <Link to={builderPath(area)}>
              <Button type="primary" icon={<PlusOutlined />}>
                {t('vis.newChart')}
              </Button>
            </Link>
          )}
          {can('add') && (
            <Button icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="new-dashboard">
              {t('vis.newDashboard')}
            </Button>
          )}
        </Space>
      }
    >
      <Tabs
        items={[
          { key: 'charts', label: t('vis.charts'), children: chartTab },
          ...(boards.data ?? []).map((b) => ({
            key: `board-${b.id}`,
            label: b.name,
            children: (
              <>
                {can('delete') && (
                  <Popconfirm
                    title={t('vis.confirmDelete', { name: b.name })}
                    onConfirm={() => removeBoard.mutate(b.id)}
                  >
                    <Button danger size="small" style={{ marginBottom: 12 }} icon={<DeleteOutlined />}>
                      {t('vis.delete')}
                    </Button>
                  </Popconfirm>
                )}
                <DashboardView area={area} id={b.id} />
              </>
            ),
          })),
        ]}
      />
      <Modal
        open={creating}
        title={t('vis.newDashboard')}
        onCancel={() => setCreating(false)}
        onOk={() => form.submit()}
        confirmLoading={createBoard.isPending}
      >
        <Form
          form={form}
          layout="vertical"
          initialValues={{ span: 12, chartIds: [] }}
          onFinish={(v) => createBoard.mutate(v)}
        >
          <Form.Item
            name="name"
            label={t('vis.name')}
            rules={[{ required: true, whitespace: true, message: t('vis.nameRequired') }]}
          >
            <Input maxLength={VIS_NAME_MAX} />
          </Form.Item>
          <Form.Item name="chartIds" label={t('vis.dashboardCharts')}>
            <Select mode="multiple" options={charts.data?.map((c) => ({ value: c.id, label: c.name }))} />
          </Form.Item>
          <Form.Item name="span" label={t('vis.tileWidth')}>
            <Radio.Group
              options={[
                { value: 12, label: t('vis.half') },
                { value: 24, label: t('vis.full') },
              ]}
            />
          </Form.Item>
        </Form>
      </Modal>
    </PageContainer>
  );
}

export default function VisualizationOverviews() {
  return <ChartOverviews area="visualization" />;
}
