import { ProTable } from '@ant-design/pro-components';
import { Segmented, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CutText } from '../../components/CutText';
import { proPage } from '../../components/table/paging';
import { type FillLogEntry, type LibraryDetail, libraryApi } from './api';
import { LIBRARY_NS } from './i18n';
import { LibraryPage } from './LibraryPage';

const OUTCOMES = ['invalid', 'noData', 'keptManual', 'unobtainable'] as const;

function Findings({ lib }: { lib: LibraryDetail }) {
  const { t } = useTranslation(LIBRARY_NS);
  const [outcome, setOutcome] = useState<(typeof OUTCOMES)[number]>('invalid');
  const titles = new Map(lib.items.map((i) => [i.key, i.title]));
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Paragraph type="secondary">{t('clean.hint')}</Typography.Paragraph>
      <Segmented
        value={outcome}
        onChange={(v) => setOutcome(v as (typeof OUTCOMES)[number])}
        options={OUTCOMES.map((o) => ({ value: o, label: t(`log.outcomes.${o}`) }))}
      />
      <ProTable<FillLogEntry>
        rowKey="id"
        search={false}
        options={false}
        params={{ outcome, id: lib.id }}
        request={async (p) => {
          const r = await libraryApi.fillLog(lib.id, {
            ...proPage(p),
            outcome,
          });
          return { data: r.items, total: r.total, success: true };
        }}
        columns={[
          { title: t('log.patient'), dataIndex: 'patientName' },
          {
            title: t('log.item'),
            dataIndex: 'itemKey',
            render: (_, r) => titles.get(r.itemKey) ?? r.itemKey,
          },
          {
            title: t('log.value'),
            dataIndex: 'value',
            render: (_, r) => (r.value === null || r.value === undefined ? '-' : String(r.value)),
          },
          {
            title: t('log.source'),
            dataIndex: 'source',
            render: (_, r) => (r.source.rule ? <CutText text={r.source.rule} /> : '-'),
          },
          { title: t('log.time'), dataIndex: 'createdAt', valueType: 'dateTime' },
        ]}
      />
    </Space>
  );
}

/**
 * clean-annotation: what the fill could not use, for people to clean — values the form refused,
 * items without source data, manual values kept over machine ones, and marks of not obtainable.
 * Text annotation of documents joins this page when the annotation work lands.
 */
export default function CleanAnnotation() {
  const { t } = useTranslation(LIBRARY_NS);
  return <LibraryPage title={t('clean.title')}>{(lib) => <Findings key={lib.id} lib={lib} />}</LibraryPage>;
}
