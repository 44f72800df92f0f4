import { ModalForm, ProFormText } from '@ant-design/pro-components';
import type { SciColumn, SciDatasetMade, SciExportFormat, SciSnapshotDetail } from '@crdp/core';
import { App, Button, Card, Col, Descriptions, Row, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Authorized } from '../../components/Authorized';
import { saveOrShow } from '../../components/form/server-errors';
import { sciApi } from './api';
import { cellText, columnLabel, SnapshotScreenFrame, showNumber } from './common';
import { SCI_NS } from './i18n';
import { VariableChart } from './VariableChart';

/** 数据库详情 (`/scientific-database/details`): a snapshot's origin, its variables one by one, its exports. */
export default function Details() {
  const { t } = useTranslation(SCI_NS);
  return (
    <Card title={t('details.title')} data-testid="sci-details">
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('details.hint')}</Typography.Text>
        <SnapshotScreenFrame screen="details">{(s) => <Snapshot key={s.id} s={s} />}</SnapshotScreenFrame>
      </Space>
    </Card>
  );
}

function Snapshot({ s }: { s: SciSnapshotDetail }) {
  const { t } = useTranslation(SCI_NS);
  const { message } = App.useApp();
  const [busy, setBusy] = useState<SciExportFormat | null>(null);
  const [handing, setHanding] = useState(false);
  const [chosen, setChosen] = useState<string>(s.columns[0]?.key ?? '');
  const name = `${s.taskName}-v${s.version}`;
  const download = async (f: SciExportFormat) => {
    setBusy(f);
    try {
      await sciApi.download(s.id, f, name);
    } finally {
      setBusy(null);
    }
  };
  const stats = new Map(s.stats.map((x) => [x.key, x]));
  const column = s.columns.find((c) => c.key === chosen);
  const st = column && stats.get(column.key);
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <Descriptions bordered size="small" column={{ xs: 1, md: 2, xl: 3 }} data-testid="snapshot-facts">
        <Descriptions.Item label={t('details.subject')}>{s.subjectName}</Descriptions.Item>
        <Descriptions.Item label={t('details.cohort')}>
          {s.cohort === 'library'
            ? `${t('tasks.cohortLibrary')} · ${s.cohortName}`
            : t('tasks.cohortSubject')}
        </Descriptions.Item>
        <Descriptions.Item label={t('details.version')}>v{s.version}</Descriptions.Item>
        <Descriptions.Item label={t('details.rows')}>{s.rowCount}</Descriptions.Item>
        <Descriptions.Item label={t('details.builtAt')}>
          {s.builtAt ? new Date(s.builtAt).toLocaleString() : ''}
        </Descriptions.Item>
        <Descriptions.Item label={t('details.sha256')}>
          <Typography.Text code copyable style={{ fontSize: 12 }}>
            {s.sha256}
          </Typography.Text>
        </Descriptions.Item>
      </Descriptions>
      <Authorized apiId="DatabasesDetails.export">
        <Space wrap>
          <Typography.Text strong>{t('details.export')}</Typography.Text>
          {(['csv', 'xlsx', 'parquet'] as const).map((f) => (
            <Button key={f} loading={busy === f} onClick={() => download(f)} data-testid={`export-${f}`}>
              {f === 'parquet' ? 'Parquet' : f.toUpperCase()}
            </Button>
          ))}
          <Button onClick={() => setHanding(true)} data-testid="to-dataset">
            {t('details.toDataset')}
          </Button>
        </Space>
      </Authorized>
      <Row gutter={16}>
        <Col xs={24} xl={12}>
          <Table<SciColumn>
            data-testid="snapshot-variables"
            size="small"
            rowKey="key"
            pagination={false}
            scroll={{ x: 'max-content' }}
            dataSource={s.columns}
            rowClassName={(c) => (c.key === chosen ? 'ant-table-row-selected' : '')}
            onRow={(c) => ({ onClick: () => setChosen(c.key), style: { cursor: 'pointer' } })}
            columns={[
              { title: t('details.code'), dataIndex: 'key' },
              { title: t('details.label'), key: 'label', render: (_, c) => columnLabel(c) },
              { title: t('details.type'), key: 'type', render: (_, c) => t(`type.${c.type}`) },
              {
                title: t('details.present'),
                key: 'present',
                align: 'right',
                render: (_, c) => stats.get(c.key)?.present ?? 0,
              },
              {
                title: t('details.missing'),
                key: 'missing',
                align: 'right',
                render: (_, c) => stats.get(c.key)?.missing ?? 0,
              },
            ]}
          />
        </Col>
        <Col xs={24} xl={12}>
          {column && st && (
            <Card size="small" title={`${columnLabel(column)} (${column.key})`} data-testid="variable-detail">
              <Descriptions size="small" column={2}>
                <Descriptions.Item label={t('details.type')}>{t(`type.${column.type}`)}</Descriptions.Item>
                <Descriptions.Item label={t('details.unit')}>{column.unit || '—'}</Descriptions.Item>
                <Descriptions.Item label={t('details.rule')} span={2}>
                  <Typography.Text code>{column.ruleText}</Typography.Text>
                </Descriptions.Item>
                {column.valueSet.length > 0 && (
                  <Descriptions.Item label={t('details.valueSet')} span={2}>
                    {column.valueSet.map((v) => cellText(column, v.code)).join('；')}
                  </Descriptions.Item>
                )}
                <Descriptions.Item label={t('details.present')}>{st.present}</Descriptions.Item>
                <Descriptions.Item label={t('details.missing')}>{st.missing}</Descriptions.Item>
                <Descriptions.Item label={t('details.distinct')}>{st.distinct}</Descriptions.Item>
                {(column.type === 'number' || column.type === 'date') && (
                  <>
                    <Descriptions.Item label={t('details.min')}>{showNumber(st.min)}</Descriptions.Item>
                    <Descriptions.Item label={t('details.median')}>{showNumber(st.median)}</Descriptions.Item>
                    <Descriptions.Item label={t('details.max')}>{showNumber(st.max)}</Descriptions.Item>
                  </>
                )}
                {column.type === 'number' && (
                  <>
                    <Descriptions.Item label={t('details.mean')}>{showNumber(st.mean)}</Descriptions.Item>
                    <Descriptions.Item label={t('details.sd')}>{showNumber(st.sd)}</Descriptions.Item>
                  </>
                )}
              </Descriptions>
              {column.type !== 'date' && <VariableChart column={column} stats={st} />}
            </Card>
          )}
        </Col>
      </Row>
      <ModalForm<{ name: string }>
        title={t('details.toDataset')}
        open={handing}
        width={480}
        initialValues={{ name }}
        modalProps={{ destroyOnHidden: true, onCancel: () => setHanding(false) }}
        onFinish={async (v) => {
          let made: SciDatasetMade | null = null;
          const ok = await saveOrShow(message, async () => {
            made = await sciApi.toDataset(s.id, { name: v.name });
          });
          if (!ok || !made) return false;
          const m: SciDatasetMade = made;
          message.success(
            t('details.datasetMade', { columns: m.columns }) +
              (m.skipped.length ? t('details.datasetSkipped', { keys: m.skipped.join(', ') }) : ''),
          );
          setHanding(false);
          return true;
        }}
      >
        <ProFormText
          name="name"
          label={t('details.datasetName')}
          rules={[{ required: true, whitespace: true, message: t('required') }]}
        />
      </ModalForm>
    </Space>
  );
}
