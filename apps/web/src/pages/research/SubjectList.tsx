import { ProTable } from '@ant-design/pro-components';
import { TASK_STATUS_TABLE } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CutText } from '../../components/CutText';
import { useNarrowTable } from '../../components/table/narrow';
import { proPage } from '../../components/table/paging';
import { researchApi, type SubjectListItem } from './api';
import { RESEARCH_NS } from './i18n';
import { StatusTag } from './StatusTag';
import { PersonName, useAppUsers, userLabel } from './Team';

/**
 * subject-list: the app's research subjects, filtered by status, type and member. The subject
 * pages show it when opened without a subject; a name opens `target` for that subject.
 */
export default function SubjectList({ target = 'subject-list/project-data' }: { target?: string }) {
  const { t, i18n } = useTranslation(RESEARCH_NS);
  const narrowTable = useNarrowTable();
  const navigate = useNavigate();
  const types = useQuery({ queryKey: ['research', 'types'], queryFn: researchApi.types });
  const users = useAppUsers();
  const locale = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  return (
    <ProTable<SubjectListItem>
      rowKey="id"
      headerTitle={t('list.title')}
      // On a phone the four filters start folded: the list comes first.
      search={{ labelWidth: 'auto', defaultCollapsed: narrowTable.className !== undefined }}
      pagination={{ defaultPageSize: 10 }}
      toolBarRender={() => [
        <Button
          key="new"
          type="primary"
          onClick={() => navigate('/scientific-research-subject/create-subject')}
        >
          {t('list.create')}
        </Button>,
      ]}
      request={async (p) => {
        const r = await researchApi.list({
          ...proPage(p, 10),
          keyword: p.name || undefined,
          status: p.status || undefined,
          typeCode: p.typeCode || undefined,
          memberId: p.memberId || undefined,
        });
        return { data: r.items, total: r.total, success: true };
      }}
      {...narrowTable}
      columns={[
        {
          title: t('list.name'),
          dataIndex: 'name',
          render: (_, r) => (
            <Button
              type="link"
              size="small"
              onClick={() => navigate(`/scientific-research-subject/${target}?id=${r.id}`)}
            >
              <CutText text={r.name} />
            </Button>
          ),
        },
        {
          title: t('list.type'),
          dataIndex: 'typeCode',
          valueType: 'select',
          fieldProps: { options: (types.data ?? []).map((x) => ({ value: x.code, label: x.name })) },
          render: (_, r) => r.typeName,
        },
        {
          title: t('list.pi'),
          dataIndex: 'piName',
          search: false,
          render: (_, r) => <PersonName userName={r.piName ?? ''} nickname={r.piNickname} />,
        },
        {
          title: t('list.status'),
          dataIndex: 'status',
          valueType: 'select',
          fieldProps: {
            options: TASK_STATUS_TABLE.map((s) => ({ value: s.code, label: s.label[locale] })),
          },
          render: (_, r) => <StatusTag status={r.status} />,
        },
        { title: t('list.enrolled'), dataIndex: 'enrolled', search: false },
        {
          title: t('list.member'),
          dataIndex: 'memberId',
          hideInTable: true,
          valueType: 'select',
          fieldProps: {
            showSearch: true,
            optionFilterProp: 'label',
            'data-testid': 'member-filter',
            options: (users.data ?? []).map((u) => ({ value: u.userId, label: userLabel(u) })),
          },
        },
      ]}
    />
  );
}
