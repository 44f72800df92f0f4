import {
  ModalForm,
  ProFormDependency,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import { SCHEDULE_CRON_MAX, SCHEDULE_NAME_MAX } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Form, type FormInstance, List, Space, Typography } from 'antd';
import { type ReactElement, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RequestError } from '../../api/client';
import { fieldError, type SchedulableKind, type Schedule, schedulingApi, timeIn } from './api';
import { TS_NS } from './i18n';

interface Values {
  name: string;
  kind: string;
  libraryId?: number;
  paramsJson?: string;
  cron: string;
  enabled?: boolean;
}

const PRESETS = [
  ['hourly', '0 * * * *'],
  ['daily2', '0 2 * * *'],
  ['weekdays8', '30 8 * * 1-5'],
  ['weekly', '0 3 * * 1'],
  ['monthly', '0 1 1 * *'],
] as const;

const hasLibrary = (k: SchedulableKind | undefined) => Boolean(k?.params.properties?.libraryId);

/** The next five run times of the expression being typed, checked by the server as you type. */
function CronPreview({ form }: { form: FormInstance<Values> }) {
  const { t, i18n } = useTranslation(TS_NS);
  const cron = Form.useWatch('cron', form) ?? '';
  const [settled, setSettled] = useState(cron);
  useEffect(() => {
    const h = setTimeout(() => setSettled(cron.trim()), 300);
    return () => clearTimeout(h);
  }, [cron]);
  const next = useQuery({
    queryKey: ['taskScheduling', 'cronNext', settled],
    queryFn: ({ signal }) => schedulingApi.cronNext(settled, signal),
    enabled: settled.length > 0,
    retry: false,
  });
  if (!settled) return null;
  if (next.isFetching && !next.data)
    return <Typography.Text type="secondary">{t('schedules.checking')}</Typography.Text>;
  if (next.error && !(next.error instanceof RequestError && next.error.cancelled))
    return (
      <Typography.Text type="danger" data-testid="cron-error">
        {/* The field is this one: its name in the server's words adds nothing here. */}
        {(next.error as Error).message.replace(/^.*?query\.cron:\s*/, '')}
      </Typography.Text>
    );
  if (!next.data) return null;
  return (
    <List
      data-testid="cron-next"
      size="small"
      bordered
      header={<Typography.Text strong>{t('schedules.nextRuns', { tz: next.data.timezone })}</Typography.Text>}
      dataSource={next.data.next}
      renderItem={(iso, i) => (
        <List.Item style={{ padding: '2px 12px' }}>
          <Typography.Text>
            {i + 1}. {timeIn(iso, next.data.timezone, i18n.language)}
          </Typography.Text>
        </List.Item>
      )}
    />
  );
}

/** Create or change a schedule: kind, its target, a cron expression with its next runs. */
export function ScheduleForm({
  trigger,
  schedule,
  onSaved,
}: {
  trigger: ReactElement;
  schedule?: Schedule;
  onSaved: () => void;
}) {
  const { t } = useTranslation(TS_NS);
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const kinds = useQuery({ queryKey: ['taskScheduling', 'kinds'], queryFn: schedulingApi.kinds });
  const kindOf = (k: string | undefined) => kinds.data?.kinds.find((x) => x.kind === k);
  const initial: Partial<Values> = schedule
    ? {
        name: schedule.name,
        kind: schedule.kind,
        cron: schedule.cron,
        libraryId: schedule.params.libraryId as number | undefined,
        paramsJson: JSON.stringify(schedule.params, null, 2),
      }
    : { enabled: true, cron: '0 2 * * *', paramsJson: '{}' };

  return (
    <ModalForm<Values>
      form={form}
      // Its own id prefix: the list's search form has fields of the same names, and a label must
      // point at this form's input.
      name={schedule ? `schedule-${schedule.id}` : 'schedule-new'}
      title={t(schedule ? 'schedules.edit' : 'schedules.add')}
      trigger={trigger}
      width={560}
      initialValues={initial}
      modalProps={{ destroyOnHidden: true }}
      submitter={{ searchConfig: { submitText: t('common.save'), resetText: t('common.cancel') } }}
      onFinish={async (v) => {
        const k = kindOf(v.kind);
        let params: Record<string, unknown>;
        if (hasLibrary(k)) params = { libraryId: v.libraryId };
        else {
          try {
            params = JSON.parse(v.paramsJson || '{}');
          } catch {
            form.setFields([{ name: 'paramsJson', errors: [t('schedules.paramsInvalid')] }]);
            return false;
          }
        }
        try {
          if (schedule)
            await schedulingApi.update(schedule.id, { name: v.name, kind: v.kind, params, cron: v.cron });
          else
            await schedulingApi.create({
              name: v.name,
              kind: v.kind,
              params,
              cron: v.cron,
              enabled: v.enabled,
            });
          message.success(t(schedule ? 'schedules.saved' : 'schedules.created'));
          onSaved();
          return true;
        } catch (e) {
          const f = fieldError(e);
          const name =
            f?.field === 'body.name'
              ? 'name'
              : f?.field === 'body.kind'
                ? 'kind'
                : f?.field === 'body.cron'
                  ? 'cron'
                  : f?.field.startsWith('body.params')
                    ? hasLibrary(k)
                      ? 'libraryId'
                      : 'paramsJson'
                    : null;
          if (f && name) form.setFields([{ name, errors: [f.message] }]);
          else message.error((e as Error).message);
          return false;
        }
      }}
    >
      <ProFormText
        name="name"
        label={t('schedules.name')}
        placeholder={t('schedules.namePlaceholder')}
        rules={[{ required: true, max: SCHEDULE_NAME_MAX }]}
      />
      <ProFormSelect
        name="kind"
        label={t('schedules.kind')}
        placeholder={t('schedules.kindPlaceholder')}
        rules={[{ required: true }]}
        options={(kinds.data?.kinds ?? []).map((k) => ({ value: k.kind, label: k.label }))}
      />
      <ProFormDependency name={['kind']}>
        {({ kind }) =>
          hasLibrary(kindOf(kind)) ? (
            <ProFormSelect
              name="libraryId"
              label={t('schedules.library')}
              placeholder={t('schedules.libraryPlaceholder')}
              rules={[{ required: true }]}
              fieldProps={{ showSearch: true, optionFilterProp: 'label' }}
              request={async () =>
                (await schedulingApi.libraries()).items.map((l) => ({
                  value: l.id,
                  label: `${l.name}${l.status === 'enabled' ? '' : t('schedules.libraryDisabled')}`,
                }))
              }
            />
          ) : kind ? (
            <ProFormTextArea name="paramsJson" label={t('schedules.params')} fieldProps={{ rows: 4 }} />
          ) : null
        }
      </ProFormDependency>
      <ProFormText
        name="cron"
        label={t('schedules.cron')}
        tooltip={t('schedules.cronHelp')}
        extra={
          <Space size={4} wrap style={{ marginTop: 4 }}>
            <Typography.Text type="secondary">{t('schedules.cronPresets')}:</Typography.Text>
            {PRESETS.map(([key, expr]) => (
              <Button key={key} size="small" onClick={() => form.setFieldsValue({ cron: expr })}>
                {t(`schedules.presets.${key}`)}
              </Button>
            ))}
          </Space>
        }
        fieldProps={{ style: { fontFamily: 'monospace' }, autoComplete: 'off' }}
        rules={[{ required: true, max: SCHEDULE_CRON_MAX }]}
      />
      <div style={{ marginBottom: 16 }}>
        <CronPreview form={form} />
      </div>
      {!schedule && <ProFormSwitch name="enabled" label={t('schedules.enabled')} />}
    </ModalForm>
  );
}
