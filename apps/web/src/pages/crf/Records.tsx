import { type ActionType, type ProColumns, ProTable } from '@ant-design/pro-components';
import { CRF_REASON_MAX } from '@crdp/crf';
import { useQuery } from '@tanstack/react-query';
import {
  Form as AntForm,
  App,
  Button,
  Card,
  Input,
  Modal,
  Select,
  Space,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { Authorized } from '../../components/Authorized';
import { CRF_NS } from '../../components/crf/i18n';
import { LinkButton } from '../../components/crf/LinkButton';
import { useNarrowTable } from '../../components/table/narrow';
import { proPage } from '../../components/table/paging';
import { useTabObject } from '../../shell/useTabs';
import { type CrfRecordRow, crfApi } from './api';
import { RecordEditor, StatusTag } from './RecordEditor';

/** Records of a form (`?formId=`), a new record (`&record=new`) or one record (`&recordId=`). */
export default function Records() {
  const { t } = useTranslation(CRF_NS);
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const formId = Number(params.get('formId')) || null;
  const recordId = Number(params.get('recordId')) || null;
  const isNew = params.get('record') === 'new';
  const table = useRef<ActionType>(null);
  const { message } = App.useApp();
  const [deleting, setDeleting] = useState<CrfRecordRow | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [deleteForm] = AntForm.useForm<{ reason: string }>();
  const narrowTable = useNarrowTable();
  const forms = useQuery({
    queryKey: ['crf', 'forms', 'published'],
    queryFn: () => crfApi.forms({ page: 1, size: 500, status: 'active' }),
  });
  const go = (q: Record<string, string | number>) =>
    setParams(Object.fromEntries(Object.entries(q).map(([k, v]) => [k, String(v)])));

  const picker = (
    <Select
      style={{ width: 280, maxWidth: '100%' }}
      placeholder={t('records.pickForm')}
      value={formId ?? undefined}
      options={(forms.data?.items ?? [])
        .filter((f) => f.latestVersion > 0)
        .map((f) => ({ value: f.id, label: `${f.name} (v${f.latestVersion})` }))}
      onChange={(v) => go({ formId: v })}
    />
  );

  const current = forms.data?.items.find((f) => f.id === formId);
  // The list of one form's records names the form in its tab (the editor names form and version).
  useTabObject(formId && !(isNew || recordId) ? current?.name : undefined);
  if (formId && (isNew || recordId))
    return (
      <Card
        title={
          <Space>
            <LinkButton onClick={() => go({ formId })}>{t('records.back')}</LinkButton>
            {/* The form being filled, by name (the route's own title is the same for every form). */}
            {current && (
              <span data-testid="crf-fill-title">
                {current.name}
                {isNew && ` (v${current.latestVersion})`}
              </span>
            )}
          </Space>
        }
      >
        <RecordEditor
          formId={formId}
          recordId={recordId ?? undefined}
          onSaved={(r) => {
            if (!recordId) navigate(`/crf-management/hepatopathyPoc?formId=${formId}&recordId=${r.id}`);
          }}
        />
      </Card>
    );

  const confirmDelete = async () => {
    if (!deleting) return;
    const { reason } = await deleteForm.validateFields();
    setDeleteBusy(true);
    try {
      await crfApi.remove(deleting.id, reason.trim());
      message.success(t('records.deleted'));
      setDeleting(null);
      table.current?.reload();
    } finally {
      setDeleteBusy(false);
    }
  };

  const deleteDialog = (
    <Modal
      open={!!deleting}
      title={t('records.deleteTitle', { id: deleting?.id ?? '' })}
      okText={t('records.delete')}
      okButtonProps={{ danger: true }}
      confirmLoading={deleteBusy}
      onCancel={() => setDeleting(null)}
      onOk={confirmDelete}
      destroyOnHidden
    >
      <p>{t('records.deleteHint')}</p>
      <AntForm form={deleteForm} layout="vertical" preserve={false}>
        <AntForm.Item
          name="reason"
          label={t('records.deleteReason')}
          rules={[{ required: true, whitespace: true, message: t('records.deleteReasonRequired') }]}
        >
          <Input.TextArea autoSize={{ minRows: 2 }} maxLength={CRF_REASON_MAX} />
        </AntForm.Item>
      </AntForm>
    </Modal>
  );

  const idColumn: ProColumns<CrfRecordRow> = { title: 'ID', dataIndex: 'id', width: 80 };
  return (
    <>
      {deleteDialog}
      <ProTable<CrfRecordRow>
        rowKey="id"
        actionRef={table}
        headerTitle={<Space>{picker}</Space>}
        search={false}
        params={{ formId }}
        pagination={{ defaultPageSize: 20 }}
        request={async (p) => {
          if (!formId) return { data: [], total: 0, success: true };
          const r = await crfApi.records(formId, proPage(p));
          return { data: r.items, total: r.total, success: true };
        }}
        toolBarRender={() => [
          formId ? (
            <Authorized key="add" apiId="CrfHepatopathyPoc.add">
              <Button type="primary" onClick={() => go({ formId, record: 'new' })}>
                {t('records.add')}
              </Button>
            </Authorized>
          ) : null,
        ]}
        {...narrowTable}
        columns={[
          // On a phone the subject comes first: the column that stays in sight (useNarrowTable).
          ...(narrowTable.className ? [] : [idColumn]),
          {
            title: t('records.subject'),
            dataIndex: 'subjectCode',
            // The patient by name with the MRN; a record with a code only says it is not linked.
            render: (_, r) =>
              r.patientId ? (
                <span>
                  {r.patientName}
                  <Typography.Text type="secondary" style={{ marginLeft: 6 }}>
                    {r.patientMrn}
                  </Typography.Text>
                </span>
              ) : (
                <Space size={4}>
                  {r.subjectCode}
                  <Tag color="warning">{t('subject.unlinked')}</Tag>
                </Space>
              ),
          },
          ...(narrowTable.className ? [idColumn] : []),
          { title: t('records.version'), dataIndex: 'version', render: (_, r) => `v${r.version}` },
          {
            title: t('records.status'),
            dataIndex: 'status',
            render: (_, r) => <StatusTag status={r.status} />,
          },
          {
            title: t('records.updatedBy'),
            dataIndex: 'updatedByName',
            // A free-access link acts as 'free:<key>': said in words.
            render: (_, r) =>
              r.updatedByName.startsWith('free:') ? t('records.byFreeLink') : r.updatedByName,
          },
          { title: t('records.updatedAt'), dataIndex: 'updatedAt', valueType: 'dateTime' },
          {
            title: t('list.actions'),
            valueType: 'option',
            render: (_, r) => (
              <Space size="small">
                <LinkButton onClick={() => go({ formId: r.formId, recordId: r.id })}>
                  {t('records.open')}
                </LinkButton>
                <Authorized apiId="CrfHepatopathyPoc.delete">
                  {r.status === 'locked' ? (
                    <Tooltip title={t('records.deleteLocked')}>
                      <Button type="link" size="small" danger disabled>
                        {t('records.delete')}
                      </Button>
                    </Tooltip>
                  ) : (
                    <Button
                      type="link"
                      size="small"
                      danger
                      data-testid={`crf-delete-${r.id}`}
                      onClick={() => {
                        deleteForm.resetFields();
                        setDeleting(r);
                      }}
                    >
                      {t('records.delete')}
                    </Button>
                  )}
                </Authorized>
              </Space>
            ),
          },
        ]}
      />
    </>
  );
}
