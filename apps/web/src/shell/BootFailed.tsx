import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** A sign-in or free-access link that could not be used, with nobody signed in: say why. */
export default function BootFailed({ what, message }: { what: 'handoff' | 'freeAccess'; message: string }) {
  const { t } = useTranslation();
  return (
    <Result
      status="warning"
      title={t(what === 'handoff' ? 'handoff.failed' : 'login.freeAccessFailed')}
      subTitle={message}
      extra={
        <Button type="primary" href="/user/login">
          {t('login.toLogin')}
        </Button>
      }
    />
  );
}
