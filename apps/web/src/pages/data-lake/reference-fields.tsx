import { ProFormText } from '@ant-design/pro-components';
import { REFERENCE_CODE_MAX, REFERENCE_CODE_PATTERN, REFERENCE_NAME_MAX } from '@crdp/core';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../app/i18n';
import { textRule } from '../../app/text-rule';
import { REFERENCE_NS } from './reference-i18n';

/** The name of a hospital unit, a dictionary or an entry: required, plain text, at most `max`. */
export function ReferenceNameField({ max = REFERENCE_NAME_MAX }: { max?: number }) {
  const { t } = useTranslation(REFERENCE_NS);
  return (
    <ProFormText
      name="name"
      label={t('common.name')}
      rules={[
        { required: true, whitespace: true, message: t('units.nameRequired') },
        textRule(currentLocale()),
      ]}
      fieldProps={{ maxLength: max }}
    />
  );
}

/** The code of a hospital unit or an entry: required, letters, digits and the few marks codes use. */
export function ReferenceCodeField() {
  const { t } = useTranslation(REFERENCE_NS);
  return (
    <ProFormText
      name="code"
      label={t('common.code')}
      rules={[
        { required: true, whitespace: true, message: t('units.codeRequired') },
        { pattern: REFERENCE_CODE_PATTERN, message: t('units.codeRule') },
      ]}
      fieldProps={{ maxLength: REFERENCE_CODE_MAX }}
    />
  );
}

/** Whether a hospital unit or an entry is in use. */
export function EnabledTag({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation(REFERENCE_NS);
  return enabled ? <Tag color="success">{t('common.enabled')}</Tag> : <Tag>{t('common.disabled')}</Tag>;
}
