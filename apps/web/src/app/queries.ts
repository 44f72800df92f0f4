import { type SiteSettings, siteText } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getSite } from '../api/auth';
import { getNotices } from '../api/notices';
import { useSession } from './session';

const FALLBACK_SITE: SiteSettings = {
  documentTitle: '',
  menuTitle: '',
  loginTitle: '',
  loginLogo: '',
  environment: '',
  hiddenEnvironment: '',
  company: '',
  multiCenter: false,
};

/** Site configuration (titles, logo, environment, company); public, cached for the visit. */
export function useSite(): SiteSettings {
  const { data } = useQuery({ queryKey: ['site'], queryFn: getSite, staleTime: Number.POSITIVE_INFINITY });
  const { i18n } = useTranslation();
  const site = data ?? FALLBACK_SITE;
  const lang = i18n.language;
  // Defaults the site never changed read in the reader's language (the stored text is Chinese).
  return {
    ...site,
    documentTitle: siteText('documentTitle', site.documentTitle, lang),
    loginTitle: siteText('loginTitle', site.loginTitle, lang),
    environment: siteText('environment', site.environment, lang),
    hiddenEnvironment: siteText('hiddenEnvironment', site.hiddenEnvironment, lang),
  };
}

/** The signed-in user's notices, refreshed every minute. */
export function useNotices() {
  const { token, ssh } = useSession();
  const { i18n } = useTranslation();
  return useQuery({
    // Titles are worded by the server in the reader's language: a language change reads them again.
    queryKey: ['notices', token, i18n.language],
    queryFn: getNotices,
    enabled: !!token && !ssh,
    refetchInterval: 60_000,
  });
}
