import type { DataModelSummary } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Empty, Input, Select, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { Authorized, useHasAction } from '../../components/Authorized';
import { DeleteLink } from '../../components/DeleteLink';
import { QueryTable } from '../../components/table/QueryTable';
import { dataModelsApi } from './api';
import { DATA_MODELS_NS } from './i18n';
import { useModelColumns } from './OwnModels';

const MENU = 'DataModelManagements';

/** 导出 SDTM: a research subject's data as SDTM datasets and define.xml. */
function SdtmExport({ models }: { models: DataModelSummary[] }) {
  const { t } = useTranslation(DATA_MODELS_NS);
  const { message } = App.useApp();
  const [subjectId, setSubjectId] = useState<number | undefined>();
  const [modelId, setModelId] = useState<number | undefined>();
  const [busy, setBusy] = useState(false);
  const subjects = useQuery({ queryKey: ['sdtm-export-subjects'], queryFn: dataModelsApi.exportSubjects });
  const preview = useQuery({
    queryKey: ['sdtm-export-preview', subjectId, modelId],
    queryFn: () => dataModelsApi.exportPreview(subjectId!, modelId),
    enabled: subjectId !== undefined,
  });
  const sdtmModels = models.filter((m) => m.standard === 'SDTMIG');
  const p = preview.data;
  return (
    <Card title={t('manage.exportTitle')} data-testid="sdtm-export" size="small">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('manage.exportHint')}</Typography.Text>
        {subjects.isError && <Alert type="error" showIcon message={subjects.error.message} />}
        <Space wrap>
          <Select
            data-testid="sdtm-subject"
            style={{ minWidth: 280 }}
            placeholder={t('manage.pickSubject')}
            showSearch
            optionFilterProp="label"
            loading={subjects.isLoading}
            value={subjectId}
            onChange={setSubjectId}
            options={(subjects.data?.items ?? []).map((s) => ({
              value: s.id,
              label: `${s.name} · ${t('manage.patients', { count: s.patients })}`,
            }))}
          />
          <Select
            data-testid="sdtm-model"
            style={{ minWidth: 280 }}
            value={modelId ?? 0}
            onChange={(v) => setModelId(v || undefined)}
            options={[
              { value: 0, label: t('manage.sdtmig') },
              ...sdtmModels.map((m) => ({ value: m.id, label: `${m.name} v${m.version}` })),
            ]}
          />
          <Button
            type="primary"
            disabled={!p?.datasets.length}
            loading={busy}
            data-testid="sdtm-download"
            onClick={async () => {
              setBusy(true);
              try {
                await dataModelsApi.exportZip(subjectId!, modelId, `sdtm-${p!.studyId}.zip`);
              } catch (e) {
                message.error((e as Error).message);
              } finally {
                setBusy(false);
              }
            }}
          >
            {t('manage.download')}
          </Button>
        </Space>
        {preview.isError && <Alert type="error" showIcon message={preview.error.message} />}
        {p && (
          <>
            <Typography.Text>
              {t('manage.studyId', { id: p.studyId, patients: p.patients, model: p.modelName })}
            </Typography.Text>
            <Table
              rowKey="name"
              size="small"
              data-testid="sdtm-preview"
              pagination={false}
              dataSource={p.datasets}
              locale={{ emptyText: <Empty description={t('manage.noDatasets')} /> }}
              columns={[
                { title: t('manage.dataset'), dataIndex: 'name' },
                { title: t('manage.label'), dataIndex: 'label' },
                { title: t('manage.rows'), dataIndex: 'rows' },
                { title: t('manage.variables'), dataIndex: 'variables' },
              ]}
            />
          </>
        )}
      </Space>
    </Card>
  );
}

/** 数据模型管理 (`/data-model/data-model-managements`): every model of the app, the CDISC models, the SDTM export. */
export default function Managements() {
  const { t } = useTranslation(DATA_MODELS_NS);
  const word = useLabel();
  const can = useHasAction();
  const modelColumns = useModelColumns();
  const [q, setQ] = useState('');
  const list = useQuery({ queryKey: ['data-models-all', q], queryFn: () => dataModelsApi.all(q) });
  const standards = useQuery({
    queryKey: ['data-model-standards'],
    queryFn: dataModelsApi.standards,
    enabled: can('DataModelCdisc', 'query'),
  });
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <Card title={t('manage.title')} data-testid="data-model-managements">
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          <Typography.Text type="secondary">{t('manage.hint')}</Typography.Text>
          {standards.data && (
            <Descriptions size="small" bordered column={1} title={t('manage.builtIn')}>
              {standards.data.items.map((s) => (
                <Descriptions.Item key={s.key} label={word('dataModelStandard', s.key)}>
                  {s.standard} {s.version} ·{' '}
                  {t('cdisc.counts', { tables: s.tables, variables: s.variables, codelists: s.codelists })} ·{' '}
                  {s.ctVersion}
                </Descriptions.Item>
              ))}
            </Descriptions>
          )}
          <Input.Search
            allowClear
            placeholder={t('manage.search')}
            style={{ maxWidth: 320 }}
            onSearch={setQ}
          />
          <QueryTable<DataModelSummary>
            query={list}
            empty={t('manage.empty')}
            rowKey="id"
            size="middle"
            dataSource={list.data?.items ?? []}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            columns={[
              {
                title: t('manage.kind'),
                dataIndex: 'kind',
                render: (v: string) => word('dataModelKind', v),
              },
              ...modelColumns,
              {
                title: t('actions'),
                key: 'actions',
                render: (_, m) =>
                  can(MENU, 'delete') && (
                    <DeleteLink
                      name={`${m.name} v${m.version}`}
                      onDelete={() => dataModelsApi.removeAny(m.id)}
                      onDeleted={() => list.refetch()}
                    />
                  ),
              },
            ]}
          />
        </Space>
      </Card>
      <Authorized apiId={`${MENU}.export`}>
        <SdtmExport models={list.data?.items ?? []} />
      </Authorized>
    </Space>
  );
}
