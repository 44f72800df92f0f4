import { PlusOutlined } from '@ant-design/icons';
import { ModalForm, ProFormSelect } from '@ant-design/pro-components';
import type { ObservationDomain, OdmTopic } from '@crdp/core';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { Authorized, useHasAction } from '../../components/Authorized';
import { JobStatusTag } from '../../components/jobs/JobStatusTag';
import { RefreshingDeleteLink } from '../../components/RefreshingDeleteLink';
import { odmApi } from './api';
import { ODM_NS } from './i18n';
import { GenerationList, useTopics } from './parts';

const PERM = 'OdmListTopics';

/** list-topics: research subjects chosen for ODM files, what their files carry, generation and the files. */
export default function Topics() {
  const { t } = useTranslation(ODM_NS);
  const word = useLabel();
  const { message } = App.useApp();
  const can = useHasAction();
  const client = useQueryClient();
  const topics = useTopics();
  const refresh = () => client.invalidateQueries({ queryKey: ['odm'] });

  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <Card
        title={t('topics.title')}
        extra={
          <Authorized apiId={`${PERM}.add`}>
            <ModalForm<{ subjectId: number }>
              title={t('topics.add')}
              width={480}
              modalProps={{ destroyOnHidden: true }}
              trigger={
                <Button type="primary" icon={<PlusOutlined />} data-testid="odm-topic-add">
                  {t('topics.add')}
                </Button>
              }
              onFinish={async (v) => {
                try {
                  await odmApi.addTopic(v.subjectId);
                  message.success(t('topics.added'));
                  await refresh();
                  return true;
                } catch {
                  return false;
                }
              }}
            >
              <ProFormSelect
                name="subjectId"
                label={t('topics.subject')}
                placeholder={t('topics.subjectPlaceholder')}
                rules={[{ required: true }]}
                request={async () =>
                  (await odmApi.subjects()).items.map((s) => ({
                    value: s.id,
                    label: `${s.name}（${s.patients}）`,
                  }))
                }
                fieldProps={{ 'data-testid': 'odm-subject-select' } as object}
              />
            </ModalForm>
          </Authorized>
        }
      >
        <Typography.Paragraph type="secondary">{t('topics.hint')}</Typography.Paragraph>
        <Table<OdmTopic>
          rowKey="id"
          loading={topics.isLoading}
          dataSource={topics.data?.items ?? []}
          pagination={false}
          locale={{ emptyText: <Empty description={t('topics.empty')} /> }}
          columns={[
            { title: t('topics.subject'), dataIndex: 'subjectName' },
            { title: t('topics.patients'), dataIndex: 'patients', width: 100 },
            {
              title: t('topics.content'),
              key: 'content',
              render: (_, r) => (
                <Space wrap size={[4, 4]}>
                  {r.domains.map((d: ObservationDomain) => (
                    <Tag key={d}>{word('observationDomain', d)}</Tag>
                  ))}
                  {r.elements.length > 0 && (
                    <Tag color="purple">{t('topics.elements', { count: r.elements.length })}</Tag>
                  )}
                </Space>
              ),
            },
            {
              title: t('topics.lastFile'),
              key: 'last',
              width: 130,
              render: (_, r) =>
                r.lastGeneration ? (
                  <JobStatusTag status={r.lastGeneration.status} />
                ) : (
                  <Typography.Text type="secondary">{t('topics.none')}</Typography.Text>
                ),
            },
            {
              title: '',
              key: 'op',
              width: 200,
              render: (_, r) => (
                <Space size={0}>
                  {can('OdmClinicalData', 'export') && (
                    <Button
                      size="small"
                      type="link"
                      data-testid={`odm-generate-${r.id}`}
                      onClick={async () => {
                        try {
                          await odmApi.generate(r.id);
                          message.success(t('topics.generated'));
                        } finally {
                          await refresh();
                        }
                      }}
                    >
                      {t('topics.generate')}
                    </Button>
                  )}
                  {can(PERM, 'delete') && (
                    <RefreshingDeleteLink
                      title={t('topics.confirmDelete', { name: r.subjectName })}
                      text={t('topics.delete')}
                      onDelete={() => odmApi.removeTopic(r.id)}
                      onDone={refresh}
                    />
                  )}
                </Space>
              ),
            },
          ]}
        />
      </Card>
      {can('OdmClinicalData', 'query') && (
        <Card title={t('files.title')} size="small">
          <GenerationList />
        </Card>
      )}
    </Space>
  );
}
