import { ProFormSwitch, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import { QC_DESCRIPTION_MAX, QC_NAME_MAX } from '@crdp/core';
import { App, Button, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../app/i18n';
import { textRule } from '../../app/text-rule';
import { fieldError } from './api';
import { QC_NS } from './i18n';

/** The name of a rule or plan: required, at most QC_NAME_MAX characters, plain text. */
export function QcNameField() {
  const { t } = useTranslation(QC_NS);
  return (
    <ProFormText
      name="name"
      label={t('common.name')}
      fieldProps={{ maxLength: QC_NAME_MAX }}
      rules={[{ required: true, whitespace: true, message: t('rules.required') }, textRule(currentLocale())]}
    />
  );
}

/** The on/off switch and the description of a rule or plan, the last fields of its drawer. */
export function QcEnabledAndDescription() {
  const { t } = useTranslation(QC_NS);
  return (
    <>
      <ProFormSwitch name="enabled" label={t('common.on')} />
      <ProFormTextArea
        name="description"
        label={t('common.description')}
        fieldProps={{ rows: 2, maxLength: QC_DESCRIPTION_MAX }}
        rules={[textRule(currentLocale(), { multiline: true })]}
      />
    </>
  );
}

/** The 编辑 link that opens a row's drawer. */
export function EditLink() {
  const { t } = useTranslation(QC_NS);
  return (
    <Button type="link" size="small">
      {t('common.edit')}
    </Button>
  );
}

/**
 * The onFinish of a rule or plan drawer: save, say so and close; a refusal stays open with the
 * server's message under the field it names and as a message.
 */
export function useSaveDrawer<T>(form: FormInstance<T>, onSaved: () => void) {
  const { t } = useTranslation(QC_NS);
  const { message } = App.useApp();
  return async (save: () => Promise<unknown>) => {
    try {
      await save();
      message.success(t('common.saved'));
      onSaved();
      return true;
    } catch (e) {
      const f = fieldError(e);
      if (f) form.setFields([{ name: f.name as never, errors: [f.message] }]);
      message.error((e as Error).message);
      return false;
    }
  };
}
