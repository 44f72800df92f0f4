import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isRouteAllowed } from '../../app/access';
import { useSession } from '../../app/session';
import { MC_NS } from './i18n';

/**
 * Said up front while the hospital runs in single-center mode: topics cannot be made or joined,
 * how the mode is turned on and who may do it; a link when the reader may.
 */
export function MultiCenterOff() {
  const { t } = useTranslation(MC_NS);
  const { access } = useSession();
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 16 }}
      data-testid="multi-center-off"
      message={t('modeOffTitle')}
      description={t('modeOffBody')}
      action={
        access && isRouteAllowed(access, { name: 'SystemSet' }) ? (
          <Link to="/system/system-set">{t('modeOffLink')}</Link>
        ) : undefined
      }
    />
  );
}
