import { ACTION_COLOR, ERROR_COLOR } from '@crdp/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUSAntd from 'antd/es/locale/en_US';
import zhCNAntd from 'antd/es/locale/zh_CN';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useReducedMotion } from '../components/media-query';
import { useSettings } from '../shell/useSettings';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A failed request already told the person why; retrying 401/403 would only repeat it.
      retry: (count, error) => count < 1 && !(error as { status?: number }).status,
      refetchOnWindowFocus: false,
    },
  },
});

/** Query cache, antd locale and theme; the primary colour comes from the display settings. */
export function Providers({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const settings = useSettings();
  const reducedMotion = useReducedMotion();
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider
        locale={i18n.language === 'en-US' ? enUSAntd : zhCNAntd}
        theme={{
          token: {
            colorPrimary: settings.primaryColor,
            colorError: ERROR_COLOR,
            colorLink: ACTION_COLOR,
            // No animations for a person whose system asks for reduced motion.
            motion: !reducedMotion,
          },
        }}
      >
        {/* Notices open under the header (48 px) and the sign-in page's language bar, never over them. */}
        <AntApp notification={{ top: 64 }}>{children}</AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
