import { useQuery } from '@tanstack/react-query';
import { getSite, type SiteConfig } from '../api/auth';
import { getNotices } from '../api/notices';
import { useSession } from './session';

const FALLBACK_SITE: SiteConfig = {
  documentTitle: '',
  menuTitle: '',
  loginTitle: '',
  loginLogo: null,
  environment: null,
  hiddenEnvironment: null,
  company: '',
  multiCenter: false,
};

/** Site configuration (titles, logo, environment, company); public, cached for the visit. */
export function useSite(): SiteConfig {
  const { data } = useQuery({ queryKey: ['site'], queryFn: getSite, staleTime: Number.POSITIVE_INFINITY });
  return data ?? FALLBACK_SITE;
}

/** The signed-in user's notices, refreshed every minute. */
export function useNotices() {
  const { token, ssh } = useSession();
  return useQuery({
    queryKey: ['notices', token],
    queryFn: getNotices,
    enabled: !!token && !ssh,
    refetchInterval: 60_000,
  });
}
