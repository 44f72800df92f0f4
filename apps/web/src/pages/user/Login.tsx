import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { type AppSummary, LOGIN_PASSWORD_MAX, LOGIN_USER_NAME_MAX, type LoginResult } from '@crdp/core';
import { Alert, Button, Form, Input, Space } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { login, setCurrentApp } from '../../api/auth';
import { RequestError } from '../../api/client';
import { refusalText } from '../../api/errors';
import { afterLoginAddress, productApps, startSession } from '../../app/auth-flow';
import { useSite } from '../../app/queries';

// Needed only by a person in several apps, after the sign-in: not part of the page's first download.
const ChooseApp = lazy(() => import('./ChooseApp'));

/** Sign-in with user name and password; app choice when the person belongs to several apps. */
export default function LoginPage() {
  const { t, i18n } = useTranslation();
  const site = useSite();
  const navigate = useNavigate();
  const location = useLocation();
  // The refusal itself, worded at render time: switching the language words it again (issue 16).
  const [failure, setFailure] = useState<unknown>(null);
  const locale = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  const error =
    failure == null
      ? null
      : failure instanceof RequestError
        ? refusalText(failure.body, failure.message, locale)
        : failure instanceof Error
          ? failure.message
          : t('error.retry');
  const [choice, setChoice] = useState<{ apps: AppSummary[]; selected: number } | null>(null);
  const [switching, setSwitching] = useState(false);
  const [submitting, setSubmitting] = useState(false);
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
      setFailure(e);
      setChoice(null);
    } finally {
      setSwitching(false);
    }
  };

  return (
    <div style={{ width: 400, maxWidth: '100%' }} data-testid="login-page">
      {/* Plain antd Form, not pro-components' LoginForm: the login page is the first thing every
          person downloads, and LoginForm pulled in the whole ProForm (date pickers included). */}
      <div style={{ textAlign: 'center', marginBottom: 32 }}>
        <Space align="center" size={12}>
          <img src={site.loginLogo || '/logo.svg'} alt="" style={{ height: 44 }} />
          {/* Plain heading and text (styles.css): antd Typography would bring its copy, edit and
              ellipsis machinery for two static lines. */}
          <h2 className="crdp-login-title">{site.loginTitle || t('app.name')}</h2>
        </Space>
        <p className="crdp-login-subtitle">{t('login.tab')}</p>
      </div>
      <Form<{ UserName: string; Password: string }>
        size="large"
        style={{ minWidth: 280, maxWidth: 328, margin: '0 auto' }}
        onFinish={async (values) => {
          setFailure(null);
          setSubmitting(true);
          try {
            onSignedIn(await login({ ...values, AppId: appIdInAddress }));
          } catch (e) {
            setFailure(e);
          } finally {
            setSubmitting(false);
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
        <Form.Item name="UserName" rules={[{ required: true, message: t('login.usernameRequired') }]}>
          <Input
            prefix={<UserOutlined />}
            autoComplete="username"
            maxLength={LOGIN_USER_NAME_MAX}
            placeholder={t('login.username')}
          />
        </Form.Item>
        <Form.Item name="Password" rules={[{ required: true, message: t('login.passwordRequired') }]}>
          <Input.Password
            prefix={<LockOutlined />}
            autoComplete="current-password"
            maxLength={LOGIN_PASSWORD_MAX}
            placeholder={t('login.password')}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {t('login.submit')}
        </Button>
      </Form>
      {choice && (
        <Suspense fallback={null}>
          <ChooseApp
            apps={choice.apps}
            selected={choice.selected}
            onSelect={(selected) => setChoice({ ...choice, selected })}
            onOk={chooseApp}
            busy={switching}
            onCancel={() => {
              setChoice(null);
              finish();
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
