import { type CdrDirectoryField, type CdrFieldProfile, cdrFieldLabelKey } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Drawer,
  Empty,
  Menu,
  Progress,
  Row,
  Select,
  Space,
  Spin,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useLabel } from '../../app/labels';
import { useHasAction } from '../../components/Authorized';
import { useNarrow } from '../../components/table/narrow';
import { cdr } from '../clinical/api';
import { CLINICAL_NS } from '../clinical/i18n';

const percent = (filled: number, rows: number) => (rows ? Math.round((filled / rows) * 1000) / 10 : 0);
/** At most two decimals, none trailing: 45.5, 56, 81.67. */
const round = (n: number) => String(Number(n.toFixed(2)));

/** Bars of counts, the longest full width: a histogram, the top values, the years. */
function Bars({ items }: { items: Array<{ label: string; n: number }> }) {
  const { t } = useTranslation(CLINICAL_NS);
  const most = Math.max(1, ...items.map((i) => i.n));
  return (
    <Table
      size="small"
      pagination={false}
      rowKey="label"
      dataSource={items}
      columns={[
        { title: t('directory.value'), dataIndex: 'label', width: '45%' },
        {
          title: t('directory.count'),
          dataIndex: 'n',
          render: (n: number) => (
            <Space style={{ width: '100%' }}>
              <div
                style={{
                  width: `${Math.max(2, (n / most) * 120)}px`,
                  height: 10,
                  background: '#4e79a7',
                  borderRadius: 2,
                }}
              />
              {n}
            </Space>
          ),
        },
      ]}
    />
  );
}

/** One field's values: what the directory may show of it. */
function Profile({ profile }: { profile: CdrFieldProfile }) {
  const { t } = useTranslation(CLINICAL_NS);
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle" data-testid="field-profile">
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={t('directory.filled')}>
          {t('directory.filledOf', { filled: profile.filled, rows: profile.rows })} (
          {percent(profile.filled, profile.rows)}%)
        </Descriptions.Item>
        {profile.distinct !== null && (
          <Descriptions.Item label={t('directory.distinct')}>{profile.distinct}</Descriptions.Item>
        )}
      </Descriptions>
      {profile.identifying ? (
        <Alert type="info" showIcon message={t('directory.identifyingNote')} />
      ) : profile.kind === 'id' ? (
        <Alert type="info" showIcon message={t('directory.idNote')} />
      ) : !profile.filled ? (
        <Empty description={t('directory.noValues')} />
      ) : null}
      {profile.numeric && (
        <Descriptions size="small" column={2} bordered>
          {(['min', 'p25', 'p50', 'p75', 'max', 'mean'] as const).map((k) => (
            <Descriptions.Item key={k} label={t(`directory.${k}`)}>
              {round(profile.numeric![k])}
            </Descriptions.Item>
          ))}
        </Descriptions>
      )}
      {profile.histogram.length > 0 && (
        <div>
          <Typography.Title level={5}>{t('directory.histogram')}</Typography.Title>
          <Bars
            items={profile.histogram.map((b) => ({ label: `${round(b.from)} – ${round(b.to)}`, n: b.n }))}
          />
        </div>
      )}
      {profile.top.length > 0 && (
        <div>
          <Typography.Title level={5}>{t('directory.top')}</Typography.Title>
          <Bars items={profile.top.map((v) => ({ label: v.value, n: v.n }))} />
        </div>
      )}
      {profile.byYear.length > 0 && (
        <div>
          <Typography.Title level={5}>{t('directory.byYear')}</Typography.Title>
          <Bars items={profile.byYear.map((y) => ({ label: y.year, n: y.n }))} />
        </div>
      )}
    </Space>
  );
}

/**
 * Directory browsing (`/data-lake/directory-browsing`, reached from the CDR browser): the
 * repository's tables with their rows, each field's fill rate, and a field's values on request.
 * The table is in the address (`?table=`), so a link names what it shows.
 */
export default function DirectoryBrowsing() {
  const { t } = useTranslation(CLINICAL_NS);
  const word = useLabel();
  const can = useHasAction();
  const narrow = useNarrow();
  const [params, setParams] = useSearchParams();
  const [field, setField] = useState<string | null>(null);
  const dir = useQuery({ queryKey: ['cdr-directory'], queryFn: cdr.directory });
  const tables = dir.data?.tables ?? [];
  const key = params.get('table') ?? tables[0]?.key ?? 'patients';
  const table = tables.find((x) => x.key === key);
  const profile = useQuery({
    queryKey: ['cdr-directory-field', key, field],
    queryFn: () => cdr.fieldProfile(key, field!),
    enabled: field !== null,
  });
  const choose = (k: string) => setParams({ table: k }, { replace: true });
  const fieldWord = (f: string) => word('cdrField', cdrFieldLabelKey(key, f));

  if (dir.isError)
    return <Alert type="error" showIcon message={dir.error.message} data-testid="directory-error" />;
  const picker = narrow ? (
    <Select
      style={{ width: '100%', marginBottom: 12 }}
      value={key}
      onChange={choose}
      options={tables.map((x) => ({
        value: x.key,
        label: `${word('cdrTable', x.key)} · ${t('directory.rows', { count: x.rows })}`,
      }))}
      data-testid="directory-table-select"
    />
  ) : (
    <Menu
      mode="inline"
      selectedKeys={[key]}
      onClick={(e) => choose(e.key)}
      data-testid="directory-tables"
      items={tables.map((x) => ({
        key: x.key,
        label: (
          <Space style={{ justifyContent: 'space-between', width: '100%' }}>
            <span>{word('cdrTable', x.key)}</span>
            <Typography.Text type="secondary">{x.rows.toLocaleString()}</Typography.Text>
          </Space>
        ),
      }))}
    />
  );
  return (
    <Card title={t('directory.title')} data-testid="directory">
      {dir.isLoading ? (
        <Spin />
      ) : (
        <Row gutter={16}>
          <Col xs={24} md={6}>
            {picker}
          </Col>
          <Col xs={24} md={18}>
            {table && !table.rows && (
              <Alert type="info" showIcon message={t('directory.empty')} style={{ marginBottom: 12 }} />
            )}
            <Table<CdrDirectoryField>
              size="small"
              rowKey="key"
              pagination={false}
              scroll={{ x: 'max-content' }}
              dataSource={table?.fields ?? []}
              data-testid="directory-fields"
              columns={[
                {
                  title: t('directory.field'),
                  dataIndex: 'key',
                  render: (_, f) => (
                    <Space size={4}>
                      {fieldWord(f.key)}
                      {f.identifying && <Tag color="orange">{t('directory.identifying')}</Tag>}
                    </Space>
                  ),
                },
                {
                  title: t('directory.kind'),
                  dataIndex: 'kind',
                  render: (_, f) => word('cdrFieldKind', f.kind),
                },
                {
                  title: t('directory.filled'),
                  dataIndex: 'filled',
                  render: (_, f) => (
                    <Space>
                      <Progress
                        percent={percent(f.filled, table?.rows ?? 0)}
                        size="small"
                        style={{ width: 120, margin: 0 }}
                      />
                      <Typography.Text type="secondary">
                        {t('directory.filledOf', { filled: f.filled, rows: table?.rows ?? 0 })}
                      </Typography.Text>
                    </Space>
                  ),
                },
                {
                  title: '',
                  key: 'profile',
                  render: (_, f) =>
                    can('DataLakeDirectoryBrowsing', 'get') && (
                      <Button
                        type="link"
                        size="small"
                        onClick={() => setField(f.key)}
                        data-testid={`profile-${f.key}`}
                      >
                        {t('directory.profile')}
                      </Button>
                    ),
                },
              ]}
            />
          </Col>
        </Row>
      )}
      <Drawer
        open={field !== null}
        onClose={() => setField(null)}
        width={narrow ? '100%' : 520}
        title={field ? `${word('cdrTable', key)} · ${fieldWord(field)}` : ''}
      >
        {profile.isError ? (
          <Alert type="error" showIcon message={profile.error.message} />
        ) : profile.data ? (
          <Profile profile={profile.data} />
        ) : (
          <Spin />
        )}
      </Drawer>
    </Card>
  );
}
