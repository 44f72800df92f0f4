import type { Form } from '@crdp/crf';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useUnsavedChanges } from '../../../components/useUnsavedChanges';
import { useTabObject } from '../../../shell/useTabs';
import { crfApi } from '../api';
import { useSaveDraft } from './useSaveDraft';

/**
 * The draft the designer and the table editor edit: the form of `?id=` (its name in the page's
 * tab), taken once from its query, the edits on screen (leaving with unsaved ones asks first),
 * and a save after which the form on screen is the stored one again.
 */
export function useDraft() {
  const [params] = useSearchParams();
  const formId = Number(params.get('id')) || 0;
  const saveDraft = useSaveDraft(formId);
  const { markDirty, markSaved } = useUnsavedChanges();
  const meta = useQuery({
    queryKey: ['crf', 'form', formId],
    queryFn: () => crfApi.form(formId),
    enabled: !!formId,
  });
  useTabObject(meta.data?.name);
  const [form, setForm] = useState<Form | null>(null);
  // The draft as last loaded or saved: any other form on screen is an unsaved edit.
  const [stored, setStored] = useState<Form | null>(null);
  useEffect(() => {
    if (meta.data?.draft && !form) {
      setForm(meta.data.draft);
      setStored(meta.data.draft);
    }
  }, [meta.data, form]);
  useEffect(() => {
    if (form && stored && form !== stored) markDirty();
  }, [form, stored, markDirty]);
  const save = async (f: Form) => {
    const ok = await saveDraft(f);
    if (ok) {
      setStored(f);
      markSaved();
    }
    return ok;
  };
  return { formId, meta, form, setForm, edited: form !== stored, save };
}
