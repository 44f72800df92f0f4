import { type CdrBrowserRow, cdrFieldLabelKey, cdrSourceLabel } from '@crdp/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, DatePicker, Form, Input, InputNumber, Select, Space, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentLocale } from '../../app/i18n';
import { useLabel } from '../../app/labels';
import { Authorized } from '../../components/Authorized';
import { CutText } from '../../components/CutText';
import { cdr } from '../clinical/api';
import { CLINICAL_NS } from '../clinical/i18n';
import { PatientFormButton } from '../clinical/PatientForm';
import { SyntheticPatientsButton } from './SyntheticPatients';

const show = (v: unknown) =>
  v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** CDR browser (`/data-lake/cdr-browser`): any table of the repository with filters, keyset paged. */
export default function CdrBrowser() {
  const { t } = useTranslation(CLINICAL_NS);
  const locale = currentLocale();
  const word = useLabel();
  const qc = useQueryClient();
  const tables = useQuery({ queryKey: ['cdr-tables'], queryFn: cdr.tables });
  const [filters, setFilters] = useState<Record<string, string | number | undefined>>({ table: 'patients' });
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const rows = useQuery({
    queryKey: ['cdr-rows', filters, cursor],
    queryFn: () => cdr.rows({ ...filters, cursor, size: 20 }),
  });
  const def = tables.data?.find((x) => x.key === filters.table);
  const columns = (def?.columns ?? []).filter((c) => c !== 'contacts' && c !== 'body').slice(0, 12);

  return (
    <Card
      title={t('cdr.title')}
      extra={
        <Space wrap>
          <Authorized apiId="DataLakeDirectoryBrowsing.query">
            <Link to={`/data-lake/directory-browsing?table=${filters.table}`} data-testid="open-directory">
              {t('directory.open')}
            </Link>
          </Authorized>
          <Authorized apiId="DataLakeDataResourceMaintenance.import">
            <PatientFormButton onSaved={() => qc.invalidateQueries({ queryKey: ['cdr-rows'] })} />
          </Authorized>
          <SyntheticPatientsButton />
        </Space>
      }
    >
      <Form
        layout="inline"
        initialValues={{ table: 'patients' }}
        style={{ marginBottom: 16, rowGap: 8 }}
        onFinish={(v) => {
          setCursors([]);
          setFilters({
            table: v.table,
            keyword: v.keyword || undefined,
            patientId: v.patientId || undefined,
            source: v.source || undefined,
            from: v.range?.[0]?.format('YYYY-MM-DD'),
            to: v.range?.[1]?.format('YYYY-MM-DD'),
          });
        }}
      >
        <Form.Item name="table" label={t('cdr.table')}>
          <Select
            style={{ width: 160 }}
            options={(tables.data ?? []).map((x) => ({ value: x.key, label: x.label[locale] }))}
          />
        </Form.Item>
        <Form.Item name="keyword" label={t('cdr.keyword')}>
          <Input allowClear style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="patientId" label={t('cdr.patientId')}>
          <InputNumber min={1} />
        </Form.Item>
        <Form.Item name="source" label={t('cdr.source')}>
          <Select
            allowClear
            style={{ width: 120 }}
            options={['fhir', 'csv', 'manual', 'synthetic'].map((s) => ({
              value: s,
              label: word('cdrSource', s),
            }))}
          />
        </Form.Item>
        <Form.Item name="range">
          <DatePicker.RangePicker allowEmpty={[true, true]} placeholder={[t('cdr.from'), t('cdr.to')]} />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          {t('common.search')}
        </Button>
      </Form>
      <Table<CdrBrowserRow>
        rowKey="id"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={rows.isLoading}
        dataSource={rows.data?.items ?? []}
        pagination={false}
        columns={columns.map((c) => ({
          // The labelling layer's words (a patient's name is 姓名, a diagnosis's 名称).
          title: word('cdrField', cdrFieldLabelKey(String(filters.table), c)),
          dataIndex: c,
          // Spec 001's truncation (full-width characters count 2), whole text on hover.
          render: (v: unknown) => (
            <CutText text={c === 'source' ? cdrSourceLabel(String(v), currentLocale()) : show(v)} />
          ),
        }))}
      />
      <Space style={{ marginTop: 12 }}>
        <Button disabled={!cursors.length} onClick={() => setCursors((c) => c.slice(0, -1))}>
          {t('common.prev')}
        </Button>
        <Button
          disabled={!rows.data?.nextCursor}
          onClick={() => setCursors((c) => [...c, rows.data!.nextCursor!])}
        >
          {t('common.next')}
        </Button>
      </Space>
    </Card>
  );
}
