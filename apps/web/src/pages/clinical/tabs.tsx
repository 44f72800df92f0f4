import { useQuery } from '@tanstack/react-query';
import {
  Row as AntRow,
  Card,
  Col,
  Descriptions,
  Drawer,
  Empty,
  List,
  Segmented,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Timeline,
  Typography,
} from 'antd';
import ReactECharts from 'echarts-for-react';
import { useMemo, useState } from 'react';
import type { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { StatusTag } from '../../components/crf/RecordStatusTag';
import { VitalSignChart } from '../../components/vital-signs/VitalSignChart';
import { type CrfRecordRow, crfApi, type RecordStatus } from '../crf/api';
import { type LabItem, type Person, patient360, type Visit } from './api';
import { day, dt, FlagTag, PagedTable } from './shared';

type T = ReturnType<typeof useTranslation>['t'];
const s = (v: unknown) => String(v ?? '');

export function VisitTimeline({ visits, t }: { visits: Visit[]; t: T }) {
  if (!visits.length) return <Empty />;
  return (
    <Timeline
      data-testid="visit-timeline"
      items={visits.map((v) => ({
        color: v.kind === 'inpatient' ? 'red' : v.kind === 'emergency' ? 'orange' : 'blue',
        children: (
          <>
            <Typography.Text strong>{day(v.admitAt)}</Typography.Text> {t(`visit.${v.kind}`)} · {v.department}
            {v.dischargeAt && v.kind === 'inpatient' ? (
              <div style={{ color: '#999' }}>→ {day(v.dischargeAt)}</div>
            ) : null}
          </>
        ),
      }))}
    />
  );
}

/** 住院视图: the bedside chart of one stay and the stay's documents. */
export function InHospitalTab({ person, t }: { person: Person; t: T }) {
  const stays = person.visits.filter((v) => v.kind === 'inpatient');
  const [visitId, setVisitId] = useState<number | undefined>(undefined);
  const id = person.patient.id;
  const q = useQuery({
    queryKey: ['vitals', id, visitId],
    queryFn: () => patient360.vitalSigns(id, visitId),
  });
  const docs = useQuery({
    queryKey: ['docs', id],
    queryFn: () => patient360.list('documents', id, { size: 50 }),
  });
  const current = q.data?.visit;
  // `?doc=` (a record-QC fault's link): that document is marked, shown whole and scrolled to.
  const [params] = useSearchParams();
  const docId = Number(params.get('doc')) || null;
  return (
    <AntRow gutter={16}>
      <Col xs={24} xl={17}>
        <Card
          size="small"
          title={t('vital.title')}
          extra={
            <Select
              style={{ width: 260, maxWidth: '100%' }}
              placeholder={t('visit.pick')}
              value={visitId ?? current?.id}
              onChange={setVisitId}
              options={stays.map((v) => ({
                value: v.id,
                label: `${day(v.admitAt)} ~ ${day(v.dischargeAt)} ${v.department}`,
              }))}
            />
          }
        >
          {q.data?.points.length ? (
            <VitalSignChart
              points={q.data.points}
              printTitle={`${person.patient.name} ${t('vital.title')}`}
              labels={{
                temperature: t('vital.temperature'),
                pulse: t('vital.pulse'),
                spo2: t('vital.spo2'),
                ventilator: t('vital.ventilator'),
                notRaised: t('vital.notRaised'),
                date: t('vital.date'),
                hour: t('vital.hour'),
              }}
              actionLabels={{
                zoomIn: t('vital.zoomIn'),
                zoomOut: t('vital.zoomOut'),
                print: t('vital.print'),
                png: t('vital.png'),
              }}
            />
          ) : (
            <Empty description={t('vital.none')} />
          )}
        </Card>
      </Col>
      <Col xs={24} xl={7}>
        <Card size="small" title={t('visit.timeline')} style={{ marginBottom: 16 }}>
          <VisitTimeline visits={person.visits} t={t} />
        </Card>
        <Card size="small" title={t('doc.title')}>
          <List
            data-testid="documents"
            dataSource={docs.data?.items ?? []}
            renderItem={(d) => (
              <List.Item
                data-doc-id={d.id}
                ref={d.id === docId ? (el) => el?.scrollIntoView({ block: 'nearest' }) : undefined}
                style={d.id === docId ? { background: '#fffbe6', outline: '2px solid #faad14' } : undefined}
              >
                <List.Item.Meta
                  title={`${s(d.title)}${d.author ? ` · ${s(d.author)}` : ''} · ${dt(d.writtenAt)}`}
                  description={
                    <Typography.Paragraph ellipsis={d.id === docId ? false : { rows: 3, expandable: true }}>
                      {s(d.body)}
                    </Typography.Paragraph>
                  }
                />
              </List.Item>
            )}
          />
        </Card>
      </Col>
    </AntRow>
  );
}

export function VisitsTab({ id, t }: { id: number; t: T }) {
  return (
    <PagedTable
      testId="visits-table"
      queryKey={['visits', id]}
      fetch={(page, size) => patient360.list('visits', id, { page, size })}
      columns={[
        { title: t('visit.kind'), dataIndex: 'kind', render: (k: string) => <Tag>{t(`visit.${k}`)}</Tag> },
        { title: t('visit.department'), dataIndex: 'department' },
        { title: t('visit.admitAt'), dataIndex: 'admitAt', render: dt },
        { title: t('visit.dischargeAt'), dataIndex: 'dischargeAt', render: dt },
      ]}
    />
  );
}

export function DiagnosesTab({ id, t }: { id: number; t: T }) {
  return (
    <PagedTable
      testId="diagnoses-table"
      queryKey={['dx', id]}
      fetch={(page, size) => patient360.list('diagnoses', id, { page, size })}
      columns={[
        { title: t('dx.icd10'), dataIndex: 'icd10', width: 110 },
        { title: t('dx.name'), dataIndex: 'name' },
        { title: t('dx.kind'), dataIndex: 'kind', render: (k: string) => t(`dx.${k}`) },
        { title: t('dx.at'), dataIndex: 'diagnosedAt', render: day },
      ]}
    />
  );
}

export function AllergiesTab({ id, t }: { id: number; t: T }) {
  return (
    <PagedTable
      testId="allergies-table"
      queryKey={['allergy', id]}
      fetch={(page, size) => patient360.list('allergies', id, { page, size })}
      columns={[
        { title: t('allergy.substance'), dataIndex: 'substance' },
        { title: t('allergy.reaction'), dataIndex: 'reaction' },
        { title: t('allergy.severity'), dataIndex: 'severity' },
        { title: t('allergy.at'), dataIndex: 'recordedAt', render: day },
      ]}
    />
  );
}

export function OrdersTab({ id, t }: { id: number; t: T }) {
  const [category, setCategory] = useState<'all' | 'drug' | 'other'>('all');
  return (
    <>
      <Segmented
        style={{ marginBottom: 12 }}
        value={category}
        onChange={(v) => setCategory(v as typeof category)}
        options={[
          { value: 'all', label: t('order.category') },
          { value: 'drug', label: t('order.drug') },
          { value: 'other', label: t('order.other') },
        ]}
      />
      <PagedTable
        testId="orders-table"
        queryKey={['orders', id, category]}
        fetch={(page, size) =>
          patient360.drugs(id, { page, size, ...(category === 'all' ? {} : { category }) })
        }
        columns={[
          {
            title: t('order.category'),
            dataIndex: 'category',
            render: (c: string) => <Tag>{t(`order.${c}`)}</Tag>,
          },
          { title: t('order.name'), dataIndex: 'name' },
          { title: t('order.dose'), render: (_, r) => `${s(r.dose)}${s(r.doseUnit)}` },
          { title: t('order.route'), dataIndex: 'route' },
          { title: t('order.frequency'), dataIndex: 'frequency' },
          { title: t('order.startAt'), dataIndex: 'startAt', render: dt },
          { title: t('order.stopAt'), dataIndex: 'stopAt', render: dt },
        ]}
      />
    </>
  );
}

function LabTrend({ id, item, t }: { id: number; item: LabItem; t: T }) {
  const q = useQuery({
    queryKey: ['trend', id, item.itemCode],
    queryFn: () => patient360.labs(id, { itemCode: item.itemCode, size: 200 }),
  });
  const option = useMemo(() => {
    const pts = (q.data?.items ?? []).map(
      (r) => [s(r.collectedAt), r.valueNum as number, s(r.abnormalFlag)] as const,
    );
    return {
      tooltip: { trigger: 'axis' },
      grid: { left: 48, right: 24, top: 32, bottom: 32 },
      xAxis: { type: 'time' },
      yAxis: { type: 'value', name: item.unit },
      series: [
        {
          type: 'line',
          name: item.itemName,
          data: pts.map(([x, y, f]) => ({
            value: [x, y],
            itemStyle: { color: f === 'H' ? '#cf1322' : f === 'L' ? '#1d39c4' : '#389e0d' },
          })),
          symbolSize: 8,
          lineStyle: { width: 2 },
          markArea:
            item.refLow !== null || item.refHigh !== null
              ? {
                  itemStyle: { color: 'rgba(82,196,26,0.08)' },
                  data: [[{ yAxis: item.refLow ?? 0 }, { yAxis: item.refHigh ?? item.refLow ?? 0 }]],
                }
              : undefined,
        },
      ],
    };
  }, [q.data, item]);
  return (
    <Card size="small" title={`${item.itemName} ${t('lab.trend')}`} data-testid="lab-trend">
      <ReactECharts option={option} style={{ height: 260 }} notMerge />
    </Card>
  );
}

export function LabsTab({ id, t }: { id: number; t: T }) {
  const [abnormalOnly, setAbnormalOnly] = useState(false);
  const [item, setItem] = useState<LabItem | null>(null);
  const items = useQuery({ queryKey: ['labitems', id], queryFn: () => patient360.labs(id, { size: 1 }) });
  const chosen = item ?? items.data?.labItems[0] ?? null;
  return (
    <AntRow gutter={16}>
      <Col xs={24} lg={7}>
        <List
          size="small"
          bordered
          dataSource={items.data?.labItems ?? []}
          renderItem={(li) => (
            <List.Item
              onClick={() => setItem(li)}
              style={{
                cursor: 'pointer',
                background: chosen?.itemCode === li.itemCode ? '#e6f4ff' : undefined,
              }}
            >
              <Space>
                {li.itemName}
                <Tag>{li.n}</Tag>
                {li.abnormal ? <Tag color="red">{li.abnormal}</Tag> : null}
              </Space>
            </List.Item>
          )}
        />
      </Col>
      <Col xs={24} lg={17}>
        {chosen ? <LabTrend id={id} item={chosen} t={t} /> : null}
        <Space style={{ margin: '12px 0' }}>
          <Switch checked={abnormalOnly} onChange={setAbnormalOnly} /> {t('lab.abnormalOnly')}
        </Space>
        <PagedTable
          testId="labs-table"
          queryKey={['labs', id, abnormalOnly]}
          fetch={(page, size) => patient360.labs(id, { page, size, abnormalOnly })}
          columns={[
            { title: t('lab.item'), dataIndex: 'itemName' },
            { title: t('lab.value'), dataIndex: 'valueText' },
            { title: t('lab.unit'), dataIndex: 'unit' },
            {
              title: t('lab.range'),
              render: (_, r) =>
                r.refLow === null && r.refHigh === null ? '' : `${s(r.refLow)} - ${s(r.refHigh)}`,
            },
            {
              title: t('lab.flag'),
              dataIndex: 'abnormalFlag',
              render: (f: string) => <FlagTag flag={f} label={f ? t(`lab.${f}`) : ''} />,
            },
            { title: t('lab.at'), dataIndex: 'collectedAt', render: dt },
          ]}
        />
      </Col>
    </AntRow>
  );
}

export function ExamsTab({ id, t }: { id: number; t: T }) {
  const [open, setOpen] = useState<number | null>(null);
  const report = useQuery({
    queryKey: ['exam', open],
    queryFn: () => patient360.examReport(open!),
    enabled: open !== null,
  });
  return (
    <>
      <PagedTable
        testId="exams-table"
        queryKey={['exams', id]}
        fetch={(page, size) => patient360.list('examinelist', id, { page, size })}
        onRow={(r) => setOpen(r.id)}
        columns={[
          { title: t('exam.modality'), dataIndex: 'modality' },
          { title: t('exam.bodyPart'), dataIndex: 'bodyPart' },
          { title: t('exam.conclusion'), dataIndex: 'conclusion' },
          { title: t('exam.at'), dataIndex: 'examAt', render: dt },
        ]}
      />
      <Drawer open={open !== null} onClose={() => setOpen(null)} title={t('exam.report')} width={560}>
        {report.data ? (
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label={t('exam.modality')}>{s(report.data.modality)}</Descriptions.Item>
            <Descriptions.Item label={t('exam.bodyPart')}>{s(report.data.bodyPart)}</Descriptions.Item>
            <Descriptions.Item label={t('exam.at')}>{dt(report.data.examAt)}</Descriptions.Item>
            <Descriptions.Item label={t('exam.findings')}>{s(report.data.findings)}</Descriptions.Item>
            <Descriptions.Item label={t('exam.conclusion')}>{s(report.data.conclusion)}</Descriptions.Item>
          </Descriptions>
        ) : null}
      </Drawer>
    </>
  );
}

export function OperationsTab({ id, t }: { id: number; t: T }) {
  return (
    <PagedTable
      testId="operations-table"
      queryKey={['ops', id]}
      fetch={(page, size) => patient360.list('operationlist', id, { page, size })}
      columns={[
        { title: t('op.code'), dataIndex: 'code' },
        { title: t('op.name'), dataIndex: 'name' },
        { title: t('op.at'), dataIndex: 'operatedAt', render: dt },
        { title: t('op.surgeon'), dataIndex: 'surgeon' },
        { title: t('op.anaesthesia'), dataIndex: 'anaesthesia' },
      ]}
    />
  );
}

export function PhysicalTab({ id, t }: { id: number; t: T }) {
  return (
    <PagedTable
      testId="physical-table"
      queryKey={['pe', id]}
      fetch={(page, size) => patient360.list('physicalexams', id, { page, size })}
      columns={[
        { title: t('pe.item'), dataIndex: 'item' },
        { title: t('pe.value'), dataIndex: 'value' },
        { title: t('pe.unit'), dataIndex: 'unit' },
        { title: t('pe.at'), dataIndex: 'recordedAt', render: dt },
      ]}
    />
  );
}

/** /form/patient: the patient's CRF records (linked to the patient, whatever their subject code). */
export function PatientFormsTab({ id, t }: { id: number; t: T }) {
  const forms = useQuery({ queryKey: ['crf-forms'], queryFn: () => crfApi.forms({ page: 1, size: 100 }) });
  const [formId, setFormId] = useState<number | null>(null);
  const chosen = formId ?? forms.data?.items[0]?.id ?? null;
  const records = useQuery({
    queryKey: ['crf-records', chosen, id],
    queryFn: () => crfApi.records(chosen!, { page: 1, size: 50, patientId: id }),
    enabled: chosen !== null,
  });
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        {t('crf.form')}
        <Select
          style={{ width: 280, maxWidth: '100%' }}
          value={chosen}
          onChange={setFormId}
          options={(forms.data?.items ?? []).map((f) => ({ value: f.id, label: f.name }))}
        />
        <Typography.Text type="secondary">{t('crf.hint')}</Typography.Text>
      </Space>
      <Table<CrfRecordRow>
        rowKey="id"
        size="small"
        dataSource={records.data?.items ?? []}
        columns={[
          { title: t('crf.subject'), dataIndex: 'subjectCode' },
          {
            title: t('crf.status'),
            dataIndex: 'status',
            render: (v: RecordStatus) => <StatusTag status={v} />,
          },
          { title: t('crf.updatedAt'), dataIndex: 'updatedAt', render: dt },
        ]}
      />
    </>
  );
}
