import { useTranslation } from 'react-i18next';
import { useSettings } from '../shell/useSettings';

/**
 * The spinner shown while a page's code or data loads: antd's large Spin (four dots turning, the
 * text under them, in the primary colour) drawn with CSS (styles.css `.crdp-loading`), since it
 * is on screen before every first page, the login page included, whose download it should not
 * weigh.
 */
export function PageLoading() {
  const { t } = useTranslation();
  const { primaryColor } = useSettings();
  return (
    <div style={{ padding: 96, textAlign: 'center', color: primaryColor }} role="status" aria-live="polite">
      <span className="crdp-loading" aria-hidden="true">
        <i />
        <i />
        <i />
        <i />
      </span>
      <div style={{ paddingTop: 8, height: 48, fontSize: 14 }}>{t('app.loading')}</div>
    </div>
  );
}
