import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useTabObject } from '../../shell/useTabs';
import { researchApi } from './api';

/** Subject pages take the subject from `?id=`. */
export function useSubjectId() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const valid = Number.isInteger(id) && id > 0;
  // The subject's name in the page's tab (one tab per route names the subject it shows).
  const subject = useQuery({
    queryKey: ['research', 'subject', id],
    queryFn: () => researchApi.get(id),
    enabled: valid,
  });
  useTabObject(subject.data?.name);
  return valid ? id : null;
}
