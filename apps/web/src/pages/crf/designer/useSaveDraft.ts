import type { Form } from '@crdp/crf';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { CRF_NS } from '../../../components/crf/i18n';
import { crfApi, refusalText } from '../api';

/**
 * Saves a form's draft and puts it in the form's query cache: the designer and the table editor
 * open from that cache, so switching between them shows what was just saved. Answers whether
 * the save went through; a refusal is shown in the server's words, without the field's path.
 */
export function useSaveDraft(formId: number) {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const { t } = useTranslation(CRF_NS);
  return async (form: Form) => {
    try {
      await crfApi.saveDraft(formId, form);
      qc.setQueryData(['crf', 'form', formId], (old: object | undefined) =>
        old ? { ...old, draft: form } : old,
      );
      message.success(t('list.saved'));
      return true;
    } catch (e) {
      message.error(refusalText(e));
      return false;
    }
  };
}
