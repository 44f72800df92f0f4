import type { CrfRecordStatus as RecordStatus } from '@crdp/crf';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { CRF_NS } from './i18n';

const STATUS_COLOR: Record<RecordStatus, string> = {
  draft: 'default',
  submitted: 'processing',
  verified: 'success',
  locked: 'warning',
};

/** A CRF record's status in the reader's language (草稿, 已提交, 已核查, 已锁定), never its code. */
export function StatusTag({ status }: { status: RecordStatus }) {
  const { t } = useTranslation(CRF_NS);
  return (
    <Tag color={STATUS_COLOR[status]} data-status={status}>
      {t(`records.${status}`)}
    </Tag>
  );
}
