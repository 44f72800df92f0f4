import { ModalForm, ProFormTextArea } from '@ant-design/pro-components';
import { LIBRARY_UNOBTAINABLE_REASON_MAX } from '@crdp/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Col, Progress, Row, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type LibraryDetail, libraryApi, type MissingItem } from './api';
import { LIBRARY_NS } from './i18n';
import { LibraryPage } from './LibraryPage';

function MissingPatients({ lib, item }: { lib: LibraryDetail; item: MissingItem }) {
  const { t } = useTranslation(LIBRARY_NS);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const q = useQuery({
    queryKey: ['diseaseLibrary', lib.id, 'missing', item.key],
    queryFn: () => libraryApi.missing(lib.id, item.key),
  });
  const mark = async (patientId: number, unobtainable: boolean, reason = '') => {
    await libraryApi.unobtainable(lib.id, patientId, { itemKey: item.key, unobtainable, reason });
    message.success(t(unobtainable ? 'missing.marked' : 'missing.cleared'));
    await queryClient.invalidateQueries({ queryKey: ['diseaseLibrary', lib.id, 'missing'] });
  };
  return (
    <Table
      size="small"
      rowKey="patientId"
      loading={q.isLoading}
      title={() => <Typography.Text strong>{t('missing.patientsOf', { title: item.title })}</Typography.Text>}
      dataSource={q.data?.patients ?? []}
      pagination={{ pageSize: 10 }}
      columns={[
        { title: t('patients.name'), dataIndex: 'name' },
        {
          title: t('missing.mark'),
          dataIndex: 'unobtainable',
          render: (v: string | null) =>
            v === null ? (
              '-'
            ) : (
              <Tag color="default">{t('missing.unobtainableBecause', { reason: v || '-' })}</Tag>
            ),
        },
        {
          title: '',
          key: 'op',
          render: (_, r) =>
            r.unobtainable === null ? (
              <ModalForm<{ reason: string }>
                title={t('missing.markTitle', { name: r.name, title: item.title })}
                trigger={
                  <Button size="small" type="link">
                    {t('missing.markButton')}
                  </Button>
                }
                modalProps={{ destroyOnHidden: true }}
                width={420}
                onFinish={async (v) => {
                  await mark(r.patientId, true, v.reason);
                  return true;
                }}
              >
                <ProFormTextArea
                  name="reason"
                  label={t('missing.reason')}
                  rules={[{ required: true }, { max: LIBRARY_UNOBTAINABLE_REASON_MAX }]}
                />
              </ModalForm>
            ) : (
              <Button size="small" type="link" onClick={() => mark(r.patientId, false)}>
                {t('missing.clear')}
              </Button>
            ),
        },
      ]}
    />
  );
}

function Overview({ lib }: { lib: LibraryDetail }) {
  const { t } = useTranslation(LIBRARY_NS);
  const [picked, setPicked] = useState<string | null>(null);
  const q = useQuery({
    queryKey: ['diseaseLibrary', lib.id, 'missing'],
    queryFn: () => libraryApi.missing(lib.id),
  });
  const item = q.data?.items.find((i) => i.key === picked);
  return (
    <Row gutter={16}>
      <Col xs={24} xl={item ? 13 : 24}>
        <Table
          size="small"
          rowKey="key"
          loading={q.isLoading}
          dataSource={q.data?.items ?? []}
          pagination={false}
          rowClassName={(r) => (r.key === picked ? 'ant-table-row-selected' : '')}
          onRow={(r) => ({ onClick: () => setPicked(r.key), style: { cursor: 'pointer' } })}
          columns={[
            { title: t('missing.item'), dataIndex: 'title' },
            {
              title: t('missing.rule'),
              dataIndex: 'hasRule',
              render: (v: boolean) =>
                v ? <Tag color="blue">{t('missing.machine')}</Tag> : <Tag>{t('missing.manualOnly')}</Tag>,
            },
            {
              title: t('missing.missing'),
              key: 'missing',
              render: (_, r) => `${r.missing} / ${r.total}`,
            },
            {
              title: t('missing.rate'),
              dataIndex: 'missingRate',
              sorter: (a, b) => a.missingRate - b.missingRate,
              render: (v: number) => (
                <Progress
                  percent={Math.round(v * 1000) / 10}
                  size="small"
                  status="normal"
                  strokeColor={v > 0.5 ? '#cf1322' : v > 0.2 ? '#d48806' : undefined}
                  format={(p) => `${p}%`}
                  style={{ minWidth: 120 }}
                />
              ),
            },
            { title: t('missing.unobtainable'), dataIndex: 'unobtainable' },
          ]}
        />
        <Space style={{ marginTop: 8 }}>
          <Typography.Text type="secondary">{t('missing.hint')}</Typography.Text>
        </Space>
      </Col>
      {item && (
        <Col xs={24} xl={11}>
          <MissingPatients key={item.key} lib={lib} item={item} />
        </Col>
      )}
    </Row>
  );
}

/** indicator-missing-process: missing rate per item, the patients missing it, not-obtainable marks. */
export default function MissingIndicators() {
  const { t } = useTranslation(LIBRARY_NS);
  return <LibraryPage title={t('missing.title')}>{(lib) => <Overview key={lib.id} lib={lib} />}</LibraryPage>;
}
