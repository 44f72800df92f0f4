import { cdrSourceLabel, formatAge, genderLabel } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Input, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../app/i18n';
import { CutText } from '../../components/CutText';
import { type Patient, patient360 } from './api';
import { CLINICAL_NS } from './i18n';

/** Patient search with keyset paging (`GET 360`): previous pages are kept as a stack of cursors. */
export function PatientPicker({ onPick }: { onPick: (p: Patient) => void }) {
  const { t } = useTranslation(CLINICAL_NS);
  const locale = currentLocale();
  const [keyword, setKeyword] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const q = useQuery({
    queryKey: ['360', keyword, cursor],
    queryFn: () => patient360.search({ keyword: keyword || undefined, cursor, size: 10 }),
  });
  return (
    <Card title={t('patient.search')}>
      <Input.Search
        allowClear
        placeholder={t('patient.keyword')}
        style={{ maxWidth: 420, marginBottom: 12 }}
        enterButton={t('common.search')}
        onSearch={(v) => {
          setKeyword(v.trim());
          setCursors([]);
        }}
        data-testid="patient-search"
      />
      <Table<Patient>
        rowKey="id"
        size="small"
        loading={q.isLoading}
        dataSource={q.data?.items ?? []}
        pagination={false}
        onRow={(p) => ({ onClick: () => onPick(p), style: { cursor: 'pointer' } })}
        columns={[
          { title: t('patient.mrn'), dataIndex: 'mrn' },
          {
            title: t('patient.name'),
            dataIndex: 'name',
            render: (v: string) => (
              <Button type="link" size="small" style={{ padding: 0 }}>
                <CutText text={v} limit={20} />
              </Button>
            ),
          },
          { title: t('patient.gender'), dataIndex: 'gender', render: (g: number) => genderLabel(g, locale) },
          {
            title: t('patient.age'),
            dataIndex: 'birthDate',
            render: (b: string) => formatAge(b).text[locale],
          },
          {
            title: t('patient.nationalId'),
            dataIndex: 'nationalId',
            render: (v: string, p) => (
              <Space>
                {v}
                {p.identityMasked && v ? <Tag>{t('patient.masked')}</Tag> : null}
              </Space>
            ),
          },
          {
            title: t('patient.source'),
            dataIndex: 'source',
            render: (v: string) => <CutText text={cdrSourceLabel(v, currentLocale())} limit={20} />,
          },
        ]}
      />
      <Space style={{ marginTop: 12 }}>
        <Button disabled={!cursors.length} onClick={() => setCursors((c) => c.slice(0, -1))}>
          {t('common.prev')}
        </Button>
        <Button
          disabled={!q.data?.nextCursor}
          onClick={() => q.data?.nextCursor && setCursors((c) => [...c, q.data!.nextCursor!])}
        >
          {t('common.next')}
        </Button>
      </Space>
    </Card>
  );
}
