import type { DemoStatus } from '@crdp/core';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Progress } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { rest } from '../../api/client';
import { useJobPoll } from '../../components/jobs/useJobPoll';
import './demo-locales';

/**
 * While the demo hospital is being made (a background job after the first start), the workbench
 * says so with its progress; the banner goes when the demo is ready, and the workbench's
 * figures are asked for again then.
 */
export function DemoBanner() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const wasPreparing = useRef(false);
  const status = useJobPoll<DemoStatus>({
    queryKey: ['demo', 'status'],
    queryFn: () => rest<DemoStatus>({ url: 'demo/status' }),
    underWay: (s) => s.state === 'preparing',
    intervalMs: 2000,
    onEnd: () => {
      if (wasPreparing.current) void queryClient.invalidateQueries({ queryKey: ['workbench'] });
    },
  });
  const s = status.data;
  if (!s || s.state === 'off' || s.state === 'ready') return null;
  if (s.state === 'preparing') wasPreparing.current = true;
  const failed = s.state === 'failed';
  return (
    <Alert
      data-testid="demo-banner"
      type={failed ? 'warning' : 'info'}
      showIcon
      style={{ marginBottom: 16 }}
      message={t(failed ? 'demoHospital.failed' : 'demoHospital.preparing', { progress: s.progress })}
      description={
        <>
          <div>{t(failed ? 'demoHospital.failedHint' : 'demoHospital.preparingHint')}</div>
          {!failed && <Progress percent={s.progress} size="small" status="active" />}
        </>
      }
    />
  );
}
