import { InfoCircleFilled, SettingOutlined } from '@ant-design/icons';
import { Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SUBSCRIPTION_NOTICE_KINDS } from '../api/notices';
import { useNotices, useSite } from '../app/queries';
import { LanguageSwitch } from './LanguageSwitch';
import { NoticeBell } from './NoticeBell';
import { SettingsDrawer } from './SettingsDrawer';

/** Right side of the header: environment, subscription flag, notices, language, dev settings. */
export function HeaderActions() {
  const { t } = useTranslation();
  const site = useSite();
  const notices = useNotices();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const showEnvironment = !!site.environment && site.environment !== site.hiddenEnvironment;
  const subscriptionUpdated = (notices.data?.items ?? []).some(
    (n) => !n.readAt && SUBSCRIPTION_NOTICE_KINDS.includes(n.kind),
  );
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
      {showEnvironment && (
        <Tooltip title={t('header.environment')}>
          <Tag color="blue" data-testid="environment" style={{ marginInlineEnd: 0 }}>
            {site.environment}
          </Tag>
        </Tooltip>
      )}
      {subscriptionUpdated && (
        <Tooltip title={t('header.subscription')}>
          <Link to="/data-element/data-element-subscribe?isnotify=true" data-testid="subscription-flag">
            <InfoCircleFilled style={{ color: 'red', fontSize: 16 }} />
          </Link>
        </Tooltip>
      )}
      <NoticeBell />
      <LanguageSwitch />
      {import.meta.env.DEV && (
        <>
          <Tooltip title={t('header.settings')}>
            <SettingOutlined
              style={{ cursor: 'pointer', padding: '0 4px' }}
              onClick={() => setSettingsOpen(true)}
            />
          </Tooltip>
          <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />
        </>
      )}
    </div>
  );
}
