import { useSearchParams } from 'react-router';

/** Subject pages take the subject from `?id=`. */
export function useSubjectId() {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  return Number.isInteger(id) && id > 0 ? id : null;
}
