import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { configureClient } from '../api/client';
import type { ErrorAction } from '../api/errors';
import { endSession, loginAddress } from '../app/auth-flow';

/** The key of the 403 notice: one at a time, closed when the page changes. */
const FORBIDDEN_NOTICE = 'forbidden';

/**
 * Connects the HTTP client to the screen: the error catalogue of spec 000 section 8 becomes
 * messages, notices and redirects here, in one place.
 */
export function ApiBridge() {
  const { message, notification } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const { pathname } = useLocation();

  // A refusal belongs to the page that was refused: it goes when the person moves on.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each change of page
  useEffect(() => notification.destroy(FORBIDDEN_NOTICE), [pathname]);

  useEffect(() => {
    const toLogin = () => {
      const { pathname, search } = window.location;
      if (!pathname.startsWith('/user/login')) navigate(loginAddress(pathname, search), { replace: true });
    };
    const onError = (action: ErrorAction) => {
      switch (action.kind) {
        case 'cancelled':
          return;
        case 'forbidden':
          notification.error({
            key: FORBIDDEN_NOTICE,
            message: t('error.forbiddenTitle'),
            description: action.message,
          });
          return;
        case 'noProduct':
          notification.error({ message: t('error.title'), description: action.message, duration: 4 });
          return;
        case 'unauthorized':
          endSession(queryClient);
          if (action.hadToken) {
            notification.error({
              key: 'unauthorized',
              message: t('error.unauthorizedTitle'),
              description: t('error.unauthorizedBody'),
            });
          }
          toLogin();
          return;
        case 'toLogin':
          endSession(queryClient);
          toLogin();
          return;
        case 'show':
          message.error(action.message);
          return;
        case 'silent':
          return;
      }
    };
    configureClient({ onError, t: (k) => t(k) });
  }, [message, notification, navigate, queryClient, t]);

  return null;
}
