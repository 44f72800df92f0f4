import { InfoCircleFilled, SettingOutlined } from '@ant-design/icons';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SUBSCRIPTION_NOTICE_KINDS } from '../api/notices';
import { useNotices, useSite } from '../app/queries';
import { LanguageSwitch } from './LanguageSwitch';
import { NoticeBell } from './NoticeBell';

/** Right side of the header: environment, subscription flag, notices, language, dev settings. */
export function HeaderActions({ onOpenSettings }: { onOpenSettings: () => void }) {
  const { t } = useTranslation();
  const site = useSite();
  const notices = useNotices();
  const showEnvironment = !!site.environment && site.environment !== site.hiddenEnvironment;
  const subscriptionUpdated = (notices.data?.items ?? []).some(
    (n) => !n.readAt && SUBSCRIPTION_NOTICE_KINDS.includes(n.kind),
  );
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
      {showEnvironment && (
        <Tooltip
          title={
            <>
              {t('header.environment')}
              <br />
              {site.environment}
            </>
          }
        >
          {/* On a phone the tag is cut (the tooltip and a wide screen show it whole) so the avatar stays in the bar. */}
          <Tag
            color="blue"
            data-testid="environment"
            className="crdp-environment-tag"
            style={{ marginInlineEnd: 0 }}
          >
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
      <LanguageSwitch compact />
      {import.meta.env.DEV && (
        <Tooltip title={t('header.settings')}>
          <button
            type="button"
            className="crdp-plain-button"
            data-testid="settings-button"
            aria-label={t('header.settings')}
            onClick={onOpenSettings}
          >
            <SettingOutlined />
          </button>
        </Tooltip>
      )}
    </div>
  );
}
