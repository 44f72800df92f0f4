import { ProTable } from '@ant-design/pro-components';
import { Button, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { StatusTag } from '../research/StatusTag';
import { mcApi, type Topic } from './api';
import { MC_NS } from './i18n';

/** topics: the multi-center topics this center leads or takes part in. */
export default function Topics() {
  const { t } = useTranslation(MC_NS);
  const navigate = useNavigate();
  return (
    <ProTable<Topic>
      rowKey="id"
      search={false}
      headerTitle={t('topics')}
      request={async () => ({ data: await mcApi.list(), success: true })}
      toolBarRender={() => [
        <Button key="n" type="primary" onClick={() => navigate('/multi-center/create-topic')}>
          {t('create')}
        </Button>,
      ]}
      columns={[
        {
          title: t('name'),
          dataIndex: 'name',
          render: (_, r) => (
            <Button
              type="link"
              size="small"
              onClick={() => navigate(`/multi-center/topic-description?id=${r.id}`)}
            >
              {r.name}
            </Button>
          ),
        },
        { title: t('lead'), dataIndex: 'leadCenter' },
        {
          title: t('role'),
          dataIndex: 'role',
          render: (_, r) => <Tag color={r.role === 'lead' ? 'blue' : 'default'}>{t(r.role)}</Tag>,
        },
        { title: t('centers'), dataIndex: 'centers' },
        { title: t('status'), dataIndex: 'status', render: (_, r) => <StatusTag status={r.status} /> },
        {
          title: '',
          render: (_, r) => (
            <Button type="link" size="small" onClick={() => navigate(`/multi-center/detection?id=${r.id}`)}>
              {t('detection')}
            </Button>
          ),
        },
      ]}
    />
  );
}
