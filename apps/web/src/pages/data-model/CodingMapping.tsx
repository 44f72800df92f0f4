import {
  ModalForm,
  ProForm,
  ProFormCheckbox,
  ProFormDependency,
  ProFormText,
} from '@ant-design/pro-components';
import type { CodedModelVariable, CodingMapping as Mapping } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Empty,
  Input,
  List,
  Row,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { useHasAction } from '../../components/Authorized';
import { saveThen } from '../../components/form/server-errors';
import { RemoteSelect } from '../../components/RemoteSelect';
import { dataModelsApi, modelMappingsApi } from './api';
import { DATA_MODELS_NS } from './i18n';

const MENU = 'DataModelCodingMapping';
type MapForm = { term: string; noCode?: boolean; code?: string };

/** 编码映射关系 (`/data-model/coding-mapping-relationship`): local → standard codes per model variable. */
export default function CodingMapping() {
  const { t } = useTranslation(DATA_MODELS_NS);
  const { message } = App.useApp();
  const word = useLabel();
  const can = useHasAction();
  const [model, setModel] = useState<string>('standard:sdtmig');
  const [chosen, setChosen] = useState<CodedModelVariable | null>(null);
  const [page, setPage] = useState(1);
  const [q, setQ] = useState('');
  const [editing, setEditing] = useState<Mapping | 'new' | null>(null);
  const models = useQuery({
    queryKey: ['data-models-all'],
    queryFn: () => dataModelsApi.all(),
    enabled: can('DataModelManagements', 'query'),
  });
  const vars = useQuery({
    queryKey: ['coded-variables', model],
    queryFn: () => modelMappingsApi.variables(model),
  });
  const kind = chosen?.codingKind;
  const mappings = useQuery({
    queryKey: ['model-mappings', kind, page, q],
    queryFn: () => modelMappingsApi.mappings(kind!, { page, size: 20, q: q || undefined }),
    enabled: !!kind,
  });
  const existing = editing && editing !== 'new' ? editing : null;

  return (
    <Card title={t('mapping.title')} data-testid="coding-mapping">
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('mapping.hint')}</Typography.Text>
        <Space>
          <Typography.Text>{t('mapping.model')}</Typography.Text>
          <Select
            data-testid="mapping-model"
            style={{ minWidth: 300 }}
            value={model}
            onChange={(v) => {
              setModel(v);
              setChosen(null);
            }}
            options={[
              { value: 'standard:sdtmig', label: word('dataModelStandard', 'sdtmig') },
              { value: 'standard:cdashig', label: word('dataModelStandard', 'cdashig') },
              ...(models.data?.items ?? [])
                .filter((m) => m.latest)
                .map((m) => ({ value: `model:${m.id}`, label: `${m.name} v${m.version}` })),
            ]}
          />
        </Space>
        <Row gutter={16}>
          <Col xs={24} md={8}>
            {vars.isError && <Alert type="error" showIcon message={vars.error.message} />}
            <List<CodedModelVariable>
              bordered
              size="small"
              loading={vars.isLoading}
              dataSource={vars.data?.items ?? []}
              locale={{ emptyText: <Empty description={t('mapping.noVariables')} /> }}
              renderItem={(v) => {
                const key = `${v.table}.${v.variable}`;
                const active = chosen && `${chosen.table}.${chosen.variable}` === key;
                return (
                  <List.Item
                    data-testid={`coded-variable-${key}`}
                    style={{ cursor: 'pointer', background: active ? 'rgba(22,119,255,0.08)' : undefined }}
                    onClick={() => {
                      setChosen(v);
                      setPage(1);
                    }}
                  >
                    <List.Item.Meta
                      title={
                        <Space>
                          <Typography.Text code>{key}</Typography.Text>
                          <Tag color="blue">{word('codingKind', v.codingKind)}</Tag>
                        </Space>
                      }
                      description={`${v.label} · ${t('mapping.mapped', { mapped: v.mapped, noCode: v.noCode })}`}
                    />
                  </List.Item>
                );
              }}
            />
          </Col>
          <Col xs={24} md={16}>
            {!chosen ? (
              <Empty description={t('mapping.pickVariable')} />
            ) : (
              <Space direction="vertical" style={{ width: '100%' }}>
                <Space style={{ justifyContent: 'space-between', width: '100%' }} wrap>
                  <Typography.Title level={5} style={{ margin: 0 }}>
                    {t('mapping.mappingsOf', {
                      variable: `${chosen.table}.${chosen.variable}`,
                      kind: word('codingKind', chosen.codingKind),
                    })}
                  </Typography.Title>
                  <Space>
                    <Input.Search
                      allowClear
                      placeholder={t('mapping.search')}
                      onSearch={(v) => {
                        setQ(v);
                        setPage(1);
                      }}
                    />
                    {can(MENU, 'edit') && (
                      <Button type="primary" onClick={() => setEditing('new')} data-testid="mapping-add">
                        {t('mapping.add')}
                      </Button>
                    )}
                  </Space>
                </Space>
                {mappings.isError && <Alert type="error" showIcon message={mappings.error.message} />}
                <Table<Mapping>
                  rowKey="id"
                  size="small"
                  data-testid="mapping-table"
                  loading={mappings.isLoading}
                  dataSource={mappings.data?.items ?? []}
                  locale={{ emptyText: <Empty description={t('mapping.empty')} /> }}
                  pagination={{
                    current: page,
                    pageSize: 20,
                    total: mappings.data?.total ?? 0,
                    onChange: setPage,
                    hideOnSinglePage: true,
                  }}
                  columns={[
                    { title: t('mapping.term'), dataIndex: 'term' },
                    {
                      title: t('mapping.code'),
                      dataIndex: 'code',
                      render: (v: string | null) => v ?? <Tag>{t('mapping.noCode')}</Tag>,
                    },
                    { title: t('mapping.display'), dataIndex: 'displayZh' },
                    { title: t('mapping.rows'), dataIndex: 'rows' },
                    {
                      title: t('mapping.review'),
                      dataIndex: 'review',
                      render: (v: string) => word('codingReview', v),
                    },
                    { title: t('mapping.codedBy'), dataIndex: 'codedByName' },
                    {
                      title: t('actions'),
                      key: 'actions',
                      render: (_, m) => (
                        <Space size={0}>
                          {can(MENU, 'edit') && (
                            <Button type="link" size="small" onClick={() => setEditing(m)}>
                              {t('edit')}
                            </Button>
                          )}
                          {can(MENU, 'delete') && (
                            <Button
                              type="link"
                              size="small"
                              danger
                              onClick={async () => {
                                await modelMappingsApi.remove(m.kind, m.term);
                                message.success(t('mapping.removed'));
                                await Promise.all([mappings.refetch(), vars.refetch()]);
                              }}
                            >
                              {t('mapping.remove')}
                            </Button>
                          )}
                        </Space>
                      ),
                    },
                  ]}
                />
              </Space>
            )}
          </Col>
        </Row>
      </Space>
      <ModalForm<MapForm>
        title={existing ? t('mapping.editMapping') : t('mapping.add')}
        open={!!editing && !!kind}
        width={560}
        modalProps={{ destroyOnHidden: true, onCancel: () => setEditing(null) }}
        initialValues={
          existing ? { term: existing.term, code: existing.code ?? undefined, noCode: !existing.code } : {}
        }
        onFinish={async (v) =>
          saveThen(
            message,
            () => modelMappingsApi.set(kind!, v.term, v.noCode ? null : (v.code ?? null)),
            t('saved'),
            async () => {
              setEditing(null);
              await Promise.all([mappings.refetch(), vars.refetch()]);
            },
          )
        }
      >
        <ProFormText
          name="term"
          label={t('mapping.term')}
          disabled={!!existing}
          rules={[{ required: true, whitespace: true, message: t('required') }]}
        />
        <ProFormCheckbox name="noCode">{t('mapping.noCode')}</ProFormCheckbox>
        <ProFormDependency name={['noCode']}>
          {({ noCode }) =>
            !noCode && (
              <ProForm.Item
                name="code"
                label={t('mapping.code')}
                rules={[{ required: true, message: t('required') }]}
              >
                <RemoteSelect
                  data-testid="mapping-code"
                  placeholder={t('mapping.searchCode')}
                  queryKey={['mapping-codes', kind]}
                  selected={
                    existing?.code
                      ? { value: existing.code, label: `${existing.code} ${existing.displayZh}` }
                      : null
                  }
                  search={async (k) =>
                    k
                      ? (await modelMappingsApi.codes(kind!, k)).map((c) => ({
                          value: c.code,
                          label: `${c.code} ${c.displayZh}`,
                        }))
                      : []
                  }
                />
              </ProForm.Item>
            )
          }
        </ProFormDependency>
      </ModalForm>
    </Card>
  );
}
