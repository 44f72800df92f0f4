import {
  type ActionType,
  ModalForm,
  ProFormDependency,
  type ProFormInstance,
  ProFormRadio,
  ProFormSelect,
  ProFormText,
  ProTable,
} from '@ant-design/pro-components';
import { CRF_CATEGORY_MAX, CRF_FORM_NAME_MAX, type CrfFormStatus } from '@crdp/crf';
import { App, Button, Drawer, Popconfirm, Space, Table, Tag, Typography, Upload } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { currentLocale } from '../../app/i18n';
import { textRule } from '../../app/text-rule';
import { Authorized } from '../../components/Authorized';
import { CutText } from '../../components/CutText';
import { CRF_NS } from '../../components/crf/i18n';
import { LinkButton } from '../../components/crf/LinkButton';
import { useNarrowTable } from '../../components/table/narrow';
import { proPage } from '../../components/table/paging';
import { type CrfFormDetail, type CrfFormSummary, crfApi, exportUrl } from './api';
import { downloadWithSession } from './download';
import { ImportRecords } from './ImportRecords';

/** CRF list: create, copy, archive, import, export, versions, design, fill, free-access link. */
export default function FormList() {
  const { t } = useTranslation(CRF_NS);
  const narrowTable = useNarrowTable();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const table = useRef<ActionType>(null);
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [versions, setVersions] = useState<CrfFormDetail | null>(null);
  const [exporting, setExporting] = useState<CrfFormSummary | null>(null);
  const [importingRecords, setImportingRecords] = useState<CrfFormSummary | null>(null);
  const [importText, setImportText] = useState('');
  // The forms (FormDef) of a chosen ODM file: one of them is imported.
  const [odmForms, setOdmForms] = useState<Array<{ value: string; label: string }>>([]);
  const importForm = useRef<ProFormInstance>(null);

  return (
    <>
      <ProTable<CrfFormSummary>
        rowKey="id"
        actionRef={table}
        headerTitle={t('list.title')}
        search={{ labelWidth: 'auto' }}
        pagination={{ defaultPageSize: 10 }}
        request={async (p) => {
          const r = await crfApi.forms({
            ...proPage(p, 10),
            keyword: (p.name as string | undefined) || undefined,
            status: (p.status as CrfFormStatus | undefined) || undefined,
          });
          return { data: r.items, total: r.total, success: true };
        }}
        toolBarRender={() => [
          <Authorized key="import" apiId="CrfManagementList.import">
            <Button onClick={() => setImporting(true)}>{t('list.import')}</Button>
          </Authorized>,
          <Authorized key="add" apiId="CrfManagementList.add">
            <Button type="primary" onClick={() => setCreating(true)}>
              {t('list.add')}
            </Button>
          </Authorized>,
        ]}
        {...narrowTable}
        columns={[
          { title: t('list.name'), dataIndex: 'name', render: (_, r) => <CutText text={r.name} /> },
          {
            title: t('list.category'),
            dataIndex: 'category',
            search: false,
            render: (_, r) => <CutText text={r.category} limit={20} />,
          },
          {
            title: t('list.status'),
            dataIndex: 'status',
            valueType: 'select',
            valueEnum: { active: { text: t('list.active') }, archived: { text: t('list.archived') } },
            render: (_, f) =>
              f.status === 'active' ? (
                <Tag color="success">{t('list.active')}</Tag>
              ) : (
                <Tag>{t('list.archived')}</Tag>
              ),
          },
          {
            title: t('list.version'),
            dataIndex: 'latestVersion',
            search: false,
            render: (_, f) => (f.latestVersion ? `v${f.latestVersion}` : <Tag>{t('list.unpublished')}</Tag>),
          },
          { title: t('list.records'), dataIndex: 'records', search: false },
          { title: t('list.updatedAt'), dataIndex: 'updatedAt', valueType: 'dateTime', search: false },
          {
            title: t('list.actions'),
            valueType: 'option',
            render: (_, f) => (
              <Space size="small" wrap>
                <Authorized apiId="CrfHepatopathyPocEdit.edit">
                  <LinkButton onClick={() => navigate(`/crf-management/hepatopathyPoc/edit?id=${f.id}`)}>
                    {t('list.design')}
                  </LinkButton>
                  <LinkButton onClick={() => navigate(`/crf-management/hepatopathyPoc/editTable?id=${f.id}`)}>
                    {t('list.table')}
                  </LinkButton>
                </Authorized>
                {f.latestVersion > 0 && (
                  <LinkButton onClick={() => navigate(`/crf-management/hepatopathyPoc?formId=${f.id}`)}>
                    {t('list.fill')}
                  </LinkButton>
                )}
                <LinkButton onClick={async () => setVersions(await crfApi.form(f.id))}>
                  {t('list.versions')}
                </LinkButton>
                <Authorized apiId="CrfManagementList.add">
                  <LinkButton
                    onClick={async () => {
                      await crfApi.copy(f.id, t('list.copyName', { name: f.name }));
                      message.success(t('list.created'));
                      table.current?.reload();
                    }}
                  >
                    {t('list.copy')}
                  </LinkButton>
                </Authorized>
                <Authorized apiId="CrfManagementList.export">
                  <LinkButton onClick={() => setExporting(f)}>{t('list.export')}</LinkButton>
                </Authorized>
                {f.latestVersion > 0 && f.status === 'active' && (
                  <Authorized apiId="CrfManagementList.import">
                    <LinkButton onClick={() => setImportingRecords(f)}>{t('list.importRecords')}</LinkButton>
                  </Authorized>
                )}
                {f.latestVersion > 0 && (
                  <Authorized apiId="CrfManagementList.edit">
                    <LinkButton
                      onClick={async () => {
                        const link = await crfApi.freeLink(f.id);
                        const url = `${window.location.origin}${link.path}`;
                        modal.info({
                          title: t('list.link'),
                          width: 640,
                          content: (
                            <>
                              <p>{t('list.linkMade')}</p>
                              <Typography.Paragraph copyable code data-testid="free-link">
                                {url}
                              </Typography.Paragraph>
                            </>
                          ),
                        });
                      }}
                    >
                      {t('list.link')}
                    </LinkButton>
                  </Authorized>
                )}
                <Authorized apiId="CrfManagementList.delete">
                  <Popconfirm
                    // Says what archiving does: no new records; records, versions and exports stay.
                    title={t(f.status === 'active' ? 'list.archiveTitle' : 'list.restoreTitle', {
                      name: f.name,
                    })}
                    description={
                      <div style={{ maxWidth: 320 }}>
                        {t(f.status === 'active' ? 'list.archiveHint' : 'list.restoreHint')}
                      </div>
                    }
                    okText={f.status === 'active' ? t('list.archive') : t('list.restore')}
                    onConfirm={async () => {
                      await crfApi.archive(f.id, f.status === 'active');
                      table.current?.reload();
                    }}
                  >
                    <LinkButton>{f.status === 'active' ? t('list.archive') : t('list.restore')}</LinkButton>
                  </Popconfirm>
                </Authorized>
              </Space>
            ),
          },
        ]}
      />
      <ModalForm<{ name: string; category: string }>
        title={t('list.add')}
        open={creating}
        modalProps={{ destroyOnHidden: true, onCancel: () => setCreating(false) }}
        onFinish={async (v) => {
          const f = await crfApi.createForm({ name: v.name, category: v.category ?? '' });
          setCreating(false);
          navigate(`/crf-management/hepatopathyPoc/edit?id=${f.id}`);
          return true;
        }}
      >
        <ProFormText
          name="name"
          label={t('list.name')}
          rules={[{ required: true, whitespace: true, max: CRF_FORM_NAME_MAX }, textRule(currentLocale())]}
        />
        <ProFormText
          name="category"
          label={t('list.category')}
          rules={[{ max: CRF_CATEGORY_MAX }, textRule(currentLocale())]}
        />
      </ModalForm>
      <ModalForm<{ name: string; format: 'json' | 'redcap' | 'odm'; formOid?: string }>
        title={t('list.importTitle')}
        open={importing}
        formRef={importForm}
        initialValues={{ format: 'json' }}
        modalProps={{
          destroyOnHidden: true,
          onCancel: () => setImporting(false),
          afterClose: () => {
            setImportText('');
            setOdmForms([]);
          },
        }}
        onFinish={async (v) => {
          if (!importText) {
            message.error(t('list.importNoFile'));
            return false;
          }
          try {
            if (v.format === 'odm' && v.formOid === ALL_FORMS) {
              const r = await crfApi.importStudy({ content: importText });
              setImporting(false);
              table.current?.reload();
              const reports = r.forms.filter((f) => f.unsupported.length);
              if (reports.length || r.skipped.length)
                modal.warning({
                  title: t('list.importReport'),
                  width: 640,
                  content: (
                    <ul>
                      {reports.map((f) => (
                        <li key={f.formOid}>
                          {f.form.name}
                          <ul>
                            {f.unsupported.map((u) => (
                              <li key={u}>{u}</li>
                            ))}
                          </ul>
                        </li>
                      ))}
                      {r.skipped.length > 0 && (
                        <li>
                          {t('list.importSkipped')}
                          <ul>
                            {r.skipped.map((u) => (
                              <li key={u}>{u}</li>
                            ))}
                          </ul>
                        </li>
                      )}
                    </ul>
                  ),
                });
              message.success(t('list.importStudyDone', { count: r.forms.length }));
              return true;
            }
            const r = await crfApi.importForm({
              format: v.format,
              name: v.name,
              content: importText,
              ...(v.format === 'odm' && v.formOid ? { formOid: v.formOid } : {}),
            });
            setImporting(false);
            table.current?.reload();
            const counts = r.counts;
            if (r.unsupported.length)
              modal.warning({
                title: t('list.importReport'),
                width: 640,
                content: (
                  <>
                    {counts && (
                      <p data-testid="import-counts">
                        {t('list.importCounts', {
                          fields: counts.fields.total,
                          imported: counts.fields.imported,
                          rules: counts.branching.total,
                          rulesKept: counts.branching.translated,
                          calcs: counts.calculations.total,
                          calcsKept: counts.calculations.translated,
                          tags: counts.actionTags.total,
                          tagsKept: counts.actionTags.translated,
                        })}
                      </p>
                    )}
                    <ul>
                      {r.unsupported.map((u) => (
                        <li key={u}>{u}</li>
                      ))}
                    </ul>
                  </>
                ),
              });
            else message.success(t('list.created'));
            return true;
          } catch (e) {
            message.error(e instanceof Error ? e.message : String(e));
            return false;
          }
        }}
      >
        <ProFormText
          name="name"
          label={t('list.name')}
          rules={[{ required: true, whitespace: true, max: CRF_FORM_NAME_MAX }, textRule(currentLocale())]}
        />
        <ProFormRadio.Group
          name="format"
          label={t('list.importFormat')}
          options={[
            { value: 'json', label: t('list.importJson') },
            { value: 'redcap', label: t('list.importRedcap') },
            { value: 'odm', label: t('list.importOdm') },
          ]}
        />
        <Upload
          maxCount={1}
          onRemove={() => {
            setImportText('');
            setOdmForms([]);
          }}
          beforeUpload={async (file) => {
            const text = await file.text();
            setImportText(text);
            const forms = odmFormsOf(text);
            setOdmForms(forms);
            if (forms.length) {
              importForm.current?.setFieldsValue({ format: 'odm', formOid: forms[0]!.value });
              if (!importForm.current?.getFieldValue('name'))
                importForm.current?.setFieldsValue({ name: forms[0]!.label.replace(/ \(.*\)$/, '') });
            }
            return false;
          }}
        >
          <Button>{t('list.importFile')}</Button>
        </Upload>
        <div style={{ height: 16 }} />
        {odmForms.length > 0 && (
          <ProFormSelect
            name="formOid"
            label={t('list.importOdmForm')}
            extra={odmForms.length > 1 ? t('list.importOdmFormHint', { count: odmForms.length }) : undefined}
            options={
              odmForms.length > 1
                ? [
                    ...odmForms,
                    { value: ALL_FORMS, label: t('list.importOdmAll', { count: odmForms.length }) },
                  ]
                : odmForms
            }
            allowClear={false}
            fieldProps={{ id: 'import-odm-form' }}
          />
        )}
      </ModalForm>
      <ModalForm<{ format: 'csv' | 'xlsx' | 'odm'; labels: 'codes' | 'names'; audit: 'on' | 'off' }>
        title={`${t('list.export')}：${exporting?.name ?? ''}`}
        open={!!exporting}
        initialValues={{ format: 'csv', labels: 'codes', audit: 'on' }}
        modalProps={{ destroyOnHidden: true, onCancel: () => setExporting(null) }}
        submitter={{ searchConfig: { submitText: t('list.download') } }}
        onFinish={async (v) => {
          if (!exporting) return true;
          await downloadWithSession(
            exportUrl(exporting.id, v.format, v.labels === 'names', v.audit !== 'off'),
            `${exporting.name}.${v.format === 'odm' ? 'xml' : v.format}`,
          );
          setExporting(null);
          return true;
        }}
      >
        <ProFormSelect
          name="format"
          label={t('list.exportFormat')}
          options={[
            { value: 'csv', label: 'CSV' },
            { value: 'xlsx', label: 'Excel (XLSX)' },
            { value: 'odm', label: 'CDISC ODM 1.3.2 XML' },
          ]}
        />
        <ProFormRadio.Group
          name="labels"
          label={t('list.labels')}
          options={[
            { value: 'codes', label: t('list.labelsCodes') },
            { value: 'names', label: t('list.labelsNames') },
          ]}
        />
        <ProFormDependency name={['format']}>
          {({ format }) =>
            format === 'odm' && (
              <ProFormRadio.Group
                name="audit"
                label={t('list.exportAudit')}
                options={[
                  { value: 'on', label: t('list.exportAuditOn') },
                  { value: 'off', label: t('list.exportAuditOff') },
                ]}
              />
            )
          }
        </ProFormDependency>
      </ModalForm>
      <ImportRecords
        form={importingRecords}
        onClose={() => setImportingRecords(null)}
        onDone={() => {
          setImportingRecords(null);
          table.current?.reload();
        }}
      />
      <Drawer
        open={!!versions}
        width={560}
        title={`${t('list.versionList')}：${versions?.name ?? ''}`}
        onClose={() => setVersions(null)}
      >
        <Table
          size="small"
          rowKey="id"
          dataSource={versions?.versions ?? []}
          pagination={false}
          columns={[
            { title: t('list.versionNo'), dataIndex: 'version', render: (v: number) => `v${v}` },
            {
              title: t('list.note'),
              dataIndex: 'note',
              render: (v: string) => (v ? <CutText text={v} /> : '—'),
            },
            {
              title: t('list.publishedAt'),
              dataIndex: 'publishedAt',
              render: (v: string) => new Date(v).toLocaleString(),
            },
          ]}
        />
      </Drawer>
    </>
  );
}

/** The import dialog's choice "every form of the file" (a FormDef OID never looks like this). */
const ALL_FORMS = '*';

/** The FormDefs of an ODM file, read in the browser so the user can pick one; none for other files. */
function odmFormsOf(text: string): Array<{ value: string; label: string }> {
  if (!/<ODM[\s>]/.test(text) || /<!DOCTYPE/i.test(text)) return [];
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length) return [];
  return Array.from(doc.getElementsByTagNameNS('*', 'FormDef')).map((f) => {
    const oid = f.getAttribute('OID') ?? '';
    const name = f.getAttribute('Name') ?? oid;
    return { value: oid, label: `${name} (${oid})` };
  });
}
