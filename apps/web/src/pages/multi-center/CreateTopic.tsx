import {
  ProForm,
  ProFormCheckbox,
  ProFormDigit,
  ProFormGroup,
  ProFormList,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import {
  MC_PROTOCOL_TEXT_MAX,
  MC_TOPIC_NAME_MAX,
  MC_VARIABLE_KEY_PATTERN,
  MC_VARIABLE_LABEL_MAX,
} from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { RequestError } from '../../api/client';
import { useSite } from '../../app/queries';
import { type Center, mcApi, type TopicVariableInput } from './api';
import { MC_NS } from './i18n';
import { MultiCenterOff } from './ModeOff';

interface Values {
  name: string;
  centerAppIds?: number[];
  variables: Array<{ key: string; label: string; min?: number; max?: number; required?: boolean }>;
  background?: string;
  objectives?: string;
  design?: string;
  endpoints?: string;
}

/** The protocol's texts, one text area each, labelled by their own key. */
const PROTOCOL_FIELDS = ['background', 'objectives', 'design', 'endpoints'] as const;

/** create-topic: this center leads; the participating centers are picked from a list; variables with plausible ranges. */
export default function CreateTopic() {
  const { t, i18n } = useTranslation(MC_NS);
  const { message } = App.useApp();
  const navigate = useNavigate();
  const site = useSite();
  const centers = useQuery({
    queryKey: ['mc', 'centers'],
    queryFn: () => mcApi.centers(),
    retry: false,
    enabled: site.multiCenter,
  });
  const en = i18n.language === 'en-US';
  if (!site.multiCenter)
    return (
      <Card title={t('create')}>
        <MultiCenterOff />
      </Card>
    );
  return (
    <Card title={t('create')}>
      {centers.error && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message={(centers.error as Error).message}
          data-testid="centers-error"
        />
      )}
      <ProForm<Values>
        initialValues={{
          variables: [
            {
              key: 'sbp',
              label: en ? 'Systolic BP (mmHg)' : '收缩压（mmHg）',
              min: 60,
              max: 260,
              required: true,
            },
            {
              key: 'dbp',
              label: en ? 'Diastolic BP (mmHg)' : '舒张压（mmHg）',
              min: 30,
              max: 160,
              required: true,
            },
          ],
        }}
        onFinish={async (v) => {
          try {
            const variables: TopicVariableInput[] = v.variables.map((x) => ({
              key: x.key.trim(),
              label: x.label.trim(),
              required: x.required ?? false,
              ...(x.min !== undefined && x.min !== null ? { min: x.min } : {}),
              ...(x.max !== undefined && x.max !== null ? { max: x.max } : {}),
            }));
            const r = await mcApi.create({
              name: v.name,
              variables,
              centerAppIds: v.centerAppIds ?? [],
              protocol: {
                background: v.background ?? '',
                objectives: v.objectives ?? '',
                design: v.design ?? '',
                endpoints: v.endpoints ?? '',
              },
            });
            navigate(`/multi-center/topic-description?id=${r.id}`);
            return true;
          } catch (e) {
            const field =
              e instanceof RequestError ? (e.body as { field?: string } | undefined)?.field : undefined;
            message.error(field?.startsWith('centerAppIds.') ? t('noSuchCenter') : (e as Error).message);
            return false;
          }
        }}
      >
        <ProFormText
          name="name"
          label={t('topicName')}
          rules={[{ required: true }, { max: MC_TOPIC_NAME_MAX }]}
          width="lg"
        />
        <ProFormSelect
          name="centerAppIds"
          label={t('pickCenters')}
          tooltip={t('pickCentersHelp')}
          mode="multiple"
          width="lg"
          fieldProps={{
            loading: centers.isLoading,
            notFoundContent: t('pickCentersEmpty'),
            // biome-ignore lint/suspicious/noExplicitAny: antd's Select test id passes through to the selector
            ...({ 'data-testid': 'pick-centers' } as any),
          }}
          options={(centers.data ?? []).map((c: Center) => ({
            value: c.appId,
            label: `${c.name}（${c.shortName}）`,
          }))}
        />
        <ProFormList
          name="variables"
          label={t('variables')}
          tooltip={t('variablesHelp')}
          min={1}
          creatorButtonProps={{ creatorButtonText: t('addVariable') }}
          copyIconProps={false}
        >
          <ProFormGroup>
            <ProFormText
              name="key"
              label={t('varKey')}
              width="xs"
              rules={[{ required: true }, { pattern: MC_VARIABLE_KEY_PATTERN, message: t('varKeyRule') }]}
            />
            <ProFormText
              name="label"
              label={t('varLabel')}
              width="sm"
              rules={[{ required: true }, { max: MC_VARIABLE_LABEL_MAX }]}
            />
            <ProFormDigit
              name="min"
              label={t('varMin')}
              width="xs"
              fieldProps={{ precision: undefined }}
              min={-1e9}
            />
            <ProFormDigit
              name="max"
              label={t('varMax')}
              width="xs"
              fieldProps={{ precision: undefined }}
              min={-1e9}
            />
            <ProFormCheckbox name="required" label={t('varRequired')} />
          </ProFormGroup>
        </ProFormList>
        {PROTOCOL_FIELDS.map((name) => (
          <ProFormTextArea
            key={name}
            name={name}
            label={t(name)}
            width="lg"
            rules={[{ max: MC_PROTOCOL_TEXT_MAX }]}
          />
        ))}
      </ProForm>
    </Card>
  );
}
