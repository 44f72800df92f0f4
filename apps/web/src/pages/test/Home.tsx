import { CheckCircleTwoTone, CloseCircleTwoTone, LoadingOutlined } from '@ant-design/icons';
import { ProCard } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Space, Typography } from 'antd';
import axios from 'axios';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageSwitch } from '../../shell/LanguageSwitch';
import { MonthBarDemo } from './MonthBarDemo';

interface Probe {
  ok: boolean;
  status: number | null;
  body: unknown;
}

/** Calls a health endpoint directly (outside the app client: no session, no cancel on navigation). */
async function probe(path: string): Promise<Probe> {
  try {
    const res = await axios.get(path, { timeout: 10_000, validateStatus: () => true });
    return { ok: res.status >= 200 && res.status < 300, status: res.status, body: res.data };
  } catch (e) {
    return { ok: false, status: null, body: e instanceof Error ? e.message : String(e) };
  }
}

function storageWorks() {
  try {
    localStorage.setItem('fygo__selfcheck', '1');
    localStorage.removeItem('fygo__selfcheck');
    return true;
  } catch {
    return false;
  }
}

/** /test/home: the system self-check a hospital's IT staff open first when something is wrong. */
export default function SelfCheck() {
  const { t } = useTranslation();
  const healthz = useQuery({ queryKey: ['selfcheck', 'healthz'], queryFn: () => probe('/healthz') });
  const readyz = useQuery({ queryKey: ['selfcheck', 'readyz'], queryFn: () => probe('/readyz') });

  const mark = (q: typeof healthz) =>
    q.isFetching ? (
      <Space>
        <LoadingOutlined /> {t('selfCheck.checking')}
      </Space>
    ) : q.data?.ok ? (
      <Space data-testid="check-ok">
        <CheckCircleTwoTone twoToneColor="#52c41a" /> {t('selfCheck.ok')} ({q.data.status})
      </Space>
    ) : (
      <Space data-testid="check-fail">
        <CloseCircleTwoTone twoToneColor="red" /> {t('selfCheck.fail')} ({q.data?.status ?? '-'})
      </Space>
    );
  const yesNo = (v: boolean) => (v ? t('selfCheck.yes') : t('selfCheck.no'));
  const body = (q: typeof healthz) => (q.data ? JSON.stringify(q.data.body) : '');
  const version =
    (healthz.data?.body as { version?: string } | undefined)?.version ??
    (readyz.data?.body as { version?: string } | undefined)?.version ??
    '-';

  return (
    <div style={{ maxWidth: 960, margin: '0 auto', padding: 24 }} data-testid="self-check">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }}>
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t('selfCheck.title')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('selfCheck.subtitle')}</Typography.Text>
        </div>
        <Space>
          <LanguageSwitch />
          <Button
            onClick={() => {
              void healthz.refetch();
              void readyz.refetch();
            }}
          >
            {t('selfCheck.recheck')}
          </Button>
          <Link to="/user/login">{t('selfCheck.toLogin')}</Link>
        </Space>
      </Space>
      <ProCard direction="column" gutter={[0, 16]}>
        <ProCard title={t('app.name')} bordered>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('selfCheck.healthz')}>
              {mark(healthz)} <Typography.Text code>{body(healthz)}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('selfCheck.readyz')}>
              {mark(readyz)} <Typography.Text code>{body(readyz)}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('selfCheck.version')}>{version}</Descriptions.Item>
            <Descriptions.Item label={t('selfCheck.apiDocs')}>
              <a href="/api/docs" target="_blank" rel="noreferrer">
                /api/docs
              </a>
            </Descriptions.Item>
          </Descriptions>
        </ProCard>
        <ProCard title={t('selfCheck.browser')} bordered>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('selfCheck.userAgent')}>{navigator.userAgent}</Descriptions.Item>
            <Descriptions.Item label={t('selfCheck.language')}>{navigator.language}</Descriptions.Item>
            <Descriptions.Item label={t('selfCheck.screen')}>
              {window.screen.width} × {window.screen.height} ({window.innerWidth} × {window.innerHeight})
            </Descriptions.Item>
            <Descriptions.Item label={t('selfCheck.cookies')}>
              {yesNo(navigator.cookieEnabled)}
            </Descriptions.Item>
            <Descriptions.Item label={t('selfCheck.storage')}>{yesNo(storageWorks())}</Descriptions.Item>
            <Descriptions.Item label={t('selfCheck.secure')}>
              {yesNo(window.isSecureContext)}
            </Descriptions.Item>
            <Descriptions.Item label={t('selfCheck.webCrypto')}>
              {yesNo(!!globalThis.crypto?.subtle)}
            </Descriptions.Item>
          </Descriptions>
        </ProCard>
        <MonthBarDemo />
      </ProCard>
    </div>
  );
}
