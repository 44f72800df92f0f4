import { PlusOutlined } from '@ant-design/icons';
import { ModalForm, ProFormSelect, ProFormText, ProFormTextArea, ProTable } from '@ant-design/pro-components';
import { type CdmTable, OMOP_NAME_MAX, OMOP_NOTE_MAX, type OmopSourceTable } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Badge, Button, Popconfirm, Space, Tag, Typography } from 'antd';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Authorized, useHasAction } from '../../components/Authorized';
import { useSaveAndClose } from '../../components/form/useSaveAndClose';
import { omopApi, type Rule } from './api';
import { OMOP_NS } from './i18n';

const PERM = 'OmopActiveMappingRule';

/** The stored rule of a row; a built-in row not yet written is written first (with the whole set). */
async function storedId(rule: Rule): Promise<number> {
  if (rule.id !== null) return rule.id;
  const list = await omopApi.writeDefaults();
  const found = list.items.find(
    (r) => r.sourceTable === rule.sourceTable && r.targetTable === rule.targetTable,
  );
  if (!found?.id) throw new Error('rule not found');
  return found.id;
}

function RuleEdit({ rule, trigger, onDone }: { rule: Rule; trigger: ReactElement; onDone: () => void }) {
  const { t } = useTranslation(OMOP_NS);
  const saveAndClose = useSaveAndClose();
  return (
    <ModalForm<{ name: string; note?: string }>
      title={t('rules.edit')}
      trigger={trigger}
      width={480}
      modalProps={{ destroyOnHidden: true }}
      initialValues={{ name: rule.name, note: rule.note }}
      onFinish={(v) =>
        saveAndClose(
          async () => omopApi.updateRule(await storedId(rule), { name: v.name, note: v.note ?? '' }),
          t('rules.saved'),
          onDone,
        )
      }
    >
      <ProFormText
        name="name"
        label={t('rules.name')}
        rules={[{ required: true, whitespace: true, max: OMOP_NAME_MAX }]}
      />
      <ProFormTextArea
        name="note"
        label={t('rules.note')}
        fieldProps={{ rows: 2, maxLength: OMOP_NOTE_MAX }}
      />
    </ModalForm>
  );
}

/** active-mapping-rule: which clinical table goes to which CDM table, with enable and disable. */
export default function Rules() {
  const { t } = useTranslation(OMOP_NS);
  const { message } = App.useApp();
  const can = useHasAction();
  // A built-in rule not yet written for the app is written first, which needs the add function.
  const may = (r: Rule, action: 'enable' | 'disable' | 'edit' | 'delete') =>
    can(PERM, action) && (r.id !== null || can(PERM, 'add'));
  const rules = useQuery({ queryKey: ['omop', 'rules'], queryFn: omopApi.rules });
  const reload = () => void rules.refetch();
  const data = rules.data;
  const missing = (data?.catalogue ?? []).filter(
    (p) => !data?.items.some((r) => r.sourceTable === p.sourceTable && r.targetTable === p.targetTable),
  );
  const act = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
      message.success(t('rules.saved'));
    } catch {
      // shown by the client
    }
    reload();
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      {data && !data.stored && <Alert type="info" showIcon message={t('rules.builtinNotice')} />}
      <ProTable<Rule>
        rowKey={(r) => `${r.sourceTable}-${r.targetTable}`}
        headerTitle={t('rules.title')}
        search={false}
        options={{ reload, density: false, setting: false }}
        pagination={false}
        loading={rules.isLoading}
        dataSource={data?.items ?? []}
        toolBarRender={() => [
          <Authorized key="add" apiId={`${PERM}.add`}>
            <ModalForm<{ pair: string; name?: string; note?: string }>
              title={t('rules.create')}
              width={480}
              modalProps={{ destroyOnHidden: true }}
              trigger={
                <Button type="primary" icon={<PlusOutlined />}>
                  {t('rules.create')}
                </Button>
              }
              onFinish={async (v) => {
                const [sourceTable, targetTable] = v.pair.split('|') as [OmopSourceTable, CdmTable];
                try {
                  await omopApi.createRule({ sourceTable, targetTable, name: v.name, note: v.note });
                  message.success(t('rules.saved'));
                  reload();
                  return true;
                } catch {
                  return false;
                }
              }}
            >
              {missing.length === 0 && (
                <Alert type="info" showIcon message={t('rules.noPairs')} style={{ marginBottom: 16 }} />
              )}
              <ProFormSelect
                name="pair"
                label={t('rules.pair')}
                rules={[{ required: true }]}
                options={missing.map((p) => ({
                  value: `${p.sourceTable}|${p.targetTable}`,
                  label: `${t(`tables.${p.sourceTable}`)} → ${t(`tables.${p.targetTable}`)}`,
                }))}
              />
              <ProFormText name="name" label={t('rules.name')} rules={[{ max: OMOP_NAME_MAX }]} />
              <ProFormTextArea
                name="note"
                label={t('rules.note')}
                fieldProps={{ rows: 2, maxLength: OMOP_NOTE_MAX }}
              />
            </ModalForm>
          </Authorized>,
        ]}
        tableExtraRender={() => (
          <Typography.Text type="secondary" style={{ display: 'block', padding: '0 4px' }}>
            {t('rules.death')}
          </Typography.Text>
        )}
        columns={[
          {
            title: t('rules.name'),
            dataIndex: 'name',
            render: (_, r) => (
              <Space direction="vertical" size={0}>
                <Space size={6} wrap>
                  <span>{r.name}</span>
                  <Tag>{r.builtin ? t('rules.builtin') : t('rules.custom')}</Tag>
                </Space>
                {r.note && <Typography.Text type="secondary">{r.note}</Typography.Text>}
              </Space>
            ),
          },
          {
            title: t('rules.source'),
            dataIndex: 'sourceTable',
            width: 160,
            render: (_, r) => t(`tables.${r.sourceTable}`),
          },
          {
            title: t('rules.target'),
            dataIndex: 'targetTable',
            width: 220,
            render: (_, r) => (
              <Typography.Text code style={{ whiteSpace: 'nowrap' }}>
                {r.targetTable}
              </Typography.Text>
            ),
          },
          {
            title: t('rules.enabled'),
            dataIndex: 'enabled',
            width: 110,
            render: (_, r) => (
              <Badge
                status={r.enabled ? 'success' : 'default'}
                text={r.enabled ? t('rules.on') : t('rules.off')}
              />
            ),
          },
          {
            title: '',
            valueType: 'option',
            width: 200,
            render: (_, r) => (
              <Space>
                {r.enabled
                  ? may(r, 'disable') && (
                      <Button
                        size="small"
                        type="link"
                        onClick={() => act(async () => omopApi.switchRule(await storedId(r), false))}
                      >
                        {t('rules.disable')}
                      </Button>
                    )
                  : may(r, 'enable') && (
                      <Button
                        size="small"
                        type="link"
                        onClick={() => act(async () => omopApi.switchRule(await storedId(r), true))}
                      >
                        {t('rules.enable')}
                      </Button>
                    )}
                {may(r, 'edit') && (
                  <RuleEdit
                    rule={r}
                    onDone={reload}
                    trigger={
                      <Button size="small" type="link">
                        {t('rules.edit')}
                      </Button>
                    }
                  />
                )}
                {may(r, 'delete') && (
                  <Popconfirm
                    title={t('rules.confirmDelete', { name: r.name, table: r.targetTable })}
                    onConfirm={() => act(async () => omopApi.removeRule(await storedId(r)))}
                  >
                    <Button size="small" type="link" danger>
                      {t('rules.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
    </Space>
  );
}
