import { ProForm, ProFormDigit } from '@ant-design/pro-components';
import { ODM_BATCH_MAX, ODM_BATCH_MIN, ODM_CONCURRENCY_MAX } from '@crdp/core';
import { App, Card, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useHasAction } from '../../components/Authorized';
import { useJobPoll } from '../../components/jobs/useJobPoll';
import { odmApi } from './api';
import { ODM_NS } from './i18n';
import { time } from './parts';

/** concurrent-settings: how many ODM generations run at once (kept by the job runner) and the batch size. */
export default function ConcurrencySettings() {
  const { t } = useTranslation(ODM_NS);
  const { message } = App.useApp();
  const can = useHasAction();
  const editable = can('OdmConcurrentSettings', 'edit');
  const settings = useJobPoll({
    queryKey: ['odm', 'concurrency'],
    queryFn: () => odmApi.concurrency(),
    underWay: (s) => s.running + s.queued > 0,
  });
  const s = settings.data;
  return (
    <Card title={t('concurrency.title')} loading={settings.isLoading}>
      <Typography.Paragraph type="secondary">{t('concurrency.hint')}</Typography.Paragraph>
      {s && (
        <>
          <Descriptions size="small" bordered column={3} style={{ marginBottom: 24, maxWidth: 720 }}>
            <Descriptions.Item label={t('concurrency.running')}>
              <span data-testid="odm-running">{s.running}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('concurrency.queued')}>
              <span data-testid="odm-queued">{s.queued}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('concurrency.updatedAt')}>
              {s.updatedAt ? time(s.updatedAt) : t('concurrency.never')}
            </Descriptions.Item>
          </Descriptions>
          <ProForm<{ maxRunning: number; batchSize: number }>
            layout="horizontal"
            labelCol={{ span: 6 }}
            style={{ maxWidth: 520 }}
            disabled={!editable}
            initialValues={{ maxRunning: s.maxRunning, batchSize: s.batchSize }}
            submitter={
              editable
                ? {
                    searchConfig: { submitText: t('concurrency.save') },
                    resetButtonProps: false,
                    submitButtonProps: { 'data-testid': 'odm-concurrency-save' } as Record<string, string>,
                  }
                : false
            }
            onFinish={async (v) => {
              try {
                await odmApi.setConcurrency(v);
                message.success(t('concurrency.saved'));
                await settings.refetch();
                return true;
              } catch {
                return false;
              }
            }}
          >
            <ProFormDigit
              name="maxRunning"
              label={t('concurrency.maxRunning')}
              min={1}
              max={ODM_CONCURRENCY_MAX}
              fieldProps={{ precision: 0, id: 'odm-max-running' }}
              rules={[{ required: true }]}
            />
            <ProFormDigit
              name="batchSize"
              label={t('concurrency.batchSize')}
              min={ODM_BATCH_MIN}
              max={ODM_BATCH_MAX}
              fieldProps={{ precision: 0, id: 'odm-batch-size' }}
              rules={[{ required: true }]}
            />
          </ProForm>
        </>
      )}
    </Card>
  );
}
