import { ProTable } from '@ant-design/pro-components';
import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../../app/session';
import { CRF_NS } from '../../../components/crf/i18n';
import { LinkButton } from '../../../components/crf/LinkButton';
import { proPage } from '../../../components/table/paging';
import { type CrfRecordRow, crfApi } from '../api';
import { StatusTag } from '../RecordEditor';

/** `/crf/projectData` (ProjectLgData): the records made through this link. */
export default function FreeRecords() {
  const { t } = useTranslation(CRF_NS);
  const { crfObjectId } = useSession();
  const navigate = useNavigate();
  const formId = Number(crfObjectId) || null;
  if (!formId) return <Result status="warning" title={t('free.noForm')} />;
  return (
    <ProTable<CrfRecordRow>
      rowKey="id"
      headerTitle={t('free.mine')}
      search={false}
      request={async (p) => {
        const r = await crfApi.records(formId, proPage(p));
        return { data: r.items, total: r.total, success: true };
      }}
      columns={[
        { title: 'ID', dataIndex: 'id', width: 80 },
        { title: t('records.subject'), dataIndex: 'subjectCode' },
        {
          title: t('records.status'),
          dataIndex: 'status',
          render: (_, r) => <StatusTag status={r.status} />,
        },
        { title: t('records.updatedAt'), dataIndex: 'updatedAt', valueType: 'dateTime' },
        {
          title: t('list.actions'),
          valueType: 'option',
          render: (_, r) => (
            <LinkButton onClick={() => navigate(`/crf/details?recordId=${r.id}`)}>
              {t('records.open')}
            </LinkButton>
          ),
        },
      ]}
    />
  );
}
