import { ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import { currentLocale } from '../../app/i18n';
import { textRule } from '../../app/text-rule';

/**
 * The name (required, no control characters) and description fields that every definition form
 * (formulas, scales, indicator templates, T0 events…) starts with, held to the server's limits.
 */
export function NameDescriptionFields({
  nameLabel,
  nameRequired,
  nameMax,
  descriptionLabel,
  descriptionMax,
}: {
  nameLabel: string;
  /** The message when the name is left empty. */
  nameRequired: string;
  nameMax: number;
  descriptionLabel: string;
  descriptionMax: number;
}) {
  return (
    <>
      <ProFormText
        name="name"
        label={nameLabel}
        rules={[{ required: true, whitespace: true, message: nameRequired }, textRule(currentLocale())]}
        fieldProps={{ maxLength: nameMax }}
      />
      <ProFormTextArea
        name="description"
        label={descriptionLabel}
        rules={[textRule(currentLocale())]}
        fieldProps={{ maxLength: descriptionMax, rows: 2 }}
      />
    </>
  );
}
