import type { CrfRecordStatus as RecordStatus } from '@crdp/crf';
import { Tag } from 'antd';
import { useLabel } from '../../app/labels';

const STATUS_COLOR: Record<RecordStatus, string> = {
  draft: 'default',
  submitted: 'processing',
  verified: 'success',
  locked: 'warning',
};

/** A CRF record's status in the reader's language (草稿, 已提交, 已核查, 已锁定), never its code. */
export function StatusTag({ status }: { status: RecordStatus }) {
  const word = useLabel();
  return (
    <Tag color={STATUS_COLOR[status]} data-status={status}>
      {word('crfRecordStatus', status)}
    </Tag>
  );
}
