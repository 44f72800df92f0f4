import { ProForm, ProFormTextArea } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import { App, Card, Empty, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSubjectId } from '../research/useSubjectId';
import { mcApi } from './api';
import { MC_NS } from './i18n';

/** topic-description: the protocol (editable by the leading center), centers and pooled aggregates. */
export default function TopicDescription() {
  const { t } = useTranslation(MC_NS);
  const { message } = App.useApp();
  const id = useSubjectId();
  const topic = useQuery({
    queryKey: ['mc', 'topic', id],
    queryFn: () => mcApi.get(id!),
    enabled: id !== null,
  });
  const pooled = useQuery({
    queryKey: ['mc', 'pooled', id],
    queryFn: () => mcApi.pooled(id!),
    enabled: id !== null,
  });
  if (id === null) return <Empty />;
  const d = topic.data;
  if (!d) return <Card loading />;
  const lead = d.role === 'lead';
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Card title={d.name} extra={<Tag color={lead ? 'blue' : 'default'}>{t(d.role)}</Tag>}>
        <ProForm
          initialValues={d.protocol}
          disabled={!lead}
          submitter={lead ? { searchConfig: { submitText: t('save') }, resetButtonProps: false } : false}
          onFinish={async (v) => {
            try {
              await mcApi.saveProtocol(id, v);
              message.success(t('saved'));
            } catch (e) {
              message.error((e as Error).message);
            }
          }}
        >
          {(['background', 'objectives', 'design', 'endpoints'] as const).map((k) => (
            <ProFormTextArea key={k} name={k} label={t(k)} />
          ))}
        </ProForm>
        <Space wrap>
          {d.centers.map((c: { appId: number; name: string; role: string }) => (
            <Tag key={c.appId}>
              {c.name} · {t(c.role)}
            </Tag>
          ))}
        </Space>
      </Card>
      <Card title={t('pooled')}>
        <Table
          rowKey="appId"
          size="small"
          pagination={false}
          dataSource={pooled.data?.centers ?? []}
          columns={[
            { title: t('lead'), dataIndex: 'name' },
            { title: t('cases'), dataIndex: 'cases' },
            ...(d.variables as Array<{ key: string; label: string }>).map((v) => ({
              title: v.label,
              render: (
                _: unknown,
                r: { variables: Array<{ key: string; n: number; mean?: number | null }> },
              ) => {
                const x = r.variables.find((y) => y.key === v.key);
                return x ? `n=${x.n}${x.mean != null ? `, x̄=${x.mean.toFixed(1)}` : ''}` : '-';
              },
            })),
          ]}
        />
      </Card>
    </Space>
  );
}
