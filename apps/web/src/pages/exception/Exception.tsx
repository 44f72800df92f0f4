import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** 403, 404 and 500 pages with the spec's texts and a button back to the dashboard route. */
export function Exception({ code }: { code: 403 | 404 | 500 }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status={String(code) as '403' | '404' | '500'}
      title={code}
      subTitle={t(`exception.${code}`)}
      data-testid={`exception-${code}`}
      extra={
        <Button type="primary" onClick={() => navigate('/dashboard/workplace')}>
          {t('common.dashboard')}
        </Button>
      }
    />
  );
}
