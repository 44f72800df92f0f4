import {
  ModalForm,
  ProFormDigit,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import { OMOP_CONCEPT_ID_MAX, OMOP_CONCEPT_NAME_MAX, OMOP_NOTE_MAX, OMOP_SOURCE_CODE_MAX } from '@crdp/core';
import { Form } from 'antd';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../app/i18n';
import { textRule } from '../../app/text-rule';
import { useSaveAndClose } from '../../components/form/useSaveAndClose';
import { MAPPING_KINDS, type Mapping, type MappingInput, type MappingKind, omopApi } from './api';
import { OMOP_NS } from './i18n';

/**
 * The create/edit form of a source-to-concept map. Opened by its trigger, or controlled with
 * `open` (the task page opens it prefilled from an unmapped code).
 */
export function MappingForm({
  mapping,
  prefill,
  trigger,
  open,
  onOpenChange,
  onDone,
}: {
  mapping?: Mapping;
  prefill?: Partial<MappingInput>;
  trigger?: ReactElement;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  onDone: () => void;
}) {
  const { t } = useTranslation(OMOP_NS);
  const saveAndClose = useSaveAndClose();
  const [form] = Form.useForm<MappingInput>();
  const kind = Form.useWatch('kind', form) as MappingKind | undefined;
  return (
    <ModalForm<MappingInput>
      form={form}
      title={mapping ? t('mappings.editTitle') : t('mappings.create')}
      trigger={trigger}
      open={open}
      onOpenChange={onOpenChange}
      width={520}
      modalProps={{ destroyOnHidden: true }}
      initialValues={
        mapping
          ? {
              kind: mapping.kind,
              sourceCode: mapping.sourceCode,
              conceptId: mapping.conceptId,
              conceptName: mapping.conceptName,
              note: mapping.note,
            }
          : { kind: 'condition', ...prefill }
      }
      onFinish={async (v) => {
        const data: MappingInput = {
          kind: v.kind,
          sourceCode: v.sourceCode,
          conceptId: Number(v.conceptId),
          conceptName: v.conceptName,
          note: v.note ?? '',
        };
        return saveAndClose(
          () => (mapping ? omopApi.updateMapping(mapping.id, data) : omopApi.createMapping(data)),
          t('mappings.saved'),
          onDone,
        );
      }}
    >
      <ProFormSelect
        name="kind"
        label={t('mappings.kind')}
        rules={[{ required: true }]}
        options={MAPPING_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
        allowClear={false}
      />
      <ProFormText
        name="sourceCode"
        label={t('mappings.sourceCode')}
        extra={kind ? t(`kindHints.${kind}`) : undefined}
        rules={[{ required: true, whitespace: true, max: OMOP_SOURCE_CODE_MAX }, textRule(currentLocale())]}
      />
      <ProFormDigit
        name="conceptId"
        label={t('mappings.conceptId')}
        extra={t('mappings.conceptIdHint')}
        min={1}
        max={OMOP_CONCEPT_ID_MAX}
        fieldProps={{ precision: 0, style: { width: '100%' } }}
        rules={[{ required: true }]}
      />
      <ProFormText
        name="conceptName"
        label={t('mappings.conceptName')}
        rules={[{ required: true, whitespace: true, max: OMOP_CONCEPT_NAME_MAX }, textRule(currentLocale())]}
      />
      <ProFormTextArea
        name="note"
        label={t('mappings.note')}
        fieldProps={{ rows: 2, maxLength: OMOP_NOTE_MAX }}
        rules={[textRule(currentLocale())]}
      />
    </ModalForm>
  );
}
