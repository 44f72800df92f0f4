import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';

/** The spinner shown while a page's code or data loads. */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div style={{ padding: 96, textAlign: 'center' }}>
      <Spin size="large" tip={t('app.loading')}>
        <div style={{ height: 48 }} />
      </Spin>
    </div>
  );
}
