import { UploadOutlined } from '@ant-design/icons';
import {
  type ActionType,
  ModalForm,
  ProFormDigit,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
  ProFormTextArea,
  ProTable,
} from '@ant-design/pro-components';
import {
  DICTIONARY_CODE_PATTERN,
  DICTIONARY_DESCRIPTION_MAX,
  type Dictionary,
  type DictionaryEntry,
  ENTRY_NAME_MAX,
  type ImportReport,
  REFERENCE_NAME_MAX,
} from '@crdp/core';
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
  Popconfirm,
  Row,
  Space,
  Spin,
  Tag,
  Typography,
  Upload,
} from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { currentLocale } from '../../app/i18n';
import { useLabel } from '../../app/labels';
import { textRule } from '../../app/text-rule';
import { Authorized, useHasAction } from '../../components/Authorized';
import { saveOrShow, saveThen } from '../../components/form/server-errors';
import { ImportReportModal } from '../../components/ImportReportModal';
import { proPage } from '../../components/table/paging';
import { dictionaryApi } from './reference-api';
import { EnabledTag, ReferenceCodeField, ReferenceNameField } from './reference-fields';
import { REFERENCE_NS } from './reference-i18n';

type EntryForm = Pick<
  DictionaryEntry,
  'code' | 'name' | 'pinyin' | 'synonyms' | 'standardCode' | 'sortOrder' | 'enabled'
>;
type DictForm = Pick<Dictionary, 'code' | 'name' | 'description' | 'standardSystem'>;

/**
 * The dictionaries of one kind: the basic ones (基础字典维护) or the app's own (字典管理). On the
 * left the dictionaries, on the right the chosen one's entries (searchable by code, name, pinyin
 * initials and synonyms) with CSV import (all rows or none) and export. The chosen dictionary is
 * in the address (`?dictionary=`).
 */
export function DictionaryScreen({ builtin }: { builtin: boolean }) {
  const { t } = useTranslation(REFERENCE_NS);
  const word = useLabel();
  const can = useHasAction();
  const { message } = App.useApp();
  const menu = builtin ? 'DataLakeBasicDictionaryMaintenance' : 'DataLakeDictionaries';
  const api = dictionaryApi(builtin);
  const [params, setParams] = useSearchParams();
  const [dictForm, setDictForm] = useState<Dictionary | 'new' | null>(null);
  const [entryForm, setEntryForm] = useState<DictionaryEntry | 'new' | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const table = useRef<ActionType>(null);
  const list = useQuery({ queryKey: ['dictionaries', builtin], queryFn: () => api.list() });
  const dictionaries = list.data?.items ?? [];
  const chosenId = Number(params.get('dictionary')) || dictionaries[0]?.id;
  const chosen = dictionaries.find((d) => d.id === chosenId);
  const nameOf = (d: Dictionary) => (d.builtin ? word('basicDictionary', d.code) : d.name);
  const editingDict = dictForm && dictForm !== 'new' ? dictForm : null;
  const editingEntry = entryForm && entryForm !== 'new' ? entryForm : null;
  const reloadAll = async () => {
    await list.refetch();
    table.current?.reload();
  };

  const upload = async (file: File) => {
    if (!chosen) return false;
    try {
      const r = await api.importEntries(chosen.id, { fileName: file.name, text: await file.text() });
      setReport(r);
      if (r.stored) await reloadAll();
    } catch {
      // the client's interceptor already showed the reason
    }
    return false;
  };

  if (list.isError)
    return <Alert type="error" showIcon message={list.error.message} data-testid="dictionaries-error" />;
  return (
    <Row gutter={[16, 16]} data-testid="dictionaries">
      <Col xs={24} md={7}>
        <Card
          title={builtin ? t('dictionaries.basicTitle') : t('dictionaries.title')}
          extra={
            !builtin && (
              <Authorized apiId={`${menu}.add`}>
                <Button type="primary" size="small" onClick={() => setDictForm('new')}>
                  {t('dictionaries.add')}
                </Button>
              </Authorized>
            )
          }
        >
          <Typography.Paragraph type="secondary">
            {builtin ? t('dictionaries.basicHint') : t('dictionaries.hint')}
          </Typography.Paragraph>
          {list.isLoading ? (
            <Spin />
          ) : dictionaries.length === 0 ? (
            <Empty description={t('dictionaries.noDictionaries')} />
          ) : (
            <List<Dictionary>
              size="small"
              dataSource={dictionaries}
              data-testid="dictionary-list"
              renderItem={(d) => (
                <List.Item
                  onClick={() => setParams({ dictionary: String(d.id) }, { replace: true })}
                  style={{
                    cursor: 'pointer',
                    paddingInline: 8,
                    background: d.id === chosen?.id ? 'rgba(22,119,255,0.08)' : undefined,
                  }}
                >
                  <List.Item.Meta
                    title={nameOf(d)}
                    description={`${d.code} · ${t('dictionaries.entryCount', { count: d.entryCount })}`}
                  />
                </List.Item>
              )}
            />
          )}
        </Card>
      </Col>
      <Col xs={24} md={17}>
        {!chosen ? (
          <Card>
            <Empty description={list.isLoading ? undefined : t('dictionaries.pick')} />
          </Card>
        ) : (
          <ProTable<DictionaryEntry, { keyword?: string }>
            key={chosen.id}
            rowKey="id"
            actionRef={table}
            search={false}
            options={false}
            headerTitle={
              <Space direction="vertical" size={0}>
                <Space wrap>
                  <Typography.Text strong>{nameOf(chosen)}</Typography.Text>
                  <Tag>{chosen.code}</Tag>
                  {chosen.standardSystem && <Tag color="blue">{chosen.standardSystem}</Tag>}
                  {!builtin && can(menu, 'edit') && (
                    <Button type="link" size="small" onClick={() => setDictForm(chosen)}>
                      {t('dictionaries.editDictionary')}
                    </Button>
                  )}
                  {!builtin && can(menu, 'delete') && (
                    <Popconfirm
                      title={t('common.confirmDelete', { name: chosen.name })}
                      description={t('dictionaries.deleteHint', { count: chosen.entryCount })}
                      onConfirm={async () => {
                        await api.remove(chosen.id);
                        message.success(t('common.deleted'));
                        setParams({}, { replace: true });
                        await list.refetch();
                      }}
                    >
                      <Button type="link" size="small" danger>
                        {t('dictionaries.deleteDictionary')}
                      </Button>
                    </Popconfirm>
                  )}
                </Space>
                {chosen.description && (
                  <Typography.Text type="secondary">{chosen.description}</Typography.Text>
                )}
              </Space>
            }
            params={{ keyword: params.get('keyword') ?? '' }}
            pagination={{ defaultPageSize: 20, showSizeChanger: true }}
            scroll={{ x: 'max-content' }}
            locale={{
              emptyText: (
                <Empty description={params.get('keyword') ? undefined : t('dictionaries.noEntries')} />
              ),
            }}
            request={async (p) => {
              // ProTable shows whichever answer comes last: a slow answer to an older search must
              // not replace the newer one, so the search of the address as it is now is what is shown.
              const wanted = () => new URLSearchParams(window.location.search).get('keyword') ?? '';
              const fetch = (keyword: string) =>
                api.entries(chosen.id, {
                  ...proPage(p),
                  ...(keyword ? { keyword } : {}),
                });
              let keyword = p.keyword ?? '';
              let r = await fetch(keyword);
              while (keyword !== wanted()) {
                keyword = wanted();
                r = await fetch(keyword);
              }
              return { data: r.items, total: r.total, success: true };
            }}
            toolBarRender={() => [
              <Input.Search
                key="search"
                allowClear
                placeholder={t('common.keyword')}
                defaultValue={params.get('keyword') ?? ''}
                onSearch={(v) => {
                  // From the address as it is now: ProTable keeps an older toolbar (and with it an
                  // older setParams, whose updater sees the address of that render).
                  const next = new URLSearchParams(window.location.search);
                  if (v.trim()) next.set('keyword', v.trim());
                  else next.delete('keyword');
                  setParams(next, { replace: true });
                }}
                style={{ width: 240 }}
                data-testid="entries-search"
              />,
              <Authorized key="add" apiId={`${menu}.add`}>
                <Button type="primary" onClick={() => setEntryForm('new')}>
                  {t('dictionaries.addEntry')}
                </Button>
              </Authorized>,
              <Authorized key="import" apiId={`${menu}.import`}>
                <Upload accept=".csv,text/csv" showUploadList={false} beforeUpload={upload}>
                  <Button icon={<UploadOutlined />} title={t('dictionaries.importHint')}>
                    {t('common.import')}
                  </Button>
                </Upload>
              </Authorized>,
              <Authorized key="export" apiId={`${menu}.export`}>
                <Button onClick={() => api.exportEntries(chosen.id, chosen.code).catch(() => {})}>
                  {t('common.export')}
                </Button>
              </Authorized>,
            ]}
            columns={[
              { title: t('common.code'), dataIndex: 'code', width: 110 },
              { title: t('common.name'), dataIndex: 'name' },
              { title: t('common.pinyin'), dataIndex: 'pinyin', width: 110 },
              {
                title: t('dictionaries.synonyms'),
                dataIndex: 'synonyms',
                render: (_, e) => e.synonyms.map((s) => <Tag key={s}>{s}</Tag>),
              },
              { title: t('dictionaries.standardCode'), dataIndex: 'standardCode', width: 120 },
              { title: t('dictionaries.sortOrder'), dataIndex: 'sortOrder', width: 70, align: 'right' },
              {
                title: t('common.state'),
                dataIndex: 'enabled',
                width: 80,
                render: (_, e) => <EnabledTag enabled={e.enabled} />,
              },
              {
                title: t('common.actions'),
                valueType: 'option',
                render: (_, e) => [
                  can(menu, 'edit') && (
                    <Button key="edit" type="link" size="small" onClick={() => setEntryForm(e)}>
                      {t('common.edit')}
                    </Button>
                  ),
                  can(menu, 'delete') && (
                    <Popconfirm
                      key="delete"
                      title={t('common.confirmDelete', { name: e.name })}
                      onConfirm={async () => {
                        await api.removeEntry(chosen.id, e.id);
                        message.success(t('common.deleted'));
                        await reloadAll();
                      }}
                    >
                      <Button type="link" size="small" danger>
                        {t('common.delete')}
                      </Button>
                    </Popconfirm>
                  ),
                ],
              },
            ]}
          />
        )}
      </Col>

      <ModalForm<DictForm>
        title={editingDict ? t('dictionaries.editDictionary') : t('dictionaries.add')}
        open={!!dictForm}
        modalProps={{ destroyOnHidden: true, onCancel: () => setDictForm(null) }}
        initialValues={editingDict ?? {}}
        onFinish={async (v) => {
          const ok = await saveOrShow(message, async () => {
            const body = {
              name: v.name,
              description: v.description ?? '',
              standardSystem: v.standardSystem ?? '',
            };
            if (editingDict) await api.edit(editingDict.id, body);
            else {
              const made = await api.add({ ...body, code: v.code });
              setParams({ dictionary: String(made.id) }, { replace: true });
            }
          });
          if (!ok) return false;
          message.success(t('common.saved'));
          setDictForm(null);
          await reloadAll();
          return true;
        }}
      >
        <ProFormText
          name="code"
          label={t('dictionaries.dictionaryCode')}
          disabled={!!editingDict}
          rules={[
            { required: true, message: t('units.codeRequired') },
            { pattern: DICTIONARY_CODE_PATTERN, message: t('dictionaries.dictionaryCodeRule') },
          ]}
          fieldProps={{ maxLength: 40 }}
        />
        <ReferenceNameField />
        <ProFormText
          name="standardSystem"
          label={t('dictionaries.standardSystem')}
          rules={[textRule(currentLocale())]}
          fieldProps={{ maxLength: REFERENCE_NAME_MAX }}
        />
        <ProFormTextArea
          name="description"
          label={t('dictionaries.description')}
          rules={[textRule(currentLocale())]}
          fieldProps={{ maxLength: DICTIONARY_DESCRIPTION_MAX }}
        />
      </ModalForm>

      <ModalForm<EntryForm>
        title={editingEntry ? t('dictionaries.editEntry') : t('dictionaries.addEntry')}
        open={!!entryForm && !!chosen}
        modalProps={{ destroyOnHidden: true, onCancel: () => setEntryForm(null) }}
        initialValues={editingEntry ?? { enabled: true, sortOrder: 0, synonyms: [] }}
        onFinish={async (v) => {
          const body = {
            code: v.code,
            name: v.name,
            pinyin: v.pinyin ?? '',
            synonyms: v.synonyms ?? [],
            standardCode: v.standardCode ?? '',
            sortOrder: v.sortOrder ?? 0,
            enabled: v.enabled,
          };
          return saveThen(
            message,
            () =>
              editingEntry
                ? api.editEntry(chosen!.id, editingEntry.id, body)
                : api.addEntry(chosen!.id, body),
            t('common.saved'),
            () => {
              setEntryForm(null);
              return reloadAll();
            },
          );
        }}
      >
        <ReferenceCodeField />
        <ReferenceNameField max={ENTRY_NAME_MAX} />
        <ProFormText
          name="pinyin"
          label={t('common.pinyin')}
          tooltip={t('dictionaries.pinyinHint')}
          rules={[{ pattern: /^[a-z0-9]*$/i, message: t('units.codeRule') }]}
          fieldProps={{ maxLength: REFERENCE_NAME_MAX }}
        />
        <ProFormSelect
          name="synonyms"
          label={t('dictionaries.synonyms')}
          tooltip={t('dictionaries.synonymsHint')}
          fieldProps={{ mode: 'tags', open: false, tokenSeparators: ['|'] }}
        />
        <ProFormText
          name="standardCode"
          label={t('dictionaries.standardCode')}
          rules={[textRule(currentLocale())]}
          fieldProps={{ maxLength: REFERENCE_NAME_MAX }}
        />
        <ProFormDigit
          name="sortOrder"
          label={t('dictionaries.sortOrder')}
          min={0}
          max={99_999}
          fieldProps={{ precision: 0 }}
        />
        <ProFormSwitch name="enabled" label={t('common.enabled')} />
      </ModalForm>
      <ImportReportModal report={report} onClose={() => setReport(null)} />
    </Row>
  );
}

/** 字典管理 (`/data-lake/dictionaries`): the app's own code tables. */
export default function Dictionaries() {
  return <DictionaryScreen builtin={false} />;
}
