import {
  cdrFieldLabelKey,
  DATA_FACTORY_DESCRIPTION_MAX,
  DATA_FACTORY_KINDS,
  type DataFactoryDataset,
  type DataFactoryField,
  type DataFactoryKind,
} from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Drawer,
  Empty,
  Form,
  Input,
  Modal,
  Popconfirm,
  Progress,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../app/i18n';
import { useLabel } from '../../app/labels';
import { textRule } from '../../app/text-rule';
import { useHasAction } from '../../components/Authorized';
import { saveThen } from '../../components/form/server-errors';
import { dataFactoryApi } from './reports-api';
import { REPORTS_NS } from './reports-i18n';

const MENU = 'DataLakeDirectoryDataFactory';
const percent = (filled: number, rows: number) => (rows ? Math.round((filled / rows) * 1000) / 10 : 0);
const when = (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm') : null);

/** The derived table or feature a dataset lives in, in words, with its technical name. */
function useSourceWords() {
  const { t } = useTranslation(REPORTS_NS);
  const word = useLabel();
  return (source: string) => {
    const [base = '', table] = source.split(/[.:]/);
    const words = t(`factory.sources.${base}`, { defaultValue: source });
    return base === 'reports' && table ? `${words} · ${word('cdrTable', table)}` : words;
  };
}

/** A field's name: a report column as 表 · 字段, a research column by its own label, else the directory's words. */
function useFieldWords() {
  const { t } = useTranslation(REPORTS_NS);
  const word = useLabel();
  return (kind: DataFactoryKind, f: DataFactoryField) => {
    if (f.label) return f.label;
    if (kind === 'report') {
      const [table = '', field = ''] = f.key.split('.');
      const name = field === 'age' ? t('reports.age') : word('cdrField', cdrFieldLabelKey(table, field));
      return `${word('cdrTable', table)} · ${name}`;
    }
    return t(`factory.t0Fields.${f.key}`, { defaultValue: f.key });
  };
}

/** One dataset: its facts and its fields with their fill rates. */
function DetailDrawer({ target, onClose }: { target: DataFactoryDataset | null; onClose: () => void }) {
  const { t } = useTranslation(REPORTS_NS);
  const word = useLabel();
  const sourceWords = useSourceWords();
  const fieldWords = useFieldWords();
  const q = useQuery({
    queryKey: ['data-factory-detail', target?.kind, target?.sourceId],
    queryFn: () => dataFactoryApi.detail(target!.kind, target!.sourceId),
    enabled: !!target,
  });
  const d = q.data;
  return (
    <Drawer
      open={!!target}
      onClose={onClose}
      width={720}
      destroyOnHidden
      title={target?.name}
      data-testid="data-factory-detail"
    >
      {q.isError ? (
        <Alert type="error" showIcon message={q.error.message} />
      ) : (
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          <Descriptions size="small" column={2} bordered title={t('factory.facts')}>
            <Descriptions.Item label={t('factory.kind')}>
              {target && word('dataFactoryKind', target.kind)}
            </Descriptions.Item>
            <Descriptions.Item label={t('factory.source')}>
              {target && sourceWords(target.source)}
            </Descriptions.Item>
            <Descriptions.Item label={t('factory.rows')}>{d?.rows ?? t('factory.notMade')}</Descriptions.Item>
            <Descriptions.Item label={t('factory.patients')}>
              {d?.patients ?? t('factory.notMade')}
            </Descriptions.Item>
            <Descriptions.Item label={t('factory.refreshedAt')}>
              {when(d?.refreshedAt ?? null) ?? t('factory.notMade')}
            </Descriptions.Item>
            <Descriptions.Item label={t('common.owner')}>{d?.owner ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('factory.steward')}>{d?.entry?.steward || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('factory.tags')}>
              {d?.entry?.tags.length ? d.entry.tags.map((x) => <Tag key={x}>{x}</Tag>) : '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('common.description')} span={2}>
              {d?.entry?.description || '—'}
            </Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5}>{t('factory.fields')}</Typography.Title>
          <Table<DataFactoryField>
            size="small"
            rowKey="key"
            loading={q.isLoading}
            data-testid="data-factory-fields"
            dataSource={d?.fields ?? []}
            pagination={false}
            locale={{ emptyText: <Empty description={t('factory.fieldsEmpty')} /> }}
            columns={[
              {
                title: t('reports.field'),
                key: 'key',
                render: (_, f) => (target ? fieldWords(target.kind, f) : f.key),
              },
              {
                title: t('factory.kind'),
                dataIndex: 'kind',
                render: (k: string) => t(`factory.fieldKinds.${k}`),
              },
              { title: t('factory.filled'), dataIndex: 'filled', align: 'right' },
              {
                title: t('factory.fillRate'),
                key: 'rate',
                width: 200,
                render: (_, f) => (
                  <Progress percent={percent(f.filled, d?.rows ?? 0)} size="small" format={(p) => `${p}%`} />
                ),
              },
            ]}
          />
        </Space>
      )}
    </Drawer>
  );
}

type CurationForm = { description?: string; tags?: string[]; steward?: string };

/**
 * 数据工厂目录 (`/data-lake/directory-dataFactory`): the app's derived datasets — T0 event results,
 * disease libraries, research datasets, saved reports — with their facts, and the curation people
 * add over them. The raw CDR tables are 目录浏览's.
 */
export default function DataFactory() {
  const { t } = useTranslation(REPORTS_NS);
  const { message } = App.useApp();
  const word = useLabel();
  const can = useHasAction();
  const sourceWords = useSourceWords();
  const [kind, setKind] = useState<DataFactoryKind | undefined>();
  const [keyword, setKeyword] = useState('');
  const [viewing, setViewing] = useState<DataFactoryDataset | null>(null);
  const [curating, setCurating] = useState<DataFactoryDataset | null>(null);
  const [form] = Form.useForm<CurationForm>();
  const list = useQuery({
    queryKey: ['data-factory', kind, keyword],
    queryFn: () => dataFactoryApi.list({ ...(kind ? { kind } : {}), ...(keyword ? { keyword } : {}) }),
  });
  const filtered = !!kind || !!keyword;

  const saveCuration = async () => {
    if (!curating) return;
    const v = await form.validateFields();
    const body = { description: v.description ?? '', tags: v.tags ?? [], steward: v.steward ?? '' };
    const entry = curating.entry;
    await saveThen(
      message,
      () =>
        entry
          ? dataFactoryApi.edit(entry.id, body)
          : dataFactoryApi.add({ kind: curating.kind, sourceId: curating.sourceId, ...body }),
      t('common.saved'),
      () => {
        setCurating(null);
        return list.refetch();
      },
    );
  };

  return (
    <Card title={t('factory.title')} data-testid="data-factory">
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('factory.hint')}</Typography.Text>
        <Space wrap>
          <Select<DataFactoryKind>
            allowClear
            style={{ width: 180 }}
            placeholder={t('factory.allKinds')}
            aria-label={t('factory.kind')}
            value={kind}
            onChange={(k) => setKind(k)}
            options={DATA_FACTORY_KINDS.map((k) => ({ value: k, label: word('dataFactoryKind', k) }))}
          />
          <Input.Search
            allowClear
            style={{ width: 280 }}
            placeholder={t('common.search')}
            onSearch={(v) => setKeyword(v.trim())}
          />
        </Space>
        {list.isError ? (
          <Alert type="error" showIcon message={list.error.message} data-testid="data-factory-error" />
        ) : (
          <Table<DataFactoryDataset>
            rowKey={(r) => `${r.kind}:${r.sourceId}`}
            loading={list.isLoading}
            dataSource={list.data?.items ?? []}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            scroll={{ x: 'max-content' }}
            locale={{
              emptyText: <Empty description={filtered ? t('factory.noMatch') : t('factory.empty')} />,
            }}
            columns={[
              {
                title: t('common.name'),
                dataIndex: 'name',
                render: (_, r) => (
                  <Space direction="vertical" size={2}>
                    <Typography.Text strong>{r.name}</Typography.Text>
                    {r.entry?.description && (
                      <Typography.Text type="secondary" ellipsis style={{ maxWidth: 300 }}>
                        {r.entry.description}
                      </Typography.Text>
                    )}
                    {!!r.entry?.tags.length && (
                      <Space size={[0, 4]} wrap>
                        {r.entry.tags.map((x) => (
                          <Tag key={x}>{x}</Tag>
                        ))}
                      </Space>
                    )}
                  </Space>
                ),
              },
              {
                title: t('factory.kind'),
                dataIndex: 'kind',
                render: (k: DataFactoryKind) => word('dataFactoryKind', k),
              },
              { title: t('factory.source'), dataIndex: 'source', render: (s: string) => sourceWords(s) },
              {
                title: t('factory.rows'),
                dataIndex: 'rows',
                align: 'right',
                render: (v: number | null) =>
                  v === null ? (
                    <Typography.Text type="secondary">{t('factory.notMade')}</Typography.Text>
                  ) : (
                    v.toLocaleString()
                  ),
              },
              {
                title: t('factory.patients'),
                dataIndex: 'patients',
                align: 'right',
                render: (v: number | null) => (v === null ? '—' : v.toLocaleString()),
              },
              {
                title: t('factory.refreshedAt'),
                dataIndex: 'refreshedAt',
                render: (v: string | null) => when(v) ?? '—',
              },
              { title: t('factory.steward'), key: 'steward', render: (_, r) => r.entry?.steward || '—' },
              {
                title: t('common.actions'),
                key: 'actions',
                fixed: 'right',
                render: (_, r) => (
                  <Space size={0} wrap>
                    {can(MENU, 'get') && (
                      <Button type="link" size="small" onClick={() => setViewing(r)}>
                        {t('factory.detail')}
                      </Button>
                    )}
                    {can(MENU, r.entry ? 'edit' : 'add') && (
                      <Button
                        type="link"
                        size="small"
                        onClick={() => {
                          form.setFieldsValue({
                            description: r.entry?.description ?? '',
                            tags: r.entry?.tags ?? [],
                            steward: r.entry?.steward ?? '',
                          });
                          setCurating(r);
                        }}
                      >
                        {r.entry ? t('common.edit') : t('factory.curate')}
                      </Button>
                    )}
                    {r.entry && can(MENU, 'delete') && (
                      <Popconfirm
                        title={t('factory.confirmRemove', { name: r.name })}
                        onConfirm={async () => {
                          await dataFactoryApi.remove(r.entry!.id);
                          message.success(t('factory.removed'));
                          await list.refetch();
                        }}
                      >
                        <Button type="link" size="small" danger>
                          {t('factory.removeEntry')}
                        </Button>
                      </Popconfirm>
                    )}
                  </Space>
                ),
              },
            ]}
          />
        )}
      </Space>
      <Modal
        open={!!curating}
        title={`${curating?.entry ? t('factory.editEntry') : t('factory.addEntry')} · ${curating?.name ?? ''}`}
        onCancel={() => setCurating(null)}
        onOk={saveCuration}
        destroyOnHidden
        forceRender
      >
        <Form form={form} layout="vertical">
          <Form.Item name="description" label={t('common.description')} rules={[textRule(currentLocale())]}>
            <Input.TextArea rows={3} maxLength={DATA_FACTORY_DESCRIPTION_MAX} />
          </Form.Item>
          <Form.Item name="tags" label={t('factory.tags')} extra={t('factory.tagsHint')}>
            <Select
              mode="tags"
              open={false}
              suffixIcon={null}
              tokenSeparators={[',', '，']}
              aria-label={t('factory.tags')}
            />
          </Form.Item>
          <Form.Item name="steward" label={t('factory.steward')} rules={[textRule(currentLocale())]}>
            <Input maxLength={50} />
          </Form.Item>
        </Form>
      </Modal>
      <DetailDrawer target={viewing} onClose={() => setViewing(null)} />
    </Card>
  );
}
