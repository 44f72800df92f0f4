import { TASK_STATUS_TABLE } from '@crdp/core';
import { Badge } from 'antd';
import { useTranslation } from 'react-i18next';

/** A task status with its badge and class (spec 001 section 3). */
export function StatusTag({ status }: { status: string }) {
  const { i18n } = useTranslation();
  const e = TASK_STATUS_TABLE.find((x) => x.code === status);
  const locale = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  return <Badge className={e?.className} status={e?.badge ?? 'default'} text={e?.label[locale] ?? status} />;
}
export function statusText(status: string, lang: string) {
  const e = TASK_STATUS_TABLE.find((x) => x.code === status);
  return e?.label[lang === 'en-US' ? 'en-US' : 'zh-CN'] ?? status;
}
