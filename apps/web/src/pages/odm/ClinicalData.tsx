import { ProForm, ProFormCheckbox, ProFormDateRangePicker } from '@ant-design/pro-components';
import type { ObservationDomain, OdmTopic } from '@crdp/core';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabelOptions } from '../../app/labels';
import { useHasAction } from '../../components/Authorized';
import { odmApi } from './api';
import { ODM_NS } from './i18n';
import { GenerationList, TopicPicker, useTopics } from './parts';

function ClinicalDataForm({ topic }: { topic: OdmTopic }) {
  const { t } = useTranslation(ODM_NS);
  const { message } = App.useApp();
  const can = useHasAction();
  const client = useQueryClient();
  const options = useLabelOptions('observationDomain');
  const editable = can('OdmListTopics', 'edit');
  return (
    <ProForm<{ domains: ObservationDomain[]; range?: [string, string] }>
      key={topic.id}
      disabled={!editable}
      initialValues={{
        domains: topic.domains,
        range: topic.fromDate && topic.toDate ? [topic.fromDate, topic.toDate] : undefined,
      }}
      submitter={
        editable
          ? {
              searchConfig: { submitText: t('clinical.save') },
              resetButtonProps: false,
              submitButtonProps: { 'data-testid': 'odm-clinical-save' } as Record<string, string>,
            }
          : false
      }
      onFinish={async (v) => {
        try {
          const [from, to] = v.range ?? [];
          await odmApi.setClinicalData(topic.id, {
            domains: v.domains ?? [],
            fromDate: from ? dayjs(from).format('YYYY-MM-DD') : null,
            toDate: to ? dayjs(to).format('YYYY-MM-DD') : null,
          });
          message.success(t('clinical.saved'));
          await client.invalidateQueries({ queryKey: ['odm', 'topics'] });
          return true;
        } catch {
          return false;
        }
      }}
    >
      <ProFormCheckbox.Group name="domains" label={t('clinical.domains')} options={options} />
      <ProFormDateRangePicker name="range" label={t('clinical.range')} />
    </ProForm>
  );
}

/** clinical-data: what of the observation store a topic's ODM files carry, generation and the files. */
export default function ClinicalData() {
  const { t } = useTranslation(ODM_NS);
  const { message } = App.useApp();
  const can = useHasAction();
  const client = useQueryClient();
  const topics = useTopics();
  const [picked, setPicked] = useState<number>();
  const items = topics.data?.items ?? [];
  const topic = items.find((x) => x.id === picked) ?? items[0];
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <Card
        title={t('clinical.title')}
        loading={topics.isLoading}
        extra={
          topic &&
          can('OdmClinicalData', 'export') && (
            <Button
              type="primary"
              data-testid="odm-clinical-generate"
              onClick={async () => {
                try {
                  await odmApi.generate(topic.id);
                  message.success(t('topics.generated'));
                } finally {
                  await client.invalidateQueries({ queryKey: ['odm'] });
                }
              }}
            >
              {t('topics.generate')}
            </Button>
          )
        }
      >
        <Typography.Paragraph type="secondary">{t('clinical.hint')}</Typography.Paragraph>
        <div style={{ marginBottom: 16 }}>
          <TopicPicker topics={items} value={topic?.id} onChange={setPicked} />
        </div>
        {topic && <ClinicalDataForm topic={topic} />}
      </Card>
      {topic && (
        <Card title={t('files.title')} size="small">
          <GenerationList topicId={topic.id} />
        </Card>
      )}
    </Space>
  );
}
