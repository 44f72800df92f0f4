import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { LoginForm, ProFormText } from '@ant-design/pro-components';
import { Alert, Modal, Radio, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { type LoginResult, login, setCurrentApp } from '../../api/auth';
import { afterLoginAddress, productApps, startSession } from '../../app/auth-flow';
import { useSite } from '../../app/queries';
import type { AppSummary } from '../../app/session';

/** Sign-in with user name and password; app choice when the person belongs to several apps. */
export default function LoginPage() {
  const { t } = useTranslation();
  const site = useSite();
  const navigate = useNavigate();
  const location = useLocation();
  const [error, setError] = useState<string | null>(null);
  const [choice, setChoice] = useState<{ apps: AppSummary[]; selected: number } | null>(null);
  const [switching, setSwitching] = useState(false);
  const appIdInAddress = Number(new URLSearchParams(location.search).get('AppId')) || undefined;

  const finish = () => navigate(afterLoginAddress(location.search), { replace: true });

  const onSignedIn = (result: LoginResult) => {
    startSession(result);
    const apps = productApps(result.AppList);
    if (apps.length > 1 && !appIdInAddress) {
      setChoice({ apps, selected: result.LoginAppId });
      return;
    }
    finish();
  };

  const chooseApp = async () => {
    if (!choice) return;
    setSwitching(true);
    try {
      await setCurrentApp(choice.selected);
      finish();
    } catch (e) {
      setError(e instanceof Error ? e.message : t('error.retry'));
      setChoice(null);
    } finally {
      setSwitching(false);
    }
  };

  return (
    <div style={{ width: 400, maxWidth: '100%' }} data-testid="login-page">
      <LoginForm
        logo={site.loginLogo || '/logo.svg'}
        title={site.loginTitle || t('app.name')}
        subTitle={t('login.tab')}
        submitter={{ searchConfig: { submitText: t('login.submit') } }}
        contentStyle={{ minWidth: 280, maxWidth: '100%' }}
        onFinish={async (values: { UserName: string; Password: string }) => {
          setError(null);
          try {
            onSignedIn(await login({ ...values, AppId: appIdInAddress }));
          } catch (e) {
            setError(e instanceof Error ? e.message : t('error.retry'));
          }
        }}
      >
        {error && (
          <Alert
            type="error"
            showIcon
            message={error}
            style={{ marginBottom: 24 }}
            data-testid="login-error"
          />
        )}
        <ProFormText
          name="UserName"
          fieldProps={{ size: 'large', prefix: <UserOutlined />, autoComplete: 'username' }}
          placeholder={t('login.username')}
          rules={[{ required: true, message: t('login.usernameRequired') }]}
        />
        <ProFormText.Password
          name="Password"
          fieldProps={{ size: 'large', prefix: <LockOutlined />, autoComplete: 'current-password' }}
          placeholder={t('login.password')}
          rules={[{ required: true, message: t('login.passwordRequired') }]}
        />
      </LoginForm>
      <Modal
        title={t('login.chooseApp')}
        open={!!choice}
        onOk={chooseApp}
        confirmLoading={switching}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        onCancel={() => {
          setChoice(null);
          finish();
        }}
      >
        <Typography.Paragraph type="secondary">{t('login.chooseAppHint')}</Typography.Paragraph>
        <Radio.Group
          value={choice?.selected}
          onChange={(e) => choice && setChoice({ ...choice, selected: e.target.value })}
        >
          <Space direction="vertical">
            {choice?.apps.map((a) => (
              <Radio key={a.AppId} value={a.AppId}>
                {a.AppName || a.AppShortName}
              </Radio>
            ))}
          </Space>
        </Radio.Group>
      </Modal>
    </div>
  );
}
