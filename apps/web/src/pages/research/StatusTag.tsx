import { label, TASK_STATUS_TABLE } from '@crdp/core';
import { Badge } from 'antd';
import { useLabel } from '../../app/labels';

/** A task status with its badge and class (spec 001 section 3). */
export function StatusTag({ status }: { status: string }) {
  const word = useLabel();
  const e = TASK_STATUS_TABLE.find((x) => x.code === status);
  return <Badge className={e?.className} status={e?.badge ?? 'default'} text={word('taskStatus', status)} />;
}
export function statusText(status: string, lang: string) {
  return label('taskStatus', status, lang === 'en-US' ? 'en-US' : 'zh-CN');
}
