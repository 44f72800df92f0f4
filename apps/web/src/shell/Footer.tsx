import { useTranslation } from 'react-i18next';
import { useSite } from '../app/queries';

/** `© 2019 {company}` (spec 000 section 1); the company comes from the site configuration. */
export function Footer() {
  const { t } = useTranslation();
  const { company } = useSite();
  return (
    <footer style={{ padding: '16px 0', textAlign: 'center', color: 'rgba(0,0,0,0.45)', fontSize: 14 }}>
      {t('footer.copyright', { company: company || t('app.name') })}
    </footer>
  );
}
