import { DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { type ActionType, ProTable } from '@ant-design/pro-components';
import { App, Button, Card, Popconfirm, Space, Table, Tag, Typography, Upload } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Authorized, useHasAction } from '../../components/Authorized';
import { CutText } from '../../components/CutText';
import { ImportReportModal } from '../../components/ImportReportModal';
import { proPage } from '../../components/table/paging';
import { downloadWithSession } from '../crf/download';
import {
  type BuiltinMapping,
  type ImportReport,
  MAPPING_KINDS,
  type Mapping,
  type MappingKind,
  omopApi,
} from './api';
import { OMOP_NS } from './i18n';
import { MappingForm } from './MappingForm';

const PERM = 'OmopMappingManage';

/** mapping-manage: the app's source-to-concept maps, their CSV import and export, and the built-in maps. */
export default function Mappings() {
  const { t } = useTranslation(OMOP_NS);
  const { message } = App.useApp();
  const can = useHasAction();
  const table = useRef<ActionType>(null);
  const [builtin, setBuiltin] = useState<BuiltinMapping[]>([]);
  const [report, setReport] = useState<ImportReport | null>(null);
  const reload = () => table.current?.reload();
  const kindOptions = Object.fromEntries(MAPPING_KINDS.map((k) => [k, { text: t(`kinds.${k}`) }]));

  const upload = async (file: File) => {
    try {
      const r = await omopApi.importMappings({ fileName: file.name, text: await file.text() });
      setReport(r);
      if (r.stored) reload();
    } catch {
      // the client's interceptor already showed the reason
    }
    return false;
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <ProTable<Mapping, { kind?: MappingKind; keyword?: string }>
        rowKey="id"
        actionRef={table}
        headerTitle={t('mappings.title')}
        search={{ labelWidth: 'auto' }}
        pagination={{ defaultPageSize: 20, showSizeChanger: true }}
        request={async (params) => {
          const page = await omopApi.mappings({
            ...proPage(params),
            ...(params.kind ? { kind: params.kind } : {}),
            ...(params.keyword ? { keyword: params.keyword } : {}),
          });
          setBuiltin(page.builtin);
          return { data: page.items, total: page.total, success: true };
        }}
        toolBarRender={() => [
          <Authorized key="add" apiId={`${PERM}.add`}>
            <MappingForm
              onDone={reload}
              trigger={
                <Button type="primary" icon={<PlusOutlined />}>
                  {t('mappings.create')}
                </Button>
              }
            />
          </Authorized>,
          <Authorized key="import" apiId={`${PERM}.import`}>
            <Upload accept=".csv,text/csv" showUploadList={false} beforeUpload={upload}>
              <Button icon={<UploadOutlined />}>{t('mappings.import')}</Button>
            </Upload>
          </Authorized>,
          <Authorized key="export" apiId={`${PERM}.export`}>
            <Button
              icon={<DownloadOutlined />}
              onClick={() => downloadWithSession(omopApi.exportUrl(), 'omop-mappings.csv')}
            >
              {t('mappings.export')}
            </Button>
          </Authorized>,
        ]}
        tableExtraRender={() => (
          <Typography.Text type="secondary" style={{ display: 'block', padding: '0 4px' }}>
            {t('mappings.importHint')}
          </Typography.Text>
        )}
        columns={[
          {
            title: t('mappings.kind'),
            dataIndex: 'kind',
            valueType: 'select',
            valueEnum: kindOptions,
            width: 120,
            render: (_, r) => <Tag>{t(`kinds.${r.kind}`)}</Tag>,
          },
          {
            title: t('mappings.keyword'),
            dataIndex: 'keyword',
            hideInTable: true,
            fieldProps: { placeholder: t('mappings.keywordHint') },
          },
          { title: t('mappings.sourceCode'), dataIndex: 'sourceCode', search: false, copyable: true },
          { title: t('mappings.conceptId'), dataIndex: 'conceptId', search: false, width: 140 },
          { title: t('mappings.conceptName'), dataIndex: 'conceptName', search: false },
          {
            title: t('mappings.note'),
            dataIndex: 'note',
            search: false,
            render: (_, r) => <CutText text={r.note} />,
          },
          {
            title: t('mappings.updated'),
            dataIndex: 'updatedAt',
            valueType: 'dateTime',
            search: false,
            width: 170,
          },
          {
            title: '',
            valueType: 'option',
            width: 130,
            render: (_, r) => (
              <Space>
                {can(PERM, 'edit') && (
                  <MappingForm
                    mapping={r}
                    onDone={reload}
                    trigger={
                      <Button size="small" type="link">
                        {t('mappings.edit')}
                      </Button>
                    }
                  />
                )}
                {can(PERM, 'delete') && (
                  <Popconfirm
                    title={t('mappings.confirmDelete', { kind: t(`kinds.${r.kind}`), code: r.sourceCode })}
                    onConfirm={async () => {
                      await omopApi.removeMapping(r.id);
                      message.success(t('mappings.deleted'));
                      reload();
                    }}
                  >
                    <Button size="small" type="link" danger>
                      {t('mappings.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Card
        size="small"
        title={t('mappings.builtinTitle')}
        extra={<Typography.Text type="secondary">{t('mappings.builtinHint')}</Typography.Text>}
      >
        <Table<BuiltinMapping>
          size="small"
          rowKey={(b) => `${b.kind}-${b.sourceCode}`}
          dataSource={builtin}
          pagination={false}
          columns={[
            {
              title: t('mappings.kind'),
              dataIndex: 'kind',
              render: (k: string) => <Tag>{t(`kinds.${k}`)}</Tag>,
            },
            { title: t('mappings.sourceCode'), dataIndex: 'sourceCode' },
            { title: t('mappings.conceptId'), dataIndex: 'conceptId' },
            { title: t('mappings.conceptName'), dataIndex: 'conceptName' },
            {
              title: '',
              dataIndex: 'overridden',
              render: (o: boolean) =>
                o ? (
                  <Tag color="warning">{t('mappings.overridden')}</Tag>
                ) : (
                  <Tag color="success">{t('mappings.inEffect')}</Tag>
                ),
            },
          ]}
        />
      </Card>
      <ImportReportModal report={report} onClose={() => setReport(null)} />
    </Space>
  );
}
