import { type ActionType, DrawerForm, ProFormSelect, ProTable } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Form, Space, Tag, Tooltip } from 'antd';
import { type ReactElement, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CutText } from '../../components/CutText';
import { proPage } from '../../components/table/paging';
import { enabledColumn, updatedColumn } from '../../components/table-columns';
import { type Plan, type PlanInput, qcApi, useCan } from './api';
import { EditLink, QcEnabledAndDescription, QcNameField, useSaveDrawer } from './forms';
import { QC_NS } from './i18n';
import { ToggleDeleteActions } from './RowActions';

/** Create or edit a plan: a name and the enabled rules it runs, in the order picked. */
function PlanDrawer({ plan, trigger, onSaved }: { plan?: Plan; trigger: ReactElement; onSaved: () => void }) {
  const { t } = useTranslation(QC_NS);
  const [form] = Form.useForm<PlanInput>();
  const saveWith = useSaveDrawer(form, onSaved);
  return (
    <DrawerForm<PlanInput>
      form={form}
      title={plan ? t('plans.editTitle') : t('plans.create')}
      trigger={trigger}
      width={520}
      drawerProps={{ destroyOnHidden: true }}
      // The form outlives the drawer: each opening starts from the rule's (or an empty) values.
      onOpenChange={(open) => open && form.resetFields()}
      initialValues={
        plan
          ? { name: plan.name, description: plan.description, enabled: plan.enabled, ruleIds: plan.ruleIds }
          : { enabled: true, ruleIds: [] }
      }
      onFinish={(v) => {
        const body = { ...v, description: v.description ?? '' };
        return saveWith(() => (plan ? qcApi.updatePlan(plan.id, body) : qcApi.createPlan(body)));
      }}
    >
      <QcNameField />
      <ProFormSelect
        name="ruleIds"
        label={t('plans.rules')}
        mode="multiple"
        placeholder={t('plans.pickRules')}
        rules={[{ required: true, message: t('plans.pickRules') }]}
        request={async () => {
          const r = await qcApi.rules({ page: 1, size: 200, enabled: 'true' });
          const options = r.items.map((x) => ({ value: x.id, label: x.name }));
          // A rule disabled since the plan was saved still shows by name, marked, so it can be taken out.
          for (const x of plan?.rules ?? [])
            if (!x.enabled) options.push({ value: x.id, label: t('plans.disabledOption', { name: x.name }) });
          return options;
        }}
        fieldProps={{ showSearch: true, optionFilterProp: 'label' }}
      />
      <QcEnabledAndDescription />
    </DrawerForm>
  );
}

/** 质控方案: named sets of rules; each can be run from here. */
export default function PlanList() {
  const { t, i18n } = useTranslation(QC_NS);
  const { message } = App.useApp();
  const can = useCan();
  const navigate = useNavigate();
  const table = useRef<ActionType>(null);
  const reload = () => table.current?.reload();
  const catalogue = useQuery({
    queryKey: ['dataQc', 'catalogue', i18n.language],
    queryFn: qcApi.catalogue,
    staleTime: Infinity,
  });
  const tableLabel = (k: string) => catalogue.data?.tables.find((x) => x.key === k)?.label ?? k;

  return (
    <ProTable<Plan, { keyword?: string }>
      rowKey="id"
      actionRef={table}
      headerTitle={t('plans.title')}
      search={false}
      options={{
        search: { placeholder: t('common.search'), name: 'keyword', allowClear: true },
        reload: true,
      }}
      request={async (p) => {
        const r = await qcApi.plans({
          ...proPage(p),
          keyword: p.keyword || undefined,
        });
        return { data: r.items, total: r.total, success: true };
      }}
      toolBarRender={() =>
        can('DataQcPlan.add')
          ? [
              <PlanDrawer
                key="create"
                onSaved={reload}
                trigger={<Button type="primary">{t('plans.create')}</Button>}
              />,
            ]
          : []
      }
      columns={[
        {
          title: t('common.name'),
          dataIndex: 'name',
          width: 200,
          render: (_, r) => <CutText text={r.name} limit={24} />,
        },
        {
          title: t('plans.rules'),
          key: 'rules',
          render: (_, p) => (
            <Space size={[0, 4]} wrap>
              {p.rules.map((r) =>
                r.enabled ? (
                  <Tag key={r.id} color={r.severity === 'error' ? 'red' : 'orange'}>
                    {r.name} · {tableLabel(r.table)}
                  </Tag>
                ) : (
                  <Tooltip key={r.id} title={t('plans.disabledRule')}>
                    <Tag style={{ textDecoration: 'line-through' }}>{r.name}</Tag>
                  </Tooltip>
                ),
              )}
            </Space>
          ),
        },
        enabledColumn<Plan>({ title: t('common.enabled'), on: t('common.on'), off: t('common.off') }),
        updatedColumn<Plan>(t('common.updated')),
        {
          title: t('common.actions'),
          valueType: 'option',
          width: 240,
          render: (_, p) => (
            <Space size={0}>
              {can('DataQcTask.add') && p.enabled && (
                <Button
                  type="link"
                  size="small"
                  onClick={async () => {
                    try {
                      await qcApi.runPlan(p.id);
                      message.success(t('plans.started'));
                      navigate('/data-qc/task');
                    } catch (e) {
                      message.error((e as Error).message);
                    }
                  }}
                >
                  {t('plans.run')}
                </Button>
              )}
              {can('DataQcPlan.edit') && <PlanDrawer plan={p} onSaved={reload} trigger={<EditLink />} />}
              <ToggleDeleteActions
                area="DataQcPlan"
                name={p.name}
                enabled={p.enabled}
                setEnabled={(on) => qcApi.setPlanEnabled(p.id, on)}
                remove={() => qcApi.deletePlan(p.id)}
                onDone={reload}
              />
            </Space>
          ),
        },
      ]}
    />
  );
}
