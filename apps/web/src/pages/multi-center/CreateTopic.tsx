import { ProForm, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import { App, Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { mcApi } from './api';
import { MC_NS } from './i18n';

/** create-topic: this center leads; others join by app id; variables with plausible ranges. */
export default function CreateTopic() {
  const { t } = useTranslation(MC_NS);
  const { message } = App.useApp();
  const navigate = useNavigate();
  return (
    <Card title={t('create')}>
      <ProForm<{
        name: string;
        centers?: string;
        variables: string;
        background?: string;
        objectives?: string;
        design?: string;
        endpoints?: string;
      }>
        onFinish={async (v) => {
          try {
            const variables = v.variables
              .split('\n')
              .map((l) => l.trim())
              .filter(Boolean)
              .map((l) => {
                const [key, label, min, max] = l.split(':');
                return {
                  key,
                  label: label || key,
                  ...(min ? { min: Number(min) } : {}),
                  ...(max ? { max: Number(max) } : {}),
                };
              });
            const r = await mcApi.create({
              name: v.name,
              variables,
              centerAppIds: (v.centers ?? '')
                .split(/[,，\s]+/)
                .filter(Boolean)
                .map(Number),
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
            message.error((e as Error).message);
            return false;
          }
        }}
      >
        <ProFormText name="name" label={t('name')} rules={[{ required: true }]} width="lg" />
        <ProFormText name="centers" label={t('centerIds')} width="lg" />
        <ProFormTextArea
          name="variables"
          label={t('variables')}
          rules={[{ required: true }]}
          initialValue={'sbp:收缩压:60:260\ndbp:舒张压:30:160'}
          width="lg"
        />
        <ProFormTextArea name="background" label={t('background')} width="lg" />
        <ProFormTextArea name="objectives" label={t('objectives')} width="lg" />
        <ProFormTextArea name="design" label={t('design')} width="lg" />
        <ProFormTextArea name="endpoints" label={t('endpoints')} width="lg" />
      </ProForm>
    </Card>
  );
}
